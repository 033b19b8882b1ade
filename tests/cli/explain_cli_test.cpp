// `warpsim explain` and `simulate --explain` on the command line (docs/explain.md): the same
// explanation both ways, -o with the format from its extension, and bad flags answered with one
// located line and exit status 2. The views themselves: tests/explain/views_test.py.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

const std::string kSgemm =
    "workloads/sgemm/sgemm.ptx --kernel sgemm_tiled --gpu h100 --grid 16,16 --block 16,16 --param 0=256 --ptxas none";

TEST(ExplainCli, ExplainIsSimulateExplainUnderThePipesModel) {
  const Result explain = run_warpsim("explain " + kSgemm + " --format json");
  ASSERT_EQ(explain.status, 0) << explain.err;
  const Result simulate = run_warpsim("simulate " + kSgemm + " --model pipes --explain");
  ASSERT_EQ(simulate.status, 0) << simulate.err;
  EXPECT_EQ(explain.out, simulate.out);
  const auto j = nlohmann::json::parse(explain.out);
  EXPECT_EQ(j["model"], "pipes");
  EXPECT_EQ(j["explain"]["limiter"], j["limits"]["limiter"]);
  EXPECT_EQ(j["explain"]["occupancy"]["curves"].size(), 3u);
  // Text by default, starting with the prediction's figures and ending with the roofline.
  const Result text = run_warpsim("explain " + kSgemm);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("why: " + j["explain"]["sentence"].get<std::string>()), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nroofline: "), std::string::npos);
}

TEST(ExplainCli, WritesHtmlAndChartsWhereAsked) {
  const std::string dir = testing::TempDir() + "/explain_cli";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);  // -o writes into a folder that exists; --charts makes its own
  const Result r = run_warpsim("explain " + kSgemm + " -o " + dir + "/report.html --charts " + dir + "/charts");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/report.html"));
  for (const char* chart : {"occupancy_block_size", "occupancy_registers", "occupancy_shared_memory", "roofline"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/charts/" + chart + ".svg")) << chart;
  }
}

TEST(ExplainCli, BadFlagsAreOneLineErrors) {
  expect_input_error("explain " + kSgemm + " --model memory", "explain needs the pipes model");
  expect_input_error("simulate " + kSgemm + " --charts /tmp/x", "--charts needs --explain");
  expect_input_error("simulate " + kSgemm + " --format html", "--format");
  expect_input_error("explain " + kSgemm + " --format csv", "--format");
  expect_input_error("explain no/such.ptx --gpu h100 --grid 1 --block 32", "no/such.ptx");
}

}  // namespace

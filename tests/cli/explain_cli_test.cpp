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

const std::string kTranspose =
    "tests/advice/kernels/advice_bank_conflict.sm_80.ptx --gpu a100 --grid 64,64 --block 32,8 --param 2=2048 --ptxas none";

TEST(ExplainCli, FindingsComeFirstWithTheirSpeedUp) {
  const Result json = run_warpsim("explain " + kTranspose + " --kernel transpose_conflicted --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  const auto& findings = j["explain"]["findings"];
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0]["kind"], "bank_conflicts");
  EXPECT_TRUE(findings[0]["speedup"].is_number());
  EXPECT_EQ(findings[0]["source_line"], 21);
  // The text names the finding right after why, with the CUDA line and the re-simulated time.
  const Result text = run_warpsim("explain " + kTranspose + " --kernel transpose_conflicted");
  ASSERT_EQ(text.status, 0) << text.err;
  const auto why = text.out.find("why: "), finding = text.out.find("1. "), sol = text.out.find("speed of light");
  ASSERT_NE(finding, std::string::npos) << text.out;
  EXPECT_LT(why, finding);
  EXPECT_LT(finding, sol);
  EXPECT_NE(text.out.find("advice_bank_conflict.cu:21"), std::string::npos);
}

TEST(ExplainCli, BaselineSideBySide) {
  const Result json = run_warpsim("explain " + kTranspose + " --kernel transpose_padded --baseline-kernel transpose_conflicted --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["kernel"], "transpose_padded");
  EXPECT_EQ(j["baseline_kernel"], "transpose_conflicted");
  EXPECT_DOUBLE_EQ(j["speedup"].get<double>(), j["baseline_time_us"].get<double>() / j["time_us"].get<double>());
  EXPECT_EQ(j["after"]["time_us"], j["time_us"]);
  const Result alone = run_warpsim("simulate " + kTranspose + " --kernel transpose_conflicted --model pipes");
  ASSERT_EQ(alone.status, 0) << alone.err;
  EXPECT_EQ(nlohmann::json::parse(alone.out)["time_us"], j["baseline_time_us"]);
  // --baseline FILE names the other kernel's file; the same file here.
  const Result file = run_warpsim("explain " + kTranspose + " --kernel transpose_padded --baseline "
                                  "tests/advice/kernels/advice_bank_conflict.sm_80.ptx --baseline-kernel transpose_conflicted --format json");
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_EQ(nlohmann::json::parse(file.out)["speedup"], j["speedup"]);
  const Result text = run_warpsim("explain " + kTranspose + " --kernel transpose_padded --baseline-kernel transpose_conflicted");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("before/after: transpose_conflicted -> transpose_padded"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("the line that moved most"), std::string::npos);
}

TEST(ExplainCli, BadFlagsAreOneLineErrors) {
  expect_input_error("explain " + kSgemm + " --model memory", "explain needs the pipes model");
  expect_input_error("simulate " + kSgemm + " --charts /tmp/x", "--charts needs --explain");
  expect_input_error("simulate " + kSgemm + " --format html", "--format");
  expect_input_error("explain " + kSgemm + " --format csv", "--format");
  expect_input_error("explain no/such.ptx --gpu h100 --grid 1 --block 32", "no/such.ptx");
}

}  // namespace

// `warpsim simulate --gpu a,b,c` and `--gpu all`: one row per GPU, each equal to simulate on
// that GPU alone; text, JSON, CSV at full precision and the bar chart.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_runner.hpp"
#include "support/well_formed_xml.hpp"

namespace {

using namespace warpsim::testing_support;

const std::string kDwt = "simulate workloads/dwt/matrix.kp --grid 68 --block 61 --param K=8 --tp 5 --tm 31";

nlohmann::json json_of(const std::string& arguments) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 0) << arguments << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(CompareGpusCli, EachRowIsSimulateOnThatGpu) {
  const nlohmann::json j = json_of(kDwt + " --gpu a100,h100,rtx2080 --model memory --format json");
  EXPECT_EQ(j["kernel"], "dwt_matrix");
  EXPECT_EQ(j["model"], "memory");
  ASSERT_EQ(j["gpus"].size(), 3u);
  const double first = j["gpus"][0]["time_us"];
  const char* ids[] = {"a100", "h100", "rtx2080"};
  for (std::size_t i = 0; i < 3; ++i) {
    const nlohmann::json& row = j["gpus"][i];
    EXPECT_EQ(row["gpu"], ids[i]);
    const nlohmann::json alone = json_of(kDwt + " --model memory --gpu " + ids[i]);
    EXPECT_EQ(row["time_us"], alone["time_us"]) << ids[i];
    EXPECT_EQ(row["cycles"], alone["cycles"]) << ids[i];
    EXPECT_EQ(row["speedup"].get<double>(), first / alone["time_us"].get<double>()) << ids[i];
    EXPECT_TRUE(row["limiter"].is_null()) << "only --model pipes names a limiter";
  }
  EXPECT_EQ(j["gpus"][0]["speedup"], 1.0);
}

TEST(CompareGpusCli, PipesModelNamesTheLimiter) {
  const nlohmann::json j = json_of(kDwt + " --gpu h100,a100 --model pipes --format json");
  for (const nlohmann::json& row : j["gpus"]) {
    const nlohmann::json alone = json_of(kDwt + " --model pipes --gpu " + row["gpu"].get<std::string>());
    EXPECT_EQ(row["limiter"], alone["limits"]["limiter"]);
    EXPECT_FALSE(row["limiter"].get<std::string>().empty());
  }
}

TEST(CompareGpusCli, CsvAtFullPrecisionTextAndChart) {
  // The memory model, as this table's expectations were written for it.
  const nlohmann::json j = json_of(kDwt + " --gpu rtx2080,h100 --model memory --format json");
  const Result csv = run_warpsim(kDwt + " --gpu rtx2080,h100 --model memory --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("gpu,kernel,model,time_us,cycles,speedup,limiter\nrtx2080,dwt_matrix,memory,", 0), 0u) << csv.out;
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);
  for (const nlohmann::json& row : j["gpus"]) {
    ASSERT_TRUE(std::getline(lines, line));
    const std::size_t time = line.find(",memory,") + 8;
    EXPECT_EQ(std::stod(line.substr(time, line.find(',', time) - time)), row["time_us"].get<double>()) << line;
  }
  const std::string chart = test_dir() + "/gpus.svg";
  const Result text = run_warpsim(kDwt + " --gpu rtx2080,h100 --model memory --chart " + chart);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_EQ(text.out.rfind("dwt_matrix on 2 GPUs, memory model; speed-up against rtx2080\ngpu", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("1.000x"), std::string::npos);
  const std::string svg = slurp(chart);
  EXPECT_TRUE(well_formed_xml(svg));
  EXPECT_NE(svg.find(">rtx2080</text>"), std::string::npos);
  EXPECT_NE(svg.find(">h100</text>"), std::string::npos);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 0, true);
}

TEST(CompareGpusCli, AllIsEveryBuiltInProfile) {
  const nlohmann::json gpus = json_of("gpus --format json");
  // Under the memory model: the default pipes model has no table for the Fermi profiles (CC 2.x).
  const nlohmann::json j = json_of(kDwt + " --gpu all --model memory --format json");
  ASSERT_EQ(j["gpus"].size(), gpus.size());
  for (std::size_t i = 0; i < gpus.size(); ++i) EXPECT_EQ(j["gpus"][i]["gpu"], gpus[i]["id"]);
}

TEST(CompareGpusCli, BadListsAreOneLine) {
  const std::string dir = test_dir();
  expect_input_error(kDwt + " --gpu a100,nosuchgpu --chart " + dir + "/c.svg", "unknown GPU");
  EXPECT_FALSE(std::filesystem::exists(dir + "/c.svg"));
  expect_input_error(kDwt + " --gpu a100,,h100", "--gpu");
  expect_input_error(kDwt + " --gpu a100,a100", "--gpu 'a100,a100': a100 is listed twice");
  expect_input_error(kDwt + " --gpu a100,h100 --set clock_mhz=x2", "--set takes one GPU");
  expect_input_error(kDwt + " --gpu a100 --chart " + dir + "/c.svg", "--chart needs a --gpu list");
  expect_input_error(kDwt + " --gpu a100 --format csv", "");
}

}  // namespace

// `warpsim app` end to end: the bundled example in every format, the chart, the same rows for
// any thread count, and bad input refused with nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/cli_runner.hpp"
#include "support/well_formed_xml.hpp"
#include "warpsim/report/csv_table.hpp"

namespace {

using namespace warpsim::testing_support;
namespace fs = std::filesystem;

const std::string kApp = "workloads/apps/dwt_scaling.toml";

TEST(AppCli, JsonRowsAreTheSumOfTheirSteps) {
  const Result r = run_warpsim("app " + kApp + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["app"], "dwt-scaling");
  ASSERT_EQ(json["rows"].size(), 8u);  // M = 1, 2, 4, 8 x two N
  for (const auto& row : json["rows"]) {
    double sum = 0;
    for (const auto& step : row["steps"]) sum += step["time_us"].get<double>();
    EXPECT_DOUBLE_EQ(row["total_us"].get<double>(), sum);
  }
  const auto& row = json["rows"][5];  // M = 4, N = 4194304
  EXPECT_EQ(row["gpus"], 4);
  EXPECT_EQ(row["N"], 4194304);
  EXPECT_EQ(row["steps"][0]["time_us"].get<double>(), 8.0 + 4194304.0 / 3000.0);  // 16 MiB / 4 over 12/4 GB/s
  EXPECT_EQ(row["steps"][3]["time_us"].get<double>(), 2 * (50.0 + 4096 / 125.0));
  // The kernel step is `warpsim predict` of each GPU's share.
  const Result predict = run_warpsim("predict dwt_matrix --gpu rtx2080 --param K=8 --param N=1048576 --format json");
  ASSERT_EQ(predict.status, 0) << predict.err;
  EXPECT_EQ(row["steps"][1]["time_us"], nlohmann::json::parse(predict.out)["time_us"]);
}

TEST(AppCli, CsvMatchesJsonAtFullPrecisionForAnyThreadCount) {
  const Result csv = run_warpsim("app " + kApp + " --format csv --jobs 1");
  const Result csv4 = run_warpsim("app " + kApp + " --format csv --jobs 4");
  const Result json = run_warpsim("app " + kApp + " --format json");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out, csv4.out);
  const auto table = warpsim::sim::report::parse_csv(csv.out, "out.csv");
  EXPECT_EQ(table.header, (std::vector<std::string>{"gpu", "gpus", "N", "h2d_us", "dwt_matrix_us", "d2h_us", "broadcast_us", "total_us", "speedup"}));
  const auto rows = nlohmann::json::parse(json.out)["rows"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(*warpsim::sim::report::parse_number(table.rows[i][7]), rows[i]["total_us"].get<double>());
    EXPECT_EQ(*warpsim::sim::report::parse_number(table.rows[i][8]), rows[i]["speedup"].get<double>());
  }
}

TEST(AppCli, TextTableAndChart) {
  const std::string dir = test_dir();
  const Result r = run_warpsim("app " + kApp + " --chart '" + dir + "/scaling.svg' -o '" + dir + "/rows.txt'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string text = slurp(dir + "/rows.txt");
  EXPECT_NE(text.find("speedup"), std::string::npos);
  EXPECT_NE(text.find("   1.00\n"), std::string::npos);  // M = 1 against itself
  const std::string svg = slurp(dir + "/scaling.svg");
  EXPECT_TRUE(well_formed_xml(svg));
  EXPECT_NE(svg.find("N=1048576"), std::string::npos);
  EXPECT_NE(svg.find("ideal (M)"), std::string::npos);
}

TEST(AppCli, BadInputWritesNothing) {
  const std::string dir = test_dir() + "/out";  // test_dir() holds the captured stdout and stderr
  fs::create_directories(dir);
  expect_input_error("app no/such/app.toml --chart '" + dir + "/c.svg'", "no/such/app.toml");
  expect_input_error("app tests/malformed/toml/app_unknown_axis.toml -o '" + dir + "/rows.csv'",
                     "tests/malformed/toml/app_unknown_axis.toml:");
  expect_input_error("app " + kApp + " --format xml", "--format");
  expect_input_error("app " + kApp + " --jobs -1", "--jobs");
  expect_input_error("app", "");
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(AppCli, OutputToDevNullLeavesTheDevice) {
  if (!fs::is_character_file("/dev/null")) GTEST_SKIP() << "no /dev/null device";
  const Result r = run_warpsim("app " + kApp + " -o /dev/null");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));  // once renamed over by PATH.partial
}

TEST(AppCli, EveryBundledAppRuns) {
  std::size_t apps = 0;
  for (const auto& entry : fs::directory_iterator(kSourceDir + "/workloads/apps")) {
    const std::string path = "workloads/apps/" + entry.path().filename().string();
    const Result r = run_warpsim("app " + path + " --format json");
    EXPECT_EQ(r.status, 0) << path << "\n" << r.err;
    EXPECT_EQ(without_ptx_order_warning(r.err), "") << path;  // no warning either
    ++apps;
  }
  EXPECT_GE(apps, 4u);
}

TEST(AppCli, HelpNamesTheFormat) {
  const Result r = run_warpsim("app --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("docs/apps.md"), std::string::npos);
}

}  // namespace

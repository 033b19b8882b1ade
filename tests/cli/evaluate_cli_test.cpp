// `warpsim evaluate` end to end: a real sweep against measurements, JSON at full precision, CSV,
// charts that are well-formed SVG, and bad input refused with nothing written.
#include <expat.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "warpsim/report/csv_table.hpp"
#include "support/cli_runner.hpp"
#include "support/well_formed_xml.hpp"

namespace {

using namespace warpsim::testing_support;
namespace fs = std::filesystem;

const std::string kMeasured = "tests/evaluate/data/rtx2080-measured.csv";

// The RTX 2080 suite's predictions, written by `warpsim sweep` into this test's folder.
std::string sweep_predictions() {
  const std::string path = test_dir() + "/predicted.csv";
  const Result r = run_warpsim("sweep workloads/suites/rtx2080-dwt.toml -o '" + path + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  return path;
}

TEST(EvaluateCli, SweepAgainstMeasurementsAtFullPrecision) {
  const std::string predicted = sweep_predictions();
  const Result r = run_warpsim("evaluate '" + predicted + "' " + kMeasured + " --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["keys"], nlohmann::json({"gpu", "workload", "K", "N"}));  // launches, samples: results
  ASSERT_EQ(json["experiments"].size(), 4u);
  EXPECT_EQ(json["overall"]["points"], 28);

  // Every point carries the sweep's time exactly and r = predicted / measured exactly.
  const auto sweep = warpsim::sim::report::read_csv(predicted);
  std::map<std::string, double> predicted_us;
  for (const auto& row : sweep.rows) {
    predicted_us[row[sweep.column("workload")] + " " + row[sweep.column("K")] + " " + row[sweep.column("N")]] =
        std::stod(row[sweep.column("time_us")]);
  }
  std::map<std::string, std::vector<double>> means_by_workload;
  for (const auto& e : json["experiments"]) {
    double sum = 0, max = 0;
    for (const auto& p : e["data"]) {
      const std::string key = e["workload"].get<std::string>() + " " + e["keys"]["K"].get<std::string>() + " " +
                              std::to_string(p["x"].get<long long>());
      EXPECT_EQ(p["predicted_us"].get<double>(), predicted_us.at(key)) << key;
      const double ratio = p["predicted_us"].get<double>() / p["measured_us"].get<double>();
      EXPECT_EQ(p["ratio"].get<double>(), ratio);
      sum += std::abs(1 - ratio);
      max = std::max(max, std::abs(1 - ratio));
    }
    EXPECT_EQ(e["mean_error"].get<double>(), sum / static_cast<double>(e["data"].size()));
    EXPECT_EQ(e["max_error"].get<double>(), max);
    means_by_workload[e["workload"].get<std::string>()].push_back(e["mean_error"].get<double>());
  }
  const double matrix = (means_by_workload["dwt_matrix"][0] + means_by_workload["dwt_matrix"][1]) / 2;
  const double lattice = (means_by_workload["dwt_lattice"][0] + means_by_workload["dwt_lattice"][1]) / 2;
  EXPECT_EQ(json["workloads"][0]["workload"], "dwt_matrix");
  EXPECT_EQ(json["workloads"][0]["mean_error"].get<double>(), matrix);
  EXPECT_EQ(json["overall"]["mean_error"].get<double>(), (matrix + lattice) / 2);
  // The first workload of the file over the second (eq. 21, 22), one ratio experiment per K.
  EXPECT_EQ(json["ratio"]["a"], "dwt_matrix");
  EXPECT_EQ(json["ratio"]["b"], "dwt_lattice");
  ASSERT_EQ(json["ratio"]["experiments"].size(), 2u);
  const auto& p = json["ratio"]["experiments"][0]["data"][0];  // K = 8, N = 64: measured 6.0 / 27.5
  EXPECT_EQ(p["measured"].get<double>(), 6.0 / 27.5);
  EXPECT_EQ(p["predicted"].get<double>(), predicted_us.at("dwt_matrix 8 64") / predicted_us.at("dwt_lattice 8 64"));
  EXPECT_TRUE(json["skipped_lines"].empty());
}

TEST(EvaluateCli, TextAndCsvAgree) {
  const std::string predicted = sweep_predictions();
  const Result text = run_warpsim("evaluate '" + predicted + "' " + kMeasured);
  ASSERT_EQ(text.status, 0) << text.err;
  for (const char* part : {"Experiments: r = t_model / t_measured", "Per workload (eq. 19)", "overall",
                           "Time ratios R = t(dwt_matrix) / t(dwt_lattice)", "rtx2080  dwt_matrix    8       7"}) {
    EXPECT_NE(text.out.find(part), std::string::npos) << part << "\n" << text.out;
  }
  const std::string out = test_dir() + "/evaluation.csv";
  ASSERT_EQ(run_warpsim("evaluate '" + predicted + "' " + kMeasured + " -o '" + out + "'").status, 0);
  const auto csv = warpsim::sim::report::read_csv(out);  // the format follows the extension
  EXPECT_EQ(csv.header, (std::vector<std::string>{"level", "gpu", "workload", "K", "experiments", "points", "t_min_us",
                                                  "t_max_us", "mean_error", "max_error"}));
  ASSERT_EQ(csv.rows.size(), 4u + 2 + 1 + 2 + 1);
  EXPECT_EQ(csv.rows[6][0], "overall");
  EXPECT_EQ(csv.rows[9][0], "ratio_overall");
  const auto json = nlohmann::json::parse(run_warpsim("evaluate '" + predicted + "' " + kMeasured + " --format json").out);
  EXPECT_EQ(std::stod(csv.rows[0][8]), json["experiments"][0]["mean_error"].get<double>());
  EXPECT_EQ(std::stod(csv.rows[6][8]), json["overall"]["mean_error"].get<double>());
  EXPECT_EQ(std::stod(csv.rows[9][9]), json["ratio"]["max_error"].get<double>());
}

TEST(EvaluateCli, ChartsPerExperimentAndRatioExperiment) {
  const std::string predicted = sweep_predictions();
  const std::string dir = test_dir() + "/charts";
  fs::remove_all(dir);
  const Result r = run_warpsim("evaluate '" + predicted + "' " + kMeasured + " --charts '" + dir + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> names = {"rtx2080-dwt_matrix-K8.svg", "rtx2080-dwt_matrix-K14.svg",
                                          "rtx2080-dwt_lattice-K8.svg", "rtx2080-dwt_lattice-K14.svg",
                                          "rtx2080-dwt_matrix_vs_dwt_lattice-K8.svg",
                                          "rtx2080-dwt_matrix_vs_dwt_lattice-K14.svg"};
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 6) << r.err;
  for (const std::string& name : names) {
    const std::string svg = slurp(dir + "/" + name);
    EXPECT_TRUE(well_formed_xml(svg)) << name;
    EXPECT_NE(r.err.find(dir + "/" + name), std::string::npos) << r.err;
    EXPECT_NE(svg.find("<polyline"), std::string::npos) << name;
    EXPECT_NE(svg.find("2<tspan"), std::string::npos) << name;  // powers of two on the x axis
  }
  const std::string matrix = slurp(dir + "/" + names[0]);
  EXPECT_NE(matrix.find("t_min = 6 us"), std::string::npos);
  EXPECT_NE(matrix.find("t_max = 6.9 us"), std::string::npos);
  EXPECT_NE(matrix.find("\u00ca = 10.0 %"), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 6);  // no .partial left
}

TEST(EvaluateCli, RealH100RunToRunNoise) {
  // The repeat run as "predictions" of the main run: README says repeat/main lies in 0.74..1.21.
  const Result r = run_warpsim("evaluate workloads/measurements/h100-dwt-repeat.csv workloads/measurements/h100-dwt.csv --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["experiments"].size(), 8u);
  EXPECT_EQ(json["overall"]["points"], 120);
  EXPECT_GT(json["overall"]["max_error"].get<double>(), 0.2);
  EXPECT_LE(json["overall"]["max_error"].get<double>(), 0.26 + 1e-9);
  EXPECT_EQ(json["ratio"]["experiments"].size(), 4u);
}

TEST(EvaluateCli, RatioChoiceAllowMissingAndKeys) {
  const std::string predicted = sweep_predictions();
  auto r = run_warpsim("evaluate '" + predicted + "' " + kMeasured + " --format json --ratio dwt_lattice/dwt_matrix");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["ratio"]["a"], "dwt_lattice");
  const std::string extra = test_dir() + "/extra.csv";
  std::ofstream(extra) << slurp(kSourceDir + "/" + kMeasured) << "rtx2080,dwt_matrix,8,3,1,6.0,20\n";
  expect_input_error("evaluate '" + predicted + "' '" + extra + "'", extra + ":30: no prediction for gpu=rtx2080");
  r = run_warpsim("evaluate '" + predicted + "' '" + extra + "' --allow-missing --format json --keys gpu,workload,K,N");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["skipped_lines"], nlohmann::json({30}));
  r = run_warpsim("evaluate '" + predicted + "' '" + extra + "' --allow-missing");
  EXPECT_NE(r.out.find("Skipped 1 measured rows without a prediction (lines 30)"), std::string::npos) << r.out;
}

TEST(EvaluateCli, BadInputWritesNothing) {
  const std::string predicted = sweep_predictions();
  const std::string out = test_dir() + "/out.json", charts = test_dir() + "/bad-charts";
  fs::remove_all(charts);
  const std::string tail = " -o '" + out + "' --charts '" + charts + "'";
  expect_input_error("evaluate '" + predicted + "' tests/evaluate/data/malformed/duplicate.csv" + tail,
                     "tests/evaluate/data/malformed/duplicate.csv:4: duplicate row");
  expect_input_error("evaluate '" + predicted + "' " + kMeasured + " --ratio dwt_matrix/fft" + tail,
                     "--ratio dwt_matrix/fft: no workload 'fft'");
  expect_input_error("evaluate '" + predicted + "' " + kMeasured + " --x M" + tail, "--x M: not one of the key columns");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(charts));
}

}  // namespace

// `warpsim calibrate` end to end: the TOML it prints is a profile section that loads back and
// predicts with the same E; JSON at full precision; .kp workloads with a launch and launch_us;
// bad input refused with one located line and nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/calibrate/fit_error.hpp"
#include "warpsim/workload/named_workload_model.hpp"
#include "calibrate/synthetic_data.hpp"
#include "support/cli_runner.hpp"

namespace {

using namespace warpsim;
using namespace warpsim::testing_support;
namespace wl = warpsim::sim::workload;

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = test_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Noisy measurements of dwt_matrix on the RTX 2080 (t_p = 6 us, t_m = 4) under the memory model
// (synthetic_data's), written as a CSV.
std::string dwt_matrix_measurements(const wl::NamedWorkloadModel& model, const gpus::Profile& gpu) {
  const cal::MeasuredData data = synthetic_data(model, gpu, grid_points({8, 14}, powers_of_two(6, 20)),
                                                {6.0, isa::cycles_from_double(4), {}}, 0.03, 7);
  return write_file("measured.csv", measurements_csv(data, "rtx2080", "dwt_matrix"));
}

// The profile text without its [calibration.dwt_matrix] section.
std::string profile_without_section(const std::string& text, const std::string& section) {
  std::string out, line;
  std::istringstream in(text);
  bool skipping = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '[') skipping = line == "[" + section + "]";
    if (!skipping) out += line + "\n";
  }
  return out;
}

TEST(CalibrateCli, TomlSectionLoadsBackWithTheSameError) {
  const gpus::Profile gpu = gpus::load_profile("rtx2080");
  const wl::NamedWorkloadModel model(wl::find_workload("dwt_matrix"));
  const std::string measured = dwt_matrix_measurements(model, gpu);
  const std::string common = "calibrate '" + measured + "' --gpu rtx2080 --workload dwt_matrix --fit tm,tp,d2 --model memory --max-evaluations 800";
  const Result toml = run_warpsim(common);
  ASSERT_EQ(toml.status, 0) << toml.err;
  EXPECT_NE(toml.out.find("# before: E = "), std::string::npos) << toml.out;
  EXPECT_NE(toml.out.find("# after:  E = "), std::string::npos) << toml.out;
  const std::size_t section = toml.out.find("[calibration.dwt_matrix]\n");
  ASSERT_NE(section, std::string::npos) << toml.out;

  const Result json_run = run_warpsim(common + " --format json");
  ASSERT_EQ(json_run.status, 0) << json_run.err;
  const auto json = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(json["calibration"].get<std::string>(), toml.out.substr(section));  // the same fit, deterministic
  EXPECT_EQ(json["points"], 30);
  EXPECT_LT(json["after"]["mean_error"].get<double>(), 0.03);
  EXPECT_LT(json["after"]["mean_error"].get<double>(), json["before"]["mean_error"].get<double>());
  EXPECT_LE(json["evaluations"].get<int>(), 800);

  // Paste the section into a copy of the profile, load it, predict every row with it.
  const std::string profile_path = test_dir() + "/rtx2080.toml";
  std::ofstream(profile_path) << profile_without_section(slurp(kSourceDir + "/gpus/rtx2080.toml"), "calibration.dwt_matrix")
                              << "\n" << toml.out;
  const gpus::Profile calibrated = gpus::load_profile(profile_path);
  ASSERT_NE(calibrated.calibration("dwt_matrix"), nullptr);
  EXPECT_EQ(calibrated.calibration("dwt_matrix")->tp_us, json["after"]["tp_us"].get<double>());
  const cal::MeasuredData data = cal::select_measured_points(sim::report::read_csv(measured), "rtx2080", "dwt_matrix", {"K", "N"});
  wl::CoreTimeCache cache;
  wl::ModelOverrides memory;  // the model the section was fitted under
  memory.model = Model::memory;
  std::vector<double> predicted;
  for (const cal::MeasuredPoint& p : data.points) predicted.push_back(model.predict(calibrated, p.point, memory, cache).time_us);
  const cal::Accuracy a = cal::accuracy(data.points, predicted);
  EXPECT_DOUBLE_EQ(a.mean_error, json["after"]["mean_error"].get<double>());
  EXPECT_DOUBLE_EQ(a.max_error, json["after"]["max_error"].get<double>());
}

TEST(CalibrateCli, KpWorkloadWithLaunchAndMeasuredLaunchOverhead) {
  const std::string measured = write_file(
      "mtx.csv",
      "gpu,workload,N,time_us,launch_us\n"
      "rtx2060,mtx_mul_vec,32,9.1,5.1\nrtx2060,mtx_mul_vec,64,13.2,5.3\nrtx2060,mtx_mul_vec,128,20.5,5.2\n"
      "rtx2060,mtx_mul_vec,256,36.9,5.2\nrtx2060,mtx_mul_vec,512,66.8,5.0\nrtx2060,mtx_mul_vec,1024,131.0,5.4\n"
      "rtx2060,mtx_mul_vec,2048,400.2,5.2\nrtx2060,mtx_mul_vec,4096,1210.0,5.1\n");
  const Result r = run_warpsim("calibrate '" + measured +
                               "' --gpu rtx2060 --workload workloads/mtx_mul_vec/mtx_mul_vec.kp --threads N --fit tm,d2 "
                               "--model memory --max-evaluations 300 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  EXPECT_EQ(json["tp_origin"], "median of launch_us over 8 rows");
  EXPECT_EQ(json["after"]["tp_us"].get<double>(), 5.2);
  EXPECT_EQ(json["before"]["tm"], 31);  // the program's `tm` line
  EXPECT_LT(json["after"]["mean_error"].get<double>(), 0.03);
  EXPECT_NE(json["calibration"].get<std::string>().find("[calibration.mtx_mul_vec]\ntp_us = 5.2\ntm = "), std::string::npos);

  const Result text = run_warpsim("calibrate '" + measured +
                                  "' --gpu rtx2060 --workload workloads/mtx_mul_vec/mtx_mul_vec.kp --threads N "
                                  "--max-evaluations 50 --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("measured_us"), std::string::npos) << text.out;
}

// A PTX workload's axes give kernel parameters: --params N=0 gives mtx_mul_vec(int N, ...) the axis N.
TEST(CalibrateCli, PtxAxesGiveParametersByPositionOrName) {
  const std::string measured = write_file("mtx.csv",
                                          "gpu,workload,N,time_us\n"
                                          "rtx2060,mtx_mul_vec,32,9.1\nrtx2060,mtx_mul_vec,64,13.2\n");
  const std::string base = "calibrate '" + measured +
                           "' --gpu rtx2060 --workload workloads/mtx_mul_vec/mtx_mul_vec.ptx --threads N --tm 31 "
                           "--max-evaluations 50 --fit tp --format json ";
  const Result by_position = run_warpsim(base + "--params N=0");
  ASSERT_EQ(by_position.status, 0) << by_position.err;
  const Result by_name = run_warpsim(base + "--params N=_Z11mtx_mul_veciPfS_S__param_0");
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  EXPECT_EQ(nlohmann::json::parse(by_position.out)["after"], nlohmann::json::parse(by_name.out)["after"]);
  expect_input_error(base + "--params N", "axis N: kernel mtx_mul_vec has no parameter 'N'; name one by position or PTX name");
  expect_input_error(base + "--params N=", "--params 'N=': expected AXIS or AXIS=PARAMETER");
}

TEST(CalibrateCli, WritesTheOutputFileOnlyOnSuccess) {
  const std::string measured = write_file("m.csv", "gpu,workload,K,N,time_us\nrtx2080,dwt_lattice,8,64,20\nrtx2080,dwt_lattice,8,128,21\n");
  const std::string out = test_dir() + "/section.toml";
  const Result r = run_warpsim("calibrate '" + measured + "' --gpu rtx2080 --workload dwt_lattice --max-evaluations 50 -o '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(slurp(out).find("[calibration.dwt_lattice]"), std::string::npos);
  std::filesystem::remove(out);
  expect_input_error("calibrate '" + measured + "' --gpu rtx2080 --workload dwt_lattice --fit tq -o '" + out + "'",
                     "--fit: unknown parameter 'tq'");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CalibrateCli, BadInputIsOneLocatedLine) {
  const std::string measured = write_file("bad.csv", "gpu,workload,K,N,time_us\nrtx2080,dwt_matrix,8,64,7\nrtx2080,dwt_matrix,8,128,0\n");
  const std::string no_k = write_file("no_k.csv", "gpu,workload,N,time_us\nrtx2080,dwt_matrix,64,7\n");
  const std::string good = write_file("good.csv", "gpu,workload,K,N,time_us\nrtx2080,dwt_matrix,8,64,7\n");
  expect_input_error("calibrate '" + measured + "' --gpu rtx2080 --workload dwt_matrix", measured + ":3: time_us = '0'");
  expect_input_error("calibrate '" + no_k + "' --gpu rtx2080 --workload dwt_matrix", no_k + ":1: no column 'K'");
  expect_input_error("calibrate '" + measured + "' --gpu rtx2060 --workload dwt_matrix", measured + ": no rows with gpu = 'rtx2060'");
  expect_input_error("calibrate '" + good + "' --gpu rtx2080 --workload dwt_matrix --fit tm,d4",
                     "--fit: d4 is not a duration of this workload (it has 3 memory instructions");
  expect_input_error("calibrate '" + measured + "' --gpu rtx2080 --workload workloads/mtx_mul_vec/mtx_mul_vec.kp",
                     "a .kp or .ptx workload needs a launch");
  expect_input_error("calibrate '" + measured + "' --gpu rtx2080 --workload dwt_matrix --threads N",
                     "the built-in workload dwt_matrix launches by Algorithm 3");
  expect_input_error("calibrate '" + good + "' --gpu rtx2080 --workload dwt_matrix --bounds tm=9:1", "--bounds 'tm=9:1'");
  expect_input_error("calibrate '" + measured + "' --gpu rtx2080 --workload dwt_matrix --format csv", "--format 'csv'");
}

}  // namespace

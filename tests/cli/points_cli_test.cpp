// `warpsim sweep --points`: each row predicted as `warpsim simulate` (or `predict`) predicts the
// same launch, in input order for any -j, the input's columns copied, joinable by `evaluate`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "warpsim/report/csv_table.hpp"
#include "support/cli_runner.hpp"

namespace warpsim::testing_support {
namespace {

const std::string kPoints = "tests/cli/points/points.csv";
const std::string kMatMul = "workloads/measured/ptx/matMul_gpu_sharedmem-T16.ptx";
const std::string kMtxMulVec = "workloads/mtx_mul_vec/mtx_mul_vec.kp";

double json_time(const std::string& arguments) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 0) << arguments << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out)["time_us"].get<double>() : -1;
}

sim::report::CsvTable sweep_points(const std::string& arguments, const std::string& out) {
  const Result r = run_warpsim("sweep --points " + kPoints + " -q -o " + out + " " + arguments);
  EXPECT_EQ(r.status, 0) << r.err;
  return sim::report::read_csv(out);
}

TEST(PointsCli, EachRowAsSimulateAndPredictGiveIt) {
  const sim::report::CsvTable table = sweep_points("-j 2", test_dir() + "/points.csv");
  ASSERT_EQ(table.rows.size(), 5u);
  const std::size_t time = table.column("time_us");
  // PTX as suites take it: registers and the SASS from ptxas (and nvdisasm) where they run.
  const std::vector<std::string> expected = {
      "simulate " + kMatMul + " --gpu rtx2080 --grid 4,4 --block 16,16 --param 3=64",
      "simulate " + kMtxMulVec + " --gpu rtx2080 --grid 8 --block 32 --param N=256",
      "predict dwt_matrix --gpu rtx2060 --param K=8 --param N=1024",
      "simulate " + kMatMul + " --gpu rtx2080 --grid 7,7,1 --block 16,16,1 --param 3=100 --tp 2.5 --tm 40",
      "simulate " + kMtxMulVec + " --gpu rtx2060 --grid 4 --block 64 --param N=128 --tp 1.5 --tm 31.5",
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    // Full precision: the shortest text that reads back as the same double.
    EXPECT_EQ(std::stod(table.rows[i][time]), json_time(expected[i])) << expected[i];
  }
}

TEST(PointsCli, InputColumnsFirstThenPredictions) {
  const sim::report::CsvTable table = sweep_points("", test_dir() + "/points.csv");
  const std::vector<std::string> leading = {"gpu", "kernel", "entry", "grid", "block", "param:3", "param:N", "param:K",
                                            "tp_us", "tm", "N", "note", "measured_time_us", "workload", "blocks", "threads",
                                            "time_us"};
  ASSERT_GE(table.header.size(), leading.size());
  EXPECT_EQ(std::vector<std::string>(table.header.begin(), table.header.begin() + leading.size()), leading);
  EXPECT_EQ(table.rows[0][table.column("note")], "copied, as written");
  EXPECT_EQ(table.rows[0][table.column("measured_time_us")], "30.5");
  EXPECT_EQ(table.rows[0][table.column("grid")], "4x4");
  EXPECT_EQ(table.rows[0][table.column("workload")], "matMul");
  EXPECT_EQ(table.rows[1][table.column("workload")], "mtx_mul_vec");
  EXPECT_EQ(table.rows[2][table.column("workload")], "dwt_matrix");
  EXPECT_EQ(table.rows[3][table.column("blocks")], "49");
  EXPECT_EQ(table.rows[3][table.column("threads")], "256");
}

TEST(PointsCli, SameBytesForAnyJobCountAndFormat) {
  const std::string dir = test_dir();
  for (const char* format : {"csv", "json"}) {
    const std::string one = dir + "/one." + format, two = dir + "/two." + format;
    ASSERT_EQ(run_warpsim("sweep --points " + kPoints + " -q -j 1 -o " + one).status, 0);
    ASSERT_EQ(run_warpsim("sweep --points " + kPoints + " -q -j 2 -o " + two).status, 0);
    EXPECT_EQ(slurp(one), slurp(two)) << format;
  }
  const nlohmann::json rows = nlohmann::json::parse(slurp(dir + "/one.json"));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0]["note"], "copied, as written");
  EXPECT_TRUE(rows[0]["entry"].is_null());
  EXPECT_TRUE(rows[0]["time_us"].is_number());
  const Result text = run_warpsim("sweep --points " + kPoints + " -q");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("copied, as written"), std::string::npos) << text.out;
}

TEST(PointsCli, EvaluateJoinsTheOutputToTheInput) {
  // A measurements file that names its launches is its own point list.
  const std::string measured = "tests/cli/points/measured.csv";
  const std::string predicted = test_dir() + "/predicted.csv";
  ASSERT_EQ(run_warpsim("sweep --points " + measured + " -q -o " + predicted).status, 0);
  const Result all = run_warpsim("evaluate " + predicted + " " + measured + " --format json");
  ASSERT_EQ(all.status, 0) << all.err;
  const Result by_size = run_warpsim("evaluate " + predicted + " " + measured + " --keys gpu,workload,N --format json");
  ASSERT_EQ(by_size.status, 0) << by_size.err;
  const nlohmann::json report = nlohmann::json::parse(by_size.out);
  ASSERT_EQ(report["experiments"].size(), 2u);
  EXPECT_EQ(report["experiments"][0]["points"], 2);
  EXPECT_EQ(report["experiments"][1]["points"], 2);
}

TEST(PointsCli, CalibrateFitsTheRowsAsAMeasurementsFileWithItsLaunchPolicy) {
  // The same two matMul points as a classic measurements file whose launch is an axis G.
  const std::string classic = test_dir() + "/classic.csv";
  std::ofstream(classic) << "gpu,workload,N,G,time_us\nrtx2080,matMul,64,4,9.5\nrtx2080,matMul,128,8,21.25\n";
  const Result points = run_warpsim("calibrate --points tests/cli/points/measured.csv --gpu rtx2080 --workload matMul "
                                    "--fit tm --tp 5 --format json");
  const Result axes = run_warpsim("calibrate " + classic + " --gpu rtx2080 --workload " + kMatMul +
                                  " --grid G,G --block 16,16 --params N=3 --fit tm --tp 5 --format json");
  ASSERT_EQ(points.status, 0) << points.err;
  ASSERT_EQ(axes.status, 0) << axes.err;
  const nlohmann::json a = nlohmann::json::parse(points.out), b = nlohmann::json::parse(axes.out);
  EXPECT_EQ(a["points"], 2);
  for (const char* field : {"before", "after", "calibration", "evaluations"}) EXPECT_EQ(a[field], b[field]) << field;
}

// input:NAME states a PTX buffer's contents as simulate's --input does: the histogram of zeros
// row equals its simulate, and differs from the row without it (its atomics collide on bin 0).
TEST(PointsCli, InputColumnsStateABuffersContents) {
  const std::string points = test_dir() + "/inputs.csv";
  const std::string kernel = kSourceDir + "/tests/ptx/cases/data_bins.sm_80.ptx";  // paths are relative to the list
  std::ofstream(points) << "gpu,kernel,grid,block,param:2,param:3,input:0\n"
                        << "h100," << kernel << ",264,256,1048576,256,zeros\n"
                        << "h100," << kernel << ",264,256,1048576,256,\n"
                        << "h100," << kernel << ",264,256,1048576,256,file:zeros.bin\n";  // beside the list
  std::ofstream(test_dir() + "/zeros.bin", std::ios::binary) << std::string(std::size_t{4} << 20, '\0');
  const Result r = run_warpsim("sweep --points " + points + " -q -o " + test_dir() + "/inputs-out.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const sim::report::CsvTable table = sim::report::read_csv(test_dir() + "/inputs-out.csv");
  const std::size_t time = table.column("time_us");
  const std::string simulate = "simulate tests/ptx/cases/data_bins.sm_80.ptx --gpu h100 --grid 264 --block 256 --param 2=1048576 --param 3=256";
  EXPECT_DOUBLE_EQ(std::stod(table.rows.at(0).at(time)), json_time(simulate + " --input 0=zeros"));
  EXPECT_DOUBLE_EQ(std::stod(table.rows.at(1).at(time)), json_time(simulate));
  EXPECT_GT(std::stod(table.rows.at(0).at(time)), 2 * std::stod(table.rows.at(1).at(time)));
  EXPECT_DOUBLE_EQ(std::stod(table.rows.at(2).at(time)), std::stod(table.rows.at(0).at(time)));  // the file holds zeros
}

// A `regs` column gives registers per thread for occupancy, as simulate's --regs and a suite's `regs`.
TEST(PointsCli, RegsColumnGivesRegistersPerThread) {
  const std::string points = test_dir() + "/regs.csv";
  std::ofstream(points) << "gpu,kernel,grid,block,param:3,regs\n"
                        << "rtx2080," << kSourceDir << "/" << kMatMul << ",16x16,16x16,256,128\n"
                        << "rtx2080," << kSourceDir << "/" << kMatMul << ",16x16,16x16,256,\n";
  const Result r = run_warpsim("sweep --points " + points + " -q -o " + test_dir() + "/regs-out.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const sim::report::CsvTable table = sim::report::read_csv(test_dir() + "/regs-out.csv");
  const std::size_t time = table.column("time_us");
  const std::string simulate = "simulate " + kMatMul + " --gpu rtx2080 --grid 16,16 --block 16,16 --param 3=256";
  EXPECT_EQ(std::stod(table.rows.at(0).at(time)), json_time(simulate + " --regs 128"));
  EXPECT_EQ(std::stod(table.rows.at(1).at(time)), json_time(simulate));
  EXPECT_NE(table.rows.at(0).at(time), table.rows.at(1).at(time));  // 2 blocks of 256 threads per SM, not 4
  EXPECT_EQ(table.rows.at(0).at(table.column("regs")), "128");     // copied, as every input column
}

// A suite's ptx workload takes `inputs = { PARAM = "SPEC" }` as simulate takes --input.
TEST(PointsCli, SuiteInputsStateABuffersContents) {
  const std::string suite = test_dir() + "/bins.toml";
  std::ofstream(suite) << "name = \"bins\"\ngpus = [\"h100\"]\n[axes]\nN = [1048576]\nB = [256]\n[[workload]]\n"
                       << "ptx = \"" << kSourceDir << "/tests/ptx/cases/data_bins.sm_80.ptx\"\nparams = [\"N\", \"B\"]\n"
                       << "param_names = { N = 2, B = 3 }\nlaunch = { grid = 264, block = 256 }\ninputs = { 0 = \"zeros\" }\n";
  const Result r = run_warpsim("sweep " + suite + " -q -o " + test_dir() + "/bins.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const sim::report::CsvTable table = sim::report::read_csv(test_dir() + "/bins.csv");
  EXPECT_DOUBLE_EQ(std::stod(table.rows.at(0).at(table.column("time_us"))),
                   json_time("simulate tests/ptx/cases/data_bins.sm_80.ptx --gpu h100 --grid 264 --block 256 "
                             "--param 2=1048576 --param 3=256 --input 0=zeros"));
}

TEST(PointsCli, SuiteOrPointsNotBoth) {
  expect_input_error("sweep workloads/suites/mtx-mul-vec.toml --points " + kPoints, "give a suite");
  expect_input_error("sweep", "give a suite");
}

}  // namespace
}  // namespace warpsim::testing_support

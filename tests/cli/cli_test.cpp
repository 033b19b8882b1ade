// The warpsim executable end to end: outputs for golden inputs, and bad input answered with
// exit status 2, one `warpsim: error:` line naming the location, and nothing on stdout.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

TEST(Cli, CoreListing1Golden) {
  const Result load = run_warpsim("core workloads/examples/listing1_load.kp --warps 3 --tm 2");
  ASSERT_EQ(load.status, 0) << load.err;
  EXPECT_EQ(nlohmann::json::parse(load.out)["cycles"], 112);
  const Result store = run_warpsim("core workloads/examples/listing1_store.kp --warps 3");  // tm from the file
  ASSERT_EQ(store.status, 0) << store.err;
  EXPECT_EQ(nlohmann::json::parse(store.out)["cycles"], 111);
  EXPECT_EQ(run_warpsim("core workloads/examples/listing1_load.kp --warps 3 --format text").out,
            "T_c = 112 cycles (listing1_load, 3 warps, t_m = 2)\n");
}

TEST(Cli, CoreWithParameter) {
  // mtx_mul_vec, one warp, t_m 31, N = 1: calc 27; loads at 27 and 58 (done 118); calc 10 to
  // 128; store at 128 (done 188), front end to 159; calc 14 to 173. T_c = 188.
  const Result r = run_warpsim("core workloads/mtx_mul_vec/mtx_mul_vec.kp --warps 1 --param N=1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["cycles"], 188);
}

TEST(Cli, SimulateReportsAlgorithm1Quantities) {
  const Result r = run_warpsim("simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 2 --block 32 --param K=8");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["time_us"].get<double>(), 5.2 + 1557.8 / 1545);
  EXPECT_DOUBLE_EQ(j["cycles"].get<double>(), 1557.8);
  for (const char* key : {"time_us", "cycles", "blocks", "threads", "blocks_per_sm", "active_blocks_per_sm",
                          "warps_per_core_package", "full_runs", "remaining_blocks"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["blocks"], 2);
  EXPECT_EQ(j["threads"], 32);
  EXPECT_EQ(j["full_runs"], 1);
  EXPECT_EQ(j["remaining_blocks"], 0);
}

TEST(Cli, SimulateMultiDimensionalLaunchAndExplicitCalibration) {
  const Result r = run_warpsim("simulate workloads/dwt/matrix.kp --gpu gpus/rtx2080.toml --grid 1,2 --block 16,2 "
                           "--param K=8 --tp 0 --tm 1.1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(r.out)["time_us"].get<double>(), 1557.8 / 1545);
}

TEST(Cli, TimelineAndTraceFiles) {
  const std::string dir = test_dir();
  const Result r = run_warpsim("core workloads/examples/listing1_load.kp --warps 3 --timeline " + dir + "/t.svg --trace " +
                           dir + "/t.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(dir + "/t.svg").find("T_c = 112 cycles"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(slurp(dir + "/t.json")).contains("traceEvents"));
  const Result sim = run_warpsim("simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 68 --block 61 --param K=8 --timeline " +
                             dir + "/s.svg");
  ASSERT_EQ(sim.status, 0) << sim.err;
  EXPECT_NE(slurp(dir + "/s.svg").find("one core package of a full run"), std::string::npos);
  expect_input_error("core workloads/examples/listing1_load.kp --warps 3 --timeline /nonexistent/dir/t.svg",
                     "/nonexistent/dir/t.svg: cannot write");
}

TEST(Cli, PlotSweepResults) {
  const std::string dir = test_dir();
  ASSERT_EQ(run_warpsim("sweep workloads/suites/rtx2080-dwt.toml --out " + dir + "/r.csv").status, 0);
  const Result r = run_warpsim("plot " + dir + "/r.csv --x N --y time_us --by workload,K -o " + dir + "/c.svg");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(dir + "/c.svg").find("dwt_lattice K=14"), std::string::npos);
  // Two --by columns: colour by workload, dash by K; the filter is named under the title.
  ASSERT_EQ(run_warpsim("plot " + dir + "/r.csv --by workload,K --where gpu=rtx2080 -o " + dir + "/e.svg").status, 0);
  const std::string styled = slurp(dir + "/e.svg");
  EXPECT_NE(styled.find(">where gpu=rtx2080</text>"), std::string::npos);
  EXPECT_NE(styled.find("stroke-dasharray"), std::string::npos);
  expect_input_error("plot " + dir + "/r.csv --y nope -o " + dir + "/d.svg", dir + "/r.csv:1: no column 'nope'");
  expect_input_error("plot " + dir + "/r.csv --y gpu -o " + dir + "/d.svg", dir + "/r.csv:2: gpu 'rtx2080' is not a number");
  expect_input_error("plot " + dir + "/r.csv --where K=3 -o " + dir + "/d.svg", "nothing to plot");
  EXPECT_FALSE(std::filesystem::exists(dir + "/d.svg"));
}

TEST(Cli, LaunchHeuristic) {
  const Result r = run_warpsim("launch --gpu rtx2080 --threads 4096");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["blocks"], 68);
  EXPECT_EQ(j["threads"], 61);
}

// The lattice point worked by hand in tests/workload/workload_test.cpp: 5 * (5.0 + 318 / 1200) us.
TEST(Cli, PredictOneWorkloadPoint) {
  const Result r = run_warpsim("predict dwt_lattice --gpu rtx2060 --param K=8 --param N=1024");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["time_us"].get<double>(), 5 * (5.0 + 318.0 / 1200));
  EXPECT_EQ(j["launches"], 5);
  EXPECT_EQ(j["blocks"], 16);
  expect_input_error("predict dwt_lattice --gpu rtx2060 --param K=8", "missing --param N=VALUE");
  expect_input_error("predict dwt_lattice --gpu rtx2060 --param K=8 --param N=64 --param M=2", "unknown parameter 'M'");
  expect_input_error("predict fft --gpu rtx2060 --param K=8 --param N=64", "unknown workload 'fft'");
  expect_input_error("predict dwt_lattice --gpu rtx2060 --param K=7 --param N=64", "dwt_lattice: K = 7");
}

TEST(Cli, SweepCsvHeaderRowsAndFullPrecision) {
  const std::string path = test_dir() + "/paper.csv";
  std::filesystem::remove(path);
  const Result r = run_warpsim("sweep workloads/suites/paper-dwt.toml --out " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream csv(path);
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("gpu,workload,K,N,blocks,threads,time_us,", 0), 0u) << header;
  int rows = 0;
  std::string rtx2080_first;
  while (std::getline(csv, line)) {
    ++rows;
    if (line.rfind("rtx2080,dwt_matrix,8,64,", 0) == 0) rtx2080_first = line;
  }
  EXPECT_EQ(rows, 720);
  // 5.2 + 1557.8 / 1545 written with every digit a double holds.
  EXPECT_EQ(rtx2080_first.rfind("rtx2080,dwt_matrix,8,64,2,32,6.208284789644013,", 0), 0u) << rtx2080_first;
}

TEST(Cli, SweepJsonAndTextAgreeOnRowCount) {
  const Result json = run_warpsim("sweep workloads/suites/rtx2080-dwt.toml --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), 60u);
  const Result text = run_warpsim("sweep workloads/suites/rtx2080-dwt.toml");
  ASSERT_EQ(text.status, 0);
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), 61);
}

TEST(Cli, GpusListsAndShows) {
  const Result list = run_warpsim("gpus");
  ASSERT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("rtx2080"), std::string::npos);
  EXPECT_NE(list.out.find("h100"), std::string::npos);
  const Result one = run_warpsim("gpus h100 --format json");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["sm_count"], 132);
}

TEST(Cli, HelpForEveryCommand) {
  for (const char* command : {"core", "simulate", "lower", "launch", "predict", "sweep", "plot", "gpus"}) {
    const Result r = run_warpsim(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_EQ(r.out.rfind(std::string("Usage: warpsim ") + command, 0), 0u) << r.out;
  }
  EXPECT_EQ(run_warpsim("--help").status, 0);
}

TEST(Cli, BadInputExitsTwoWithOneLocatedLine) {
  const std::string dir = test_dir();
  {
    std::ofstream(dir + "/bad.kp") << "calc 5\nload 1.2345\n";
    std::ofstream(dir + "/empty.kp");
    std::ofstream(dir + "/gpu.toml") << "name = \"x\"\nclock_mhz = [\n";
  }
  expect_input_error("core " + dir + "/bad.kp --warps 3 --tm 2", dir + "/bad.kp:2: '1.2345': more than three");
  expect_input_error("core /nonexistent.kp --warps 3 --tm 2", "/nonexistent.kp: cannot read");
  expect_input_error("core workloads/dwt/matrix.kp --warps 3 --tm 2", "workloads/dwt/matrix.kp:5: parameter 'K' has no value");
  expect_input_error("core workloads/dwt/matrix.kp --warps 3 --tm 2 --param K=2 --param Q=1", "workloads/dwt/matrix.kp: parameter 'Q' is not used");
  expect_input_error("core workloads/dwt/matrix.kp --warps 3 --tm 2 --param K=x", "--param K 'x'");
  expect_input_error("core workloads/dwt/matrix.kp --warps 3 --param K=2", "no t_m");
  expect_input_error("core workloads/examples/listing1_load.kp --warps -3", "--warps '-3'");
  expect_input_error("core workloads/examples/listing1_load.kp --warps 3 --tm 1.5.5", "--tm '1.5.5'");
  expect_input_error("core workloads/examples/listing1_load.kp", "the option '--warps' is required");
  expect_input_error("core workloads/examples/listing1_load.kp --warps 3 --bogus", "unrecognised option");
  expect_input_error("core workloads/examples/listing1_load.kp --warps 3 --format xml", "--format 'xml'");
  expect_input_error("core workloads/mtx_mul_vec/mtx_mul_vec.kp --warps 64 --param N=1000000000",
                     "simulation of 320000000064 warp-instructions exceeds the limit");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu nope --grid 1 --block 32 --param K=8", "unknown GPU 'nope'");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu " + dir + "/gpu.toml --grid 1 --block 32 --param K=8",
                     dir + "/gpu.toml:2:");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 1 --block 2048 --param K=8",
                     "block of 2048 threads exceeds");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 0 --block 32 --param K=8", "--grid '0'");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 3000000000 --block 32 --param K=8",
                     "launch of 3000000000 blocks exceeds");
  // The paper's model has no defaults for t_p and t_m; the memory-aware one takes them from the profile.
  expect_input_error("simulate workloads/mtx_mul_vec/mtx_mul_vec.kp --gpu rtx2080 --grid 1 --block 32 --param N=4 --model paper",
                     "no t_p for kernel 'mtx_mul_vec' on rtx2080");
  expect_input_error("simulate workloads/dwt/matrix.kp --gpu h100 --grid 1 --block 32 --param K=8 --model paper",
                     "no t_p for kernel 'dwt_matrix' on h100");
  expect_input_error("simulate kernel.ptx --gpu rtx2080 --grid 1 --block 32", "kernel.ptx: cannot read");
  expect_input_error("launch --gpu rtx2080 --threads 0", "the launch heuristic needs at least one thread");
  expect_input_error("launch --gpu rtx2080 --threads 99999999999999999999", "--threads");
  expect_input_error("sweep /nonexistent.toml", "/nonexistent.toml: cannot read");
  expect_input_error("gpus gtx9999", "unknown GPU 'gtx9999'");
  expect_input_error("frobnicate", "unknown command 'frobnicate'");
  const Result empty = run_warpsim("core " + dir + "/empty.kp --warps 2 --tm 1");  // an empty program takes 0 cycles
  ASSERT_EQ(empty.status, 0) << empty.err;
  EXPECT_EQ(nlohmann::json::parse(empty.out)["cycles"], 0);
}

TEST(Cli, FailedSweepWritesNoFile) {
  const std::string dir = test_dir();
  const std::string suite = dir + "/odd.toml", out = dir + "/odd.csv";
  std::ofstream(suite) << "gpus = [\"rtx2060\"]\nworkloads = [\"dwt_lattice\"]\n[axes]\nK = [8]\nN = [64, 65]\n";
  std::filesystem::remove(out);
  expect_input_error("sweep " + suite + " --out " + out, suite + ": rtx2060 dwt_lattice K=8 N=65");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
}

}  // namespace

// `warpsim import` end to end: nvprof and nsys samples (hand-written, tests/evaluate/data) to
// measurement rows, appending, and a round trip through `warpsim evaluate`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

const std::string kData = "tests/evaluate/data/";

TEST(ImportCli, HelpForEvaluateAndImport) {
  for (const char* command : {"evaluate", "import"}) {
    const Result r = run_warpsim(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_EQ(r.out.rfind(std::string("Usage: warpsim ") + command, 0), 0u) << r.out;
  }
  const Result list = run_warpsim("--help");
  EXPECT_NE(list.out.find("  evaluate  "), std::string::npos);
  EXPECT_NE(list.out.find("  import  "), std::string::npos);
}

TEST(ImportCli, NvprofSummaryAndTrace) {
  Result r = run_warpsim("import " + kData + "nvprof_summary.csv --from nvprof --gpu rtx2080 --workload dwt_matrix --param K=8 --param N=1024");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gpu,workload,K,N,time_us,samples,launch_us\nrtx2080,dwt_matrix,8,1024,6.2,20,5.2\n");
  EXPECT_NE(r.err.find("average 6.2 us per launch over 20 launches"), std::string::npos) << r.err;
  r = run_warpsim("import " + kData + "nvprof_trace.csv --from nvprof --gpu rtx2080 --workload dwt_matrix --param K=8 --param N=1024 --kernel mtx");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gpu,workload,K,N,time_us,samples\nrtx2080,dwt_matrix,8,1024,6.176,6\n");
}

TEST(ImportCli, NsysWithKernelChoiceAndLaunches) {
  // The lattice DWT at K = 8 runs K/2+1 = 5 launches of ltt: 5 x 25.584 us.
  Result r = run_warpsim("import " + kData + "nsys_kern_sum.csv --from nsys --gpu rtx2080 --workload dwt_lattice --param K=8 --param N=1024 --kernel ltt --launches 5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gpu,workload,K,N,time_us,samples\nrtx2080,dwt_lattice,8,1024,127.92,24\n");
  r = run_warpsim("import " + kData + "nsys_gpukernsum_old.csv --from nsys --gpu rtx2080 --workload dwt_matrix --param K=8 --param N=1024");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "gpu,workload,K,N,time_us,samples\nrtx2080,dwt_matrix,8,1024,6.208,20\n");
  expect_input_error("import " + kData + "nsys_kern_sum.csv --from nsys --gpu rtx2080 --workload dwt_lattice",
                     kData + "nsys_kern_sum.csv: several kernels; choose one with --kernel NAME: 'ltt(");
}

TEST(ImportCli, AppendBuildsAMeasurementsFileThatEvaluateReads) {
  const std::string dir = test_dir();
  const std::string measured = dir + "/measured.csv", predicted = dir + "/predicted.csv";
  std::filesystem::remove(measured);
  const std::string common = " --from nsys --gpu rtx2080 --param K=8 --param N=1024 -o '" + measured + "' --append";
  ASSERT_EQ(run_warpsim("import " + kData + "nsys_kern_sum.csv --workload dwt_matrix --kernel mtx" + common).status, 0);
  ASSERT_EQ(run_warpsim("import " + kData + "nsys_kern_sum.csv --workload dwt_lattice --kernel ltt --launches 5" + common).status, 0);
  EXPECT_EQ(slurp(measured), "gpu,workload,K,N,time_us,samples\nrtx2080,dwt_matrix,8,1024,5.536,40\n"
                             "rtx2080,dwt_lattice,8,1024,127.92,24\n");
  // A header that differs (no K) is refused and the file kept as it was.
  expect_input_error("import " + kData + "nsys_gpukernsum_old.csv --from nsys --gpu rtx2080 --workload dwt_matrix -o '" +
                         measured + "' --append",
                     measured + ":1: its header is not gpu,workload,time_us,samples");
  const std::string kept = slurp(measured);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), '\n'), 3);

  ASSERT_EQ(run_warpsim("sweep workloads/suites/rtx2080-dwt.toml -o '" + predicted + "'").status, 0);
  const Result r = run_warpsim("evaluate '" + predicted + "' '" + measured + "' --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  ASSERT_EQ(json["experiments"].size(), 2u);
  EXPECT_EQ(json["experiments"][0]["data"][0]["measured_us"].get<double>(), 5.536);
  EXPECT_EQ(json["ratio"]["experiments"][0]["data"][0]["measured"].get<double>(), 5.536 / 127.92);
}

}  // namespace

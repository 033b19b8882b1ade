// `warpsim sweep` from the command line: -j gives the same bytes, -o streams through a partial
// file, Ctrl-C stops cleanly with status 130 and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/cli_runner.hpp"

namespace warpsim::testing_support {
namespace {

TEST(SweepCli, SameBytesForAnyJobCount) {
  const std::string dir = test_dir();
  for (const char* format : {"csv", "json"}) {
    const std::string one = dir + "/one." + format, two = dir + "/two." + format;
    ASSERT_EQ(run_warpsim("sweep workloads/suites/mtx-mul-vec.toml -q -j 1 -o " + one).status, 0);
    ASSERT_EQ(run_warpsim("sweep workloads/suites/mtx-mul-vec.toml -q -j 2 -o " + two).status, 0);
    EXPECT_EQ(slurp(one), slurp(two)) << format;
    EXPECT_FALSE(std::filesystem::exists(one + ".partial"));
  }
  const std::string csv = slurp(dir + "/one.csv");
  EXPECT_EQ(csv.rfind("gpu,workload,N,block,blocks,threads,time_us,", 0), 0u) << csv.substr(0, 80);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 8 + 8 + 32);
}

TEST(SweepCli, JsonIsAnArrayWithNullForAxesAWorkloadLacks) {
  const Result r = run_warpsim("sweep workloads/suites/mtx-mul-vec.toml --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("[\n  {\n    \"gpu\": \"rtx2060\",\n    \"workload\": \"mtx_mul_vec_kp\",\n    \"N\": 32,\n    \"block\": null,", 0), 0u)
      << r.out.substr(0, 200);
  EXPECT_EQ(r.out.substr(r.out.size() - 4), "}\n]\n");
}

TEST(SweepCli, PtxWarningsOncePerWorkloadFromTheFirstPointThatHadThem) {
  const std::string dir = test_dir();
  // branchy's branches depend on loaded data: each point warns; the sweep says so once.
  std::ofstream(dir + "/branchy.toml") << "gpus = [\"rtx2080\"]\n[[workload]]\nptx = \"" << kSourceDir
                                       << "/workloads/branchy/branchy.ptx\"\nparams = [\"n\"]\n"
                                          "param_names = { n = 0 }\n"
                                          "launch = { threads = \"n\" }\n"
                                          "calibration = { tp_us = 5, tm = 10 }\naxes = { n = [64, 128, 256] }\n";
  const Result one = run_warpsim("sweep " + dir + "/branchy.toml -q -j 1 --format csv");
  const Result two = run_warpsim("sweep " + dir + "/branchy.toml -q -j 2 --format csv");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.err, two.err);
  const std::string warned = without_ptx_order_warning(one.err);
  EXPECT_EQ(std::count(warned.begin(), warned.end(), '\n'), 1) << one.err;
  EXPECT_EQ(one.err.rfind("warpsim: warning: branchy n=64: ", 0), 0u) << one.err;
  EXPECT_NE(one.err.find("depended on values warpsim cannot know"), std::string::npos) << one.err;
}

TEST(SweepCli, BadJobCountsAreRefused) {
  expect_input_error("sweep workloads/suites/rtx2080-dwt.toml -j -1", "--jobs -1");
}

#ifndef WARPSIM_MPI  // with MPI, tests/mpi/mpi_sweep_test.sh runs --mpi
TEST(SweepCli, MpiNeedsAnMpiBuild) {
  expect_input_error("sweep workloads/suites/mtx-mul-vec.toml --mpi", "--mpi: warpsim was built without MPI");
}
#endif

TEST(SweepCli, InterruptStopsCleanlyAndWritesNothing) {
  if (!can_see_signal_handlers()) GTEST_SKIP() << "no /proc to see when warpsim handles Ctrl-C";
  const std::string dir = test_dir();
  const std::string suite = dir + "/slow.toml", out = dir + "/slow.csv";
  // Each point emulates 2^13 threads looping 2^13 times warp by warp (emulate_all), 100 of them:
  // minutes in all, so the sweep is still running when Ctrl-C comes, right after its handler is in.
  std::ofstream(suite) << "gpus = [\"rtx2080\"]\n[[workload]]\nptx = \"" << kSourceDir
                       << "/workloads/mtx_mul_vec/mtx_mul_vec.ptx\"\nparams = [\"N\"]\nparam_names = { N = 0 }\nlaunch = { threads = \"N\" }\n"
                          "emulate_all = true\ncalibration = { tp_us = 5, tm = 31 }\n"
                          "axes = { N = { from = 8192, to = 8291 } }\n";
  const Result once = run_warpsim_interrupted({"sweep", suite, "-q", "-j", "1", "-o", out});
  EXPECT_EQ(once.status, 130);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
  EXPECT_EQ(once.err.rfind("warpsim: interrupted after ", 0), 0u) << once.err;

  // Two SIGINTs at once (one keypress seen twice) still stop cleanly.
  const Result twice = run_warpsim_interrupted({"sweep", suite, "-q", "-j", "1", "-o", out}, 2);
  EXPECT_EQ(twice.status, 130);
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
  EXPECT_EQ(twice.err.rfind("warpsim: interrupted after ", 0), 0u) << twice.err;
}

}  // namespace
}  // namespace warpsim::testing_support

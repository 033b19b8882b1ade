// The generalised suites ([[workload]] with builtin / kp / ptx, launch policies, per-workload axes
// and calibration) and the parallel driver (same rows in the same order for any -j, stop flag,
// shared T_c cache).
#include "warpsim/driver/sweep.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/suite.hpp"
#include "warpsim/sweep_report/sweep_report.hpp"
#include "warpsim/workload/named_workload.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "support/located_error.hpp"
#include "support/suite_from.hpp"

namespace warpsim::sim::driver {
namespace {

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

std::string sweep_csv(const Suite& suite, int jobs, std::int64_t chunk = 32) {
  report::SweepWriter writer(report::SweepFormat::csv, suite.axis_names());
  std::string out = writer.begin();
  SweepOptions options;
  options.jobs = jobs;
  options.chunk = chunk;
  run_sweep(suite, [&](const SweepRow& row) { out += writer.add(row); }, options);
  return out + writer.finish();
}

using testing_support::suite_from;

TEST(ParallelSweep, SameRowsInTheSameOrderForAnyThreadCountAndChunk) {
  const Suite suite = load_suite(kSourceDir + "/workloads/suites/paper-dwt.toml");
  const std::string one = sweep_csv(suite, 1);
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 721);
  EXPECT_EQ(sweep_csv(suite, 2), one);
  EXPECT_EQ(sweep_csv(suite, 4, 1), one);
  EXPECT_EQ(sweep_csv(suite, 3, 7), one);
}

TEST(ParallelSweep, RowsEqualOnePointPredictions) {
  const Suite suite = load_suite(kSourceDir + "/workloads/suites/rtx2080-dwt.toml");
  SweepOptions options;
  options.jobs = 2;
  std::int64_t seen = 0;
  run_sweep(suite, [&](const SweepRow& row) {
    const workload::Prediction alone = workload::predict(workload::find_workload(row.workload->name()), *row.gpu,
                                                         {row.point[0].second, row.point[1].second});
    EXPECT_EQ(row.prediction.time_us, alone.time_us) << workload::describe_point(row.point);
    ++seen;
  }, options);
  EXPECT_EQ(seen, 60);
}

TEST(ParallelSweep, SharesCoreTimesBetweenPoints) {
  const Suite suite = load_suite(kSourceDir + "/workloads/suites/paper-dwt.toml");
  const SweepStats stats = run_sweep(suite, [](const SweepRow&) {});
  EXPECT_EQ(stats.points, 720);
  EXPECT_FALSE(stats.stopped);
  EXPECT_GT(stats.cache_hits, stats.cache_misses);  // a sweep over N asks for few warp counts
}

TEST(ParallelSweep, StopsWhenAskedAndSaysSo) {
  const Suite suite = load_suite(kSourceDir + "/workloads/suites/paper-dwt.toml");
  std::atomic<bool> stop{false};
  SweepOptions options;
  options.jobs = 2;
  options.chunk = 8;
  options.stop = &stop;
  std::int64_t rows = 0;
  const SweepStats stats = run_sweep(suite, [&](const SweepRow&) {
    if (++rows == 100) stop = true;
  }, options);
  EXPECT_TRUE(stats.stopped);
  EXPECT_EQ(stats.points, rows);
  EXPECT_LT(rows, 720);
}

TEST(ParallelSweep, ReportsTheFirstFailingPointAfterTheRowsBeforeIt) {
  const Suite suite = parse_suite("gpus = [\"rtx2060\"]\nworkloads = [\"dwt_lattice\"]\n[axes]\nK = [8]\nN = [64, 128, 65, 256, 67]\n", "odd.toml");
  std::vector<std::int64_t> delivered;
  SweepOptions options;
  options.jobs = 2;
  options.chunk = 1;
  try {
    run_sweep(suite, [&](const SweepRow& row) { delivered.push_back(row.point[1].second); }, options);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rtx2060 dwt_lattice K=8 N=65"), std::string::npos) << e.what();
  }
  EXPECT_EQ(delivered, (std::vector<std::int64_t>{64, 128}));
}

TEST(SuiteWorkloads, KpProgramWithBlockSizesToExplore) {
  const Suite suite = suite_from(R"(
gpus = ["rtx2060"]
[[workload]]
name = "mv"
kp = "../mtx_mul_vec/mtx_mul_vec.kp"
launch = { threads = "N", block = [32, 128] }
calibration = { tp_us = 2.5 }
axes = { N = [100, 1000] }
)");
  ASSERT_EQ(suite.workloads.size(), 1u);
  const SuiteWorkload& w = suite.workloads[0];
  EXPECT_EQ(w.model->name(), "mv");
  EXPECT_EQ(w.model->kernel(), "mtx_mul_vec");
  ASSERT_EQ(w.axes.size(), 2u);
  EXPECT_EQ(w.axes[0].name, "N");
  EXPECT_EQ(w.axes[1].name, "block");
  std::vector<SweepRow> rows;
  run_sweep(suite, [&](const SweepRow& row) { rows.push_back(row); });
  ASSERT_EQ(rows.size(), 4u);
  // N = 1000 in blocks of 128: ceil(1000 / 128) = 8 blocks; t_m = 31 from the program.
  EXPECT_EQ(rows[3].point, (workload::Point{{"N", 1000}, {"block", 128}}));
  EXPECT_EQ(rows[3].prediction.launch.blocks, 8);
  EXPECT_EQ(rows[3].prediction.launch.threads_per_block, 128);
  EXPECT_EQ(rows[3].prediction.total_threads, 1000);
  EXPECT_EQ(rows[3].prediction.calibration.tm, 31'000);
  EXPECT_EQ(rows[3].prediction.calibration.tp_us, 2.5);
}

TEST(SuiteWorkloads, CalibrationDurationsChangeTheProgram) {
  const std::string base = R"(
gpus = ["rtx2060"]
[[workload]]
kp = "../mtx_mul_vec/mtx_mul_vec.kp"
launch = { grid = 1, block = 32 }
axes = { N = [16] }
)";
  const auto time_with = [&](const std::string& calibration) {
    const Suite suite = suite_from(base + calibration);
    double time = 0;
    run_sweep(suite, [&](const SweepRow& row) { time = row.prediction.per_launch.cycles; });
    return time;
  };
  // One warp, so T_c is the program's length: 27 + 16 * (60 + 60 + 10 + 60 + 14) + t_m per memory
  // instruction... exactly what the engine says for the same program written with d2 = 100.
  const double plain = time_with("calibration = { tp_us = 0 }\n");
  const double longer = time_with("calibration = { tp_us = 0, d2 = 100 }\n");
  EXPECT_EQ(longer - plain, 16 * 40.0);  // the second load, 40 cycles longer, 16 times, on the critical path
}

TEST(SuiteWorkloads, PtxKernelLoweredAtEveryPoint) {
  const Suite suite = suite_from(R"(
gpus = ["rtx2080"]
[[workload]]
ptx = "../mtx_mul_vec/mtx_mul_vec.ptx"
params = ["N"]
param_names = { N = 0 }
launch = { threads = "N" }
calibration = { tp_us = 5.2, tm = 31 }
axes = { N = [64, 102] }
)");
  std::vector<SweepRow> rows;
  run_sweep(suite, [&](const SweepRow& row) { rows.push_back(row); });
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].workload->name(), "mtx_mul_vec");
  EXPECT_GT(rows[1].prediction.time_us, rows[0].prediction.time_us);
  EXPECT_EQ(rows[1].prediction.total_threads, 102);
}

// The launches a sweep lowers: once per distinct (parameters, launch), whatever the GPUs.
TEST(SuiteWorkloads, PtxLaunchesAreLoweredOnceForEveryGpu) {
  auto lowerings = std::make_shared<workload::LoweringCache>();
  Suite suite;
  suite.gpus = {gpus::load_profile("rtx2080"), gpus::load_profile("rtx2060")};
  SuiteWorkload ptx;
  ptx.model = std::make_shared<workload::PtxWorkloadModel>(
      "", workload::load_ptx_source(kSourceDir + "/workloads/mtx_mul_vec/mtx_mul_vec.ptx"), ptx::LoweringOptions{},
      workload::LaunchPolicy{"N", "", "64"}, std::vector<workload::ParameterAxis>{{"N", "0"}}, lowerings);
  ptx.axes = {{"N", {64, 128, 256}}};
  ptx.overrides.tp_us = 5;
  ptx.overrides.tm = isa::cycles_from_double(31);
  suite.workloads.push_back(ptx);
  SweepOptions options;
  options.jobs = 1;  // with more, both GPUs may lower a launch at the same moment (allowed, same result)
  std::vector<SweepRow> rows;
  run_sweep(suite, [&](const SweepRow& row) { rows.push_back(row); }, options);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(lowerings->stats().lowerings, 3);
  EXPECT_EQ(lowerings->stats().hits, 3);
  EXPECT_NE(rows[0].prediction.time_us, rows[3].prediction.time_us);  // the same launch, timed per GPU
}

TEST(SuiteWorkloads, EmulateAllGivesTheSameRows) {
  const std::string base = R"(
gpus = ["rtx2080"]
[[workload]]
ptx = "../dwt/dwt.ptx"
kernel = "ltt"
params = ["k", "L", "N", "total"]
param_names = { k = 0, L = 1, N = 2, total = 5 }
launch = { threads = "total", block = 64 }
calibration = { tp_us = 5, tm = 12 }
axes = { k = [0], L = [5], N = [200], total = [100, 200, 300] }
)";
  EXPECT_EQ(sweep_csv(suite_from(base), 1), sweep_csv(suite_from(base + "emulate_all = true\n"), 1));
}

using testing_support::BadInput;

class SuiteWorkloadErrors : public testing::TestWithParam<BadInput> {};

TEST_P(SuiteWorkloadErrors, NameTheLineAndTheProblem) {
  const auto parse = [](const std::string& text, const std::string& file) { return parse_suite(text, file); };
  testing_support::expect_located_error(parse, GetParam(), "bad.toml");
}

#define WS_GPU "gpus = [\"rtx2060\"]\n"
INSTANTIATE_TEST_SUITE_P(
    Malformed, SuiteWorkloadErrors,
    testing::Values(
        BadInput{WS_GPU "[[workload]]\nname = \"x\"\n", 2, "exactly one of builtin"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\nkp = \"a.kp\"\n", 2, "exactly one of builtin"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"fft\"\n", 3, "unknown workload 'fft'"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncolour = 2\n", 4, "unknown key 'colour' in [[workload]]"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\naxes = { K = [8] }\n", 2, "needs axis 'N'"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\naxes = { K = [8], N = [64], Q = [1] }\n", 2, "has no axis 'Q'"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\nlaunch = { threads = 64 }\naxes = { K = [8], N = [64] }\n", 3,
                 "takes no launch"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\nemulate_all = true\naxes = { K = [8], N = [64] }\n", 3,
                 "emulate_all is for .ptx workloads"},
        BadInput{WS_GPU "[[workload]]\nptx = \"../mtx_mul_vec/mtx_mul_vec.ptx\"\nemulate_all = 1\n", 4,
                 "emulate_all must be true or false"},
        BadInput{WS_GPU "[[workload]]\nkp = \"/nonexistent/p.kp\"\nlaunch = { threads = 64 }\n", 3, "/nonexistent/p.kp: cannot read"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { tm = -1 }\naxes = { K = [8], N = [64] }\n", 4, "calibration.tm"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { speed = 1 }\naxes = { K = [8], N = [64] }\n", 4, "unknown key 'speed' in calibration"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { d0 = 5 }\naxes = { K = [8], N = [64] }\n", 4, "d1 .. d64"},
        // Once read with std::stoll, which took "d1x" as d1 and "d65" past the limit's message.
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { d1x = 5 }\naxes = { K = [8], N = [64] }\n", 4, "unknown key 'd1x' in calibration"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { \"d 1\" = 5 }\naxes = { K = [8], N = [64] }\n", 4, "unknown key 'd 1' in calibration"},
        BadInput{WS_GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\ncalibration = { d65 = 5 }\naxes = { K = [8], N = [64] }\n", 4, "d1 .. d64"},
        BadInput{WS_GPU "[[workload]]\nkp = \"../mtx_mul_vec/mtx_mul_vec.kp\"\nparam_names = { N = 0 }\n", 2,
                 "'kernel', 'params', 'inputs' and 'param_names' are for ptx workloads"},
        BadInput{WS_GPU "workload = 3\n", 2, "array of tables"}));

TEST(SuiteWorkloads, BadLaunchesAreLocated) {
  for (const auto& [launch, message] : std::vector<std::pair<std::string, std::string>>{
           {"{ grid = 4 }", "'grid' needs 'block'"},
           {"{ threads = \"N\", grid = 2, block = 32 }", "not both"},
           {"{ block = 32 }", "give 'threads'"},
           {"{ threads = \"N+\" }", "threads 'N+': expected a number, an axis name or '(' at the end"},
           {"{ warps = 2 }", "unknown key 'warps' in launch"}}) {
    try {
      suite_from(WS_GPU "[[workload]]\nkp = \"../mtx_mul_vec/mtx_mul_vec.kp\"\nlaunch = " + launch + "\naxes = { N = [64] }\n");
      ADD_FAILURE() << launch;
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().line, 4) << launch << ": " << e.describe();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << launch << ": " << e.what();
    }
  }
}

TEST(SuiteWorkloads, ALaunchAxisWithNoValuesIsAnError) {
  try {
    suite_from(WS_GPU "[[workload]]\nkp = \"../mtx_mul_vec/mtx_mul_vec.kp\"\nlaunch = { threads = \"T\" }\naxes = { N = [64] }\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs axis 'T'"), std::string::npos) << e.what();
  }
}

// An axis gives the kernel parameter param_names maps it to (a position or a name), else the
// parameter of its own name; anything else is an error when the suite is read.
TEST(SuiteWorkloads, PtxAxesBindByPositionOrName) {
  const auto times = [](const std::string& binding) {
    const Suite suite = suite_from(WS_GPU "[[workload]]\nptx = \"../mtx_mul_vec/mtx_mul_vec.ptx\"\nparams = [\"N\"]\n" +
                                   binding + "\nlaunch = { threads = \"N\" }\ncalibration = { tp_us = 5, tm = 31 }\n"
                                             "axes = { N = [64, 96] }\n");
    std::vector<double> out;
    run_sweep(suite, [&](const SweepRow& row) { out.push_back(row.prediction.time_us); });
    return out;
  };
  const std::vector<double> by_position = times("param_names = { N = 0 }");
  ASSERT_EQ(by_position.size(), 2u);
  EXPECT_EQ(times("param_names = { N = \"_Z11mtx_mul_veciPfS_S__param_0\" }"), by_position);
  const auto error = [&](const std::string& binding, int line, const std::string& message) {
    try {
      times(binding);
      ADD_FAILURE() << binding;
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().line, line) << binding << ": " << e.describe();
      EXPECT_EQ(std::string(e.what()), message) << binding;
    }
  };
  error("", 3,
        "axis N: kernel mtx_mul_vec has no parameter 'N'; name one by position or PTX name (this PTX keeps no C++ "
        "names; nvcc -G builds do): 0: _Z11mtx_mul_veciPfS_S__param_0 (int); 1: _Z11mtx_mul_veciPfS_S__param_1 "
        "(float*); 2: _Z11mtx_mul_veciPfS_S__param_2 (float*); 3: _Z11mtx_mul_veciPfS_S__param_3 (float*)");
  error("param_names = { N = 0, M = 1 }", 5, "param_names: 'M' is not one of params");
  error("param_names = { N = -1 }", 5, "param_names.N = -1 is out of range [0, 2147483647]");
}

}  // namespace
}  // namespace warpsim::sim::driver

// Suites with expressions in launches and params, and zipped axes (docs/formats.md, "Suites").
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/suite.hpp"
#include "warpsim/driver/sweep.hpp"
#include "support/source_dir.hpp"
#include "support/suite_from.hpp"

namespace warpsim::sim::driver {
namespace {

using testing_support::suite_from;

#define GPU "gpus = [\"rtx2060\"]\n"
#define MATMUL_T16 "[[workload]]\nptx = \"../measured/ptx/matMul_gpu_sharedmem-T16.ptx\"\nparams = [\"N\"]\nparam_names = { N = 3 }\n"

std::vector<workload::Point> points(const SuiteWorkload& workload) {
  std::vector<workload::Point> all;
  for (std::int64_t i = 0; i < workload.point_count(); ++i) all.push_back(workload.point(i));
  return all;
}

std::vector<SweepRow> rows(const Suite& suite) {
  std::vector<SweepRow> all;
  run_sweep(suite, [&](const SweepRow& row) { all.push_back(row); });
  return all;
}

// The error that reading (and, with `sweep`, running) the suite throws.
InputError suite_error(const std::string& text, bool sweep = false) {
  try {
    const Suite suite = suite_from(text);
    if (sweep) rows(suite);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return InputError("");
}

TEST(ZippedAxes, AdvanceTogetherAsOneAxisWhereTheFirstOfThemIs) {
  SuiteWorkload workload;
  workload.axes = {Axis{"C", {7, 8}}, Axis{"A", {1, 2, 3}}, Axis{"B", {10, 20, 30}, true}};
  ASSERT_EQ(workload.point_count(), 6);
  EXPECT_EQ(points(workload), (std::vector<workload::Point>{{{"C", 7}, {"A", 1}, {"B", 10}}, {{"C", 7}, {"A", 2}, {"B", 20}},
                                                            {{"C", 7}, {"A", 3}, {"B", 30}}, {{"C", 8}, {"A", 1}, {"B", 10}},
                                                            {{"C", 8}, {"A", 2}, {"B", 20}}, {{"C", 8}, {"A", 3}, {"B", 30}}}));
}

TEST(ZippedAxes, FromTheSuiteAxesAndAWorkloadsOwn) {
  // dwt_matrix reads K then N: 2 zipped points, not 4.
  const Suite shared = suite_from(GPU "workloads = [\"dwt_matrix\"]\n[axes]\nzip = { N = [64, 128], K = [8, 10] }\n");
  ASSERT_EQ(shared.workloads.size(), 1u);
  EXPECT_EQ(points(shared.workloads[0]), (std::vector<workload::Point>{{{"K", 8}, {"N", 64}}, {{"K", 10}, {"N", 128}}}));
  EXPECT_EQ(shared.axis_names(), (std::vector<std::string>{"K", "N"}));
  // Own zip members with the range forms; a workload's own axis crosses them.
  const Suite own = suite_from(GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\n"
                                   "axes = { zip = { N = { powers_of = 2, from = 6, to = 7 }, K = { from = 8, to = 10, step = 2 } } }\n");
  EXPECT_EQ(points(own.workloads[0]), points(shared.workloads[0]));
  const Suite crossed = suite_from(GPU "[[workload]]\nbuiltin = \"dwt_matrix\"\naxes = { K = [8, 10], N = [64, 128] }\n");
  EXPECT_EQ(crossed.workloads[0].point_count(), 4);
}

// The launch formula against `warpsim simulate`: tests/cli/suite_expression_cli_test.cpp.

// A params entry that is not an axis name gives the parameter at its position, unless
// param_names maps it; a plain name keeps the meaning it had.
TEST(SuiteExpressions, ParamsEntriesAreExpressions) {
  const auto times = [](const std::string& params, const std::string& axes) {
    std::vector<double> out;
    for (const SweepRow& row : rows(suite_from(GPU "[[workload]]\nptx = \"../mtx_mul_vec/mtx_mul_vec.ptx\"\n" + params +
                                               "\nlaunch = { threads = \"64\" }\ncalibration = { tp_us = 5, tm = 31 }\naxes = " +
                                               axes + "\n"))) {
      out.push_back(row.prediction.time_us);
    }
    return out;
  };
  const std::vector<double> plain = times("params = [\"N\"]\nparam_names = { N = 0 }", "{ N = [64, 128] }");
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_LT(plain[0], plain[1]);
  EXPECT_EQ(times("params = [\"2 * M\"]", "{ M = [32, 64] }"), plain);
  EXPECT_EQ(times("params = [\"pow2(E)\"]\nparam_names = { \"pow2(E)\" = \"_Z11mtx_mul_veciPfS_S__param_0\" }", "{ E = [6, 7] }"), plain);
}

TEST(SuiteExpressions, ThreadsAndBlockExpressions) {
  const Suite suite = suite_from(GPU "[[workload]]\nkp = \"../mtx_mul_vec/mtx_mul_vec.kp\"\n"
                                     "launch = { threads = \"N * 2\", block = \"min(N, 256)\" }\naxes = { N = [64, 1024] }\n");
  const std::vector<SweepRow> swept = rows(suite);
  ASSERT_EQ(swept.size(), 2u);
  EXPECT_EQ(swept[0].prediction.total_threads, 128);
  EXPECT_EQ(swept[0].prediction.launch.blocks, 2);
  EXPECT_EQ(swept[0].prediction.launch.threads_per_block, 64);
  EXPECT_EQ(swept[1].prediction.total_threads, 2048);
  EXPECT_EQ(swept[1].prediction.launch.blocks, 8);
  EXPECT_EQ(swept[1].prediction.launch.threads_per_block, 256);
}

TEST(SuiteExpressions, ErrorsPointIntoTheSuite) {
  const auto located = [](const InputError& e) { return std::make_pair(e.location().line, e.location().column); };
  using At = std::pair<int, int>;
  // Line 6 is the launch; its string starts at column 20, past the quote.
  const std::string launch = GPU MATMUL_T16 "launch = { grid = \"";
  InputError e = suite_error(launch + "ceil_div(M,16),1\", block = \"16\" }\naxes = { N = [64] }\n");
  EXPECT_EQ(located(e), At(6, 20));
  EXPECT_EQ(std::string(e.what()), "workload 'matMul' needs axis 'M': give it in [axes] or in the workload's own axes (read by 'ceil_div(M,16)')");
  e = suite_error(launch + "16, ceil_div(N,16\", block = \"16\" }\naxes = { N = [64] }\n");
  EXPECT_EQ(located(e), At(6, 24));
  EXPECT_EQ(std::string(e.what()), "grid '16, ceil_div(N,16': unbalanced '(': no ')' closes the call of ceil_div");
  e = suite_error(launch + "isqrt(N)\", block = \"16\" }\naxes = { N = [64] }\n");
  EXPECT_EQ(located(e), At(6, 20));
  EXPECT_EQ(std::string(e.what()), "grid 'isqrt(N)': unknown function 'isqrt' (expected ceil_div, min, max, pow2, log2)");
  // Only the point N = 256 divides by zero: the error names it, at the '/'.
  e = suite_error(launch + "N / (N - 256)\", block = \"16\" }\naxes = { N = [512, 256] }\n", true);
  EXPECT_EQ(located(e), At(6, 22));
  EXPECT_EQ(std::string(e.what()), "rtx2060 matMul N=256: grid 'N / (N - 256)': division by zero");
  e = suite_error(GPU "workloads = [\"dwt_matrix\"]\n[axes]\nzip = { K = [8, 10], N = [64, 128, 256] }\n");
  EXPECT_EQ(located(e), At(4, 26));
  EXPECT_EQ(std::string(e.what()), "zip: axis 'N' has 3 values and 'K' has 2: zipped axes advance together");
  e = suite_error(GPU "workloads = [\"dwt_matrix\"]\n[axes]\nN = [64]\nzip = { K = [8], N = [128] }\n");
  EXPECT_EQ(located(e), At(4, 5));
  EXPECT_EQ(std::string(e.what()), "axis 'N' is given twice in [axes]");
  e = suite_error(GPU "[[workload]]\nptx = \"../mtx_mul_vec/mtx_mul_vec.ptx\"\nparams = [\"N +\"]\nlaunch = { threads = \"64\" }\naxes = { N = [64] }\n");
  EXPECT_EQ(located(e), At(4, 15));
  EXPECT_EQ(std::string(e.what()), "params entry 'N +': expected a number, an axis name or '(' at the end");
}

// The example suite: one [[workload]] per Tile_Width file, each at the data set's launch formula.
TEST(SuiteExpressions, MeasuredMatmulExampleSuite) {
  const Suite suite = load_suite(testing_support::kSourceDir + "/workloads/suites/measured-matmul.toml");
  ASSERT_EQ(suite.workloads.size(), 3u);
  EXPECT_EQ(suite.point_count(), 96);
  EXPECT_EQ(suite.axis_names(), (std::vector<std::string>{"N", "T"}));
  EXPECT_EQ(suite.workloads[1].point(31), (workload::Point{{"N", 8192}, {"T", 16}}));
  EXPECT_EQ(suite.workloads[2].model->axes(), (std::vector<std::string>{"N", "T"}));
}

}  // namespace
}  // namespace warpsim::sim::driver

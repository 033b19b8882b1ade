#include "warpsim/driver/suite.hpp"
#include "warpsim/driver/sweep.hpp"

#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "support/located_error.hpp"

namespace warpsim::sim::driver {
namespace {

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

TEST(Suite, PaperGridHas720PointsInOrder) {
  const Suite suite = load_suite(kSourceDir + "/workloads/suites/paper-dwt.toml");
  EXPECT_EQ(suite.gpus.size(), 6u);
  EXPECT_EQ(suite.workloads.size(), 2u);
  ASSERT_EQ(suite.workloads[0].axes.size(), 2u);
  EXPECT_EQ(suite.workloads[0].axes[0].name, "K");
  EXPECT_EQ(suite.workloads[0].axes[0].values, (std::vector<std::int64_t>{8, 10, 12, 14}));
  const std::vector<std::int64_t>& N = suite.workloads[1].axes[1].values;
  ASSERT_EQ(N.size(), 15u);
  EXPECT_EQ(N.front(), 64);          // 2^(1+5)
  EXPECT_EQ(N.back(), 1 << 20);      // 2^(15+5)
  EXPECT_EQ(suite.axis_names(), (std::vector<std::string>{"K", "N"}));
  std::vector<SweepRow> rows;
  run_sweep(suite, [&](const SweepRow& row) { rows.push_back(row); });
  ASSERT_EQ(rows.size(), 720u);
  EXPECT_EQ(rows[0].gpu->id, "gt720m");
  EXPECT_EQ(rows[0].workload->name(), "dwt_matrix");
  EXPECT_EQ(rows[1].point, (workload::Point{{"K", 8}, {"N", 128}}));
  EXPECT_EQ(rows[15].point, (workload::Point{{"K", 10}, {"N", 64}}));
  EXPECT_EQ(rows[60].workload->name(), "dwt_lattice");
  EXPECT_EQ(rows[120].gpu->id, "k1000m");
  // The RTX 2080 matrix point worked by hand in the workload tests.
  const SweepRow& rtx = rows[5 * 120];
  EXPECT_EQ(rtx.gpu->id, "rtx2080");
  EXPECT_DOUBLE_EQ(rtx.prediction.time_us, 5.2 + 1557.8 / 1545);
}

TEST(Suite, AxisForms) {
  const Suite suite = parse_suite(R"(
gpus = ["rtx2060"]
workloads = ["dwt_matrix"]
[axes]
K = { from = 2, to = 9, step = 3 }
N = { powers_of = 4, from = 0, to = 3 }
)", "s.toml");
  EXPECT_EQ(suite.workloads[0].axes[0].values, (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(suite.workloads[0].axes[1].values, (std::vector<std::int64_t>{1, 4, 16, 64}));
  EXPECT_EQ(suite.point_count(), 12);
}

using testing_support::BadInput;

class SuiteErrors : public testing::TestWithParam<BadInput> {};

TEST_P(SuiteErrors, NameTheLineAndTheProblem) {
  const auto parse = [](const std::string& text, const std::string& file) { return parse_suite(text, file); };
  testing_support::expect_located_error(parse, GetParam(), "bad.toml");
}

#define WS_AXES "[axes]\nK = [8]\nN = [64]\n"
INSTANTIATE_TEST_SUITE_P(
    Malformed, SuiteErrors,
    testing::Values(
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\ncolour = 1\n" WS_AXES, 3, "unknown key 'colour'"},
        BadInput{"gpus = [\"nope\"]\nworkloads = [\"dwt_matrix\"]\n" WS_AXES, 1, "unknown GPU 'nope'"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"fft\"]\n" WS_AXES, 2, "unknown workload 'fft'"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\n[axes]\nK = [8]\nN = { from = 5 }\n", 5, "needs both"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\n[axes]\nK = [8]\nM = [1]\n", 5, "axis 'M' is used by no workload"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\n[axes]\nK = [8.5]\nN = [1]\n", 4, "whole number"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\n[axes]\nK = [8]\nN = { powers_of = 2, from = 0, to = 70 }\n", 5, "overflow"},
        BadInput{"gpus = [\"rtx2060\"\n", 1, ""},
        BadInput{"workloads = [\"dwt_matrix\"]\n" WS_AXES, 0, "names no GPU"},
        BadInput{"gpus = [\"rtx2060\"]\nworkloads = [\"dwt_matrix\"]\n[axes]\nK = { from = 1, to = 4000 }\nN = { from = 1, to = 4000 }\n",
                 0, "above the limit"}));

TEST(Suite, PointsThatCannotBePredictedNameThePoint) {
  const Suite suite = parse_suite("gpus = [\"rtx2060\"]\nworkloads = [\"dwt_lattice\"]\n[axes]\nK = [8]\nN = [64, 65]\n",
                                  "odd.toml");
  try {
    run_sweep(suite, [](const SweepRow&) {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rtx2060 dwt_lattice K=8 N=65"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpsim::sim::driver

// The paper's accuracy measures (eq. 15, 16, 19, 21, 22) on small experiments worked by hand.
#include <gtest/gtest.h>

#include "warpsim/evaluate/metrics.hpp"

namespace warpsim::sim::evaluate {
namespace {

constexpr double kTolerance = 1e-12;

// Two workloads M and L on GPU g. By hand, with r = predicted / measured:
//   M K=8:  r = 11/10, 18/20, 40/40 = 1.1, 0.9, 1   -> |1-r| = .1, .1, 0  -> E = 1/15, E^ = .1
//   M K=14: r = 15/12, 12/16 = 1.25, 0.75          -> E = .25, E^ = .25
//   L K=8:  r = 30/40, 50/40, 120/80 = .75, 1.25, 1.5 -> E = (.25+.25+.5)/3 = 1/3, E^ = .5
//   L K=14: r = 30/24, 60/60 = 1.25, 1              -> E = .125, E^ = .25
std::vector<Experiment> paper_like() {
  return {
      {"g", "M", {{"K", "8"}}, {{64, 11, 10}, {128, 18, 20}, {256, 40, 40}}},
      {"g", "M", {{"K", "14"}}, {{64, 15, 12}, {128, 12, 16}}},
      {"g", "L", {{"K", "8"}}, {{64, 30, 40}, {128, 50, 40}, {256, 120, 80}}},
      {"g", "L", {{"K", "14"}}, {{64, 30, 24}, {256, 60, 60}}},
  };
}

TEST(Metrics, RatiosAndErrorsOfOneExperiment) {  // eq. 15, 16
  const ExperimentErrors e = experiment_errors(paper_like()[0]);
  ASSERT_EQ(e.ratios.size(), 3u);
  EXPECT_NEAR(e.ratios[0], 1.1, kTolerance);
  EXPECT_NEAR(e.ratios[1], 0.9, kTolerance);
  EXPECT_EQ(e.ratios[2], 1.0);
  EXPECT_NEAR(e.mean_error, 1.0 / 15, kTolerance);
  EXPECT_NEAR(e.max_error, 0.1, kTolerance);
  EXPECT_EQ(e.t_min_us, 10);
  EXPECT_EQ(e.t_max_us, 40);
}

TEST(Metrics, ExactValuesWhenTheRatiosAreExact) {
  const ExperimentErrors e = experiment_errors(paper_like()[2]);
  EXPECT_EQ(e.ratios, (std::vector<double>{0.75, 1.25, 1.5}));
  EXPECT_NEAR(e.mean_error, 1.0 / 3, kTolerance);
  EXPECT_EQ(e.max_error, 0.5);
  EXPECT_THROW(experiment_errors({"g", "M", {}, {}}), std::invalid_argument);
}

TEST(Metrics, PerWorkloadAndOverall) {  // eq. 19a/b
  const Summary s = summarize(paper_like());
  ASSERT_EQ(s.experiments.size(), 4u);
  ASSERT_EQ(s.workloads.size(), 2u);
  // E^M = (1/15 + 1/4) / 2 = 19/120, E^^M = .25; E^L = (1/3 + 1/8) / 2 = 11/48, E^^L = .5.
  EXPECT_EQ(s.workloads[0].workload, "M");
  EXPECT_EQ(s.workloads[0].experiments, 2u);
  EXPECT_NEAR(s.workloads[0].mean_error, 19.0 / 120, kTolerance);
  EXPECT_EQ(s.workloads[0].max_error, 0.25);
  EXPECT_EQ(s.workloads[1].workload, "L");
  EXPECT_NEAR(s.workloads[1].mean_error, 11.0 / 48, kTolerance);
  EXPECT_EQ(s.workloads[1].max_error, 0.5);
  // Overall: 1/2 (E^M + E^L) = 93/480 (not the mean over all four experiments), max .5.
  EXPECT_NEAR(s.mean_error, 93.0 / 480, kTolerance);
  EXPECT_EQ(s.max_error, 0.5);
}

TEST(Metrics, OverallIsTheMeanOverWorkloadsNotExperiments) {
  // Three experiments of M with E = .1 each and one of L with E = .3: the overall E is
  // (.1 + .3) / 2 = .2, where the mean over experiments would be .15.
  std::vector<Experiment> list;
  for (const char* k : {"1", "2", "3"}) list.push_back({"g", "M", {{"K", k}}, {{1, 1.1, 1}}});
  list.push_back({"g", "L", {{"K", "1"}}, {{1, 1.3, 1}}});
  const Summary s = summarize(list);
  EXPECT_NEAR(s.mean_error, 0.2, kTolerance);
  EXPECT_NEAR(s.max_error, 0.3, kTolerance);
}

TEST(Metrics, TimeRatioErrors) {  // eq. 21, 22
  // M/L at K=8, common x 64, 128, 256:
  //   x=64:  R^d = 10/40 = .25, R^m = 11/30,  error |.25 - 11/30| / .25 = 7/15
  //   x=128: R^d = 20/40 = .5,  R^m = 18/50 = .36, error .14/.5 = .28
  //   x=256: R^d = 40/80 = .5,  R^m = 40/120 = 1/3, error (1/6)/.5 = 1/3
  //   E^R_1 = (7/15 + .28 + 1/3)/3 = .36, E^^R_1 = 7/15
  // K=14, common x 64 only: R^d = 12/24 = .5, R^m = 15/30 = .5, error 0.
  const RatioSummary r = ratio_errors(paper_like(), "M", "L");
  EXPECT_EQ(r.a, "M");
  EXPECT_EQ(r.b, "L");
  ASSERT_EQ(r.experiments.size(), 2u);
  const RatioExperiment& k8 = r.experiments[0];
  EXPECT_EQ(k8.gpu, "g");
  EXPECT_EQ(k8.keys, (std::vector<std::pair<std::string, std::string>>{{"K", "8"}}));
  ASSERT_EQ(k8.points.size(), 3u);
  EXPECT_EQ(k8.points[0].measured, 0.25);
  EXPECT_NEAR(k8.points[0].predicted, 11.0 / 30, kTolerance);
  EXPECT_NEAR(k8.points[0].error, 7.0 / 15, kTolerance);
  EXPECT_NEAR(k8.points[1].error, 0.28, kTolerance);
  EXPECT_NEAR(k8.points[2].error, 1.0 / 3, kTolerance);
  EXPECT_NEAR(k8.mean_error, 0.36, kTolerance);
  EXPECT_NEAR(k8.max_error, 7.0 / 15, kTolerance);
  const RatioExperiment& k14 = r.experiments[1];
  ASSERT_EQ(k14.points.size(), 1u);
  EXPECT_EQ(k14.points[0].x, 64);
  EXPECT_EQ(k14.mean_error, 0);
  // eq. 22: E^R = (.36 + 0) / 2 = .18, E^^R = 7/15.
  EXPECT_NEAR(r.mean_error, 0.18, kTolerance);
  EXPECT_NEAR(r.max_error, 7.0 / 15, kTolerance);
}

TEST(Metrics, RatiosPairOnlyTheSameGpuAndKeys) {
  std::vector<Experiment> list = paper_like();
  list[2].gpu = "h";  // L K=8 now runs on another GPU: M K=8 has no partner
  const RatioSummary r = ratio_errors(list, "M", "L");
  ASSERT_EQ(r.experiments.size(), 1u);
  EXPECT_EQ(r.experiments[0].keys[0].second, "14");
  EXPECT_TRUE(ratio_errors(list, "M", "X").experiments.empty());
  EXPECT_EQ(ratio_errors(list, "M", "X").mean_error, 0);
}

}  // namespace
}  // namespace warpsim::sim::evaluate

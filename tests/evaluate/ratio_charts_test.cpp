// The ratio charts (paper Figs 9(b), 10-15): file names, axes and notes.
#include <gtest/gtest.h>

#include "warpsim/evaluate/ratio_charts.hpp"

namespace warpsim::sim::evaluate {
namespace {

const Experiment kExperiment{"rtx 2080", "dwt/matrix", {{"K", "8"}, {"L", "3"}}, {{64, 11, 10}, {128, 18, 20}, {256, 40, 40}}};

TEST(RatioCharts, FileNamesAreSafe) {
  EXPECT_EQ(chart_file_name(kExperiment), "rtx_2080-dwt_matrix-K8-L3.svg");
  const RatioExperiment r{"g", {{"K", "8"}}, {}, 0, 0};
  EXPECT_EQ(ratio_chart_file_name(r, "dwt_matrix", "dwt_lattice"), "g-dwt_matrix_vs_dwt_lattice-K8.svg");
  EXPECT_EQ(describe_keys(kExperiment.keys), "K=8 L=3");
}

TEST(RatioCharts, RatiosAgainstLog2XWithErrorsNoted) {
  const std::string svg = render_ratio_chart(kExperiment, experiment_errors(kExperiment), "N");
  for (const char* part : {"2<tspan dy=\"-5\" font-size=\"9\">6</tspan>", "2<tspan dy=\"-5\" font-size=\"9\">8</tspan>",
                           "\u0112 = 6.7 %", "\u00ca = 10.0 %", "t_min = 10 us", "t_max = 40 us", "3 points",
                           "rtx 2080 dwt/matrix K=8 L=3"}) {
    EXPECT_NE(svg.find(part), std::string::npos) << part;
  }
  // A linear y axis around the ratios (0.9 .. 1.1), not from zero, with clean tick labels.
  EXPECT_NE(svg.find(">0.95<"), std::string::npos);
  EXPECT_EQ(svg.find(">0<"), std::string::npos);
  EXPECT_EQ(svg.find("0000000"), std::string::npos);
}

TEST(RatioCharts, TimeRatiosMeasuredAndModelled) {
  const RatioExperiment r{"g", {{"K", "8"}}, {{64, 0.25, 11.0 / 30, 7.0 / 15}, {128, 0.5, 0.36, 0.28}}, 0.36, 7.0 / 15};
  const std::string svg = render_time_ratio_chart(r, "M", "L", "N");
  for (const char* part : {"R(d): measured", "R(m): model", "R = t(M) / t(L)", "\u0112R = 36.0 %", "\u00caR = 46.7 %"}) {
    EXPECT_NE(svg.find(part), std::string::npos) << part;
  }
  // x values that are not positive get a linear x axis instead of an error.
  RatioExperiment zero = r;
  zero.points[0].x = 0;
  EXPECT_EQ(render_time_ratio_chart(zero, "M", "L", "N").find("<tspan"), std::string::npos);
}

}  // namespace
}  // namespace warpsim::sim::evaluate

// Charts of the accuracy measures as the paper draws them (Figs 9(b) and 10-15): per experiment,
// r_k = t_model / t_measured against x; per ratio experiment, R^(d) and R^(m) against x. SVG,
// log2 x axis (linear when an x is not positive), linear y axis, errors and t_min/t_max noted.
#pragma once

#include <string>

#include "warpsim/evaluate/metrics.hpp"

namespace warpsim::sim::evaluate {

std::string render_ratio_chart(const Experiment& experiment, const ExperimentErrors& errors, const std::string& x_label);
std::string render_time_ratio_chart(const RatioExperiment& experiment, const std::string& a, const std::string& b,
                                    const std::string& x_label);

// File names: "<gpu>-<workload>-<keys>.svg" (keys as K8, joined by '-') and
// "<gpu>-<a>_vs_<b>-<keys>.svg"; characters other than letters, digits, '.', '_' and '-' become '_'.
std::string chart_file_name(const Experiment& experiment);
std::string ratio_chart_file_name(const RatioExperiment& experiment, const std::string& a, const std::string& b);

// "K=8 L=3", for titles and text tables.
std::string describe_keys(const std::vector<std::pair<std::string, std::string>>& keys);

}  // namespace warpsim::sim::evaluate

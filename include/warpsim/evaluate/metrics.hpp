// The paper's accuracy measures (paper 002, eq. 15, 16, 19, 21, 22), as pure functions on plain
// structs: model-to-measured time ratios per experiment, their mean and maximum deviation from 1,
// the same per workload (algorithm) and overall, and the errors of predicted time ratios between
// two workloads. docs/evaluation-metrics.md gives the formulas and a worked example.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::sim::evaluate {

// One point of an experiment: the x-axis value (N, say) and both times, microseconds.
struct Point {
  double x = 0;
  double predicted_us = 0;
  double measured_us = 0;
};

// One experiment: a GPU, a workload and the values of every other key column but the x axis
// (K = 8, say), with its points in x order.
struct Experiment {
  std::string gpu;
  std::string workload;
  std::vector<std::pair<std::string, std::string>> keys;  // (column, value), in key order
  std::vector<Point> points;
};

// eq. 15 and 16 for one experiment.
struct ExperimentErrors {
  std::vector<double> ratios;  // r_k = t_model / t_measured, one per point
  double mean_error = 0;       // E-bar_i = mean |1 - r_k|
  double max_error = 0;        // E-hat_i = max |1 - r_k|
  double t_min_us = 0;         // smallest and largest measured time
  double t_max_us = 0;
};

// Throws std::invalid_argument for an experiment without points.
ExperimentErrors experiment_errors(const Experiment& experiment);

// eq. 19a/b for one workload mu: E-bar^mu = mean of its experiments' E-bar_i, E-hat^mu = max E-hat_i.
struct WorkloadErrors {
  std::string workload;
  std::size_t experiments = 0;
  double mean_error = 0;
  double max_error = 0;
};

// Everything eq. 15-19 give for a set of experiments. `workloads` is in order of first
// appearance; the overall E-bar is the mean of the workloads' E-bar^mu (the paper's
// 1/2 (E^M + E^L), for any number of workloads) and E-hat the maximum.
struct Summary {
  std::vector<ExperimentErrors> experiments;  // parallel to the input
  std::vector<WorkloadErrors> workloads;
  double mean_error = 0;
  double max_error = 0;
};

Summary summarize(const std::vector<Experiment>& experiments);

// eq. 21 at one x: R^(d) = t_meas(A) / t_meas(B), R^(m) = t_pred(A) / t_pred(B),
// error |R^(d) - R^(m)| / R^(d).
struct RatioPoint {
  double x = 0;
  double measured = 0;
  double predicted = 0;
  double error = 0;
};

// One ratio experiment: experiments of A and B with the same GPU and other keys, at the x values
// both have. E-bar_i^R = mean error, E-hat_i^R = max error (eq. 21).
struct RatioExperiment {
  std::string gpu;
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<RatioPoint> points;
  double mean_error = 0;
  double max_error = 0;
};

// eq. 22: E-bar^R = mean over the ratio experiments of E-bar_i^R, E-hat^R = max of E-hat_i^R.
struct RatioSummary {
  std::string a;
  std::string b;
  std::vector<RatioExperiment> experiments;  // in the order of A's experiments
  double mean_error = 0;
  double max_error = 0;
};

// Pairs every experiment of workload `a` with the one of `b` that has the same GPU and keys; pairs
// without a common x are left out. An empty `experiments` list when nothing pairs.
RatioSummary ratio_errors(const std::vector<Experiment>& experiments, const std::string& a, const std::string& b);

}  // namespace warpsim::sim::evaluate

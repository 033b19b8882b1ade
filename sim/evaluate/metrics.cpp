#include "warpsim/evaluate/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace warpsim::sim::evaluate {
namespace {

// Mean and maximum of a non-empty list, summed in order.
std::pair<double, double> mean_and_max(const std::vector<double>& values) {
  double sum = 0, max = 0;
  for (const double v : values) {
    sum += v;
    max = std::max(max, v);
  }
  return {sum / static_cast<double>(values.size()), max};
}

}  // namespace

ExperimentErrors experiment_errors(const Experiment& experiment) {
  if (experiment.points.empty()) throw std::invalid_argument("an experiment needs at least one point");
  ExperimentErrors out;
  std::vector<double> deviations;
  out.t_min_us = out.t_max_us = experiment.points.front().measured_us;
  for (const Point& p : experiment.points) {
    const double r = p.predicted_us / p.measured_us;  // eq. 15
    out.ratios.push_back(r);
    deviations.push_back(std::abs(1 - r));
    out.t_min_us = std::min(out.t_min_us, p.measured_us);
    out.t_max_us = std::max(out.t_max_us, p.measured_us);
  }
  std::tie(out.mean_error, out.max_error) = mean_and_max(deviations);  // eq. 16
  return out;
}

Summary summarize(const std::vector<Experiment>& experiments) {
  Summary out;
  std::map<std::string, std::size_t> index;  // workload -> position in out.workloads
  std::vector<std::vector<double>> means, maxima;
  for (const Experiment& e : experiments) {
    out.experiments.push_back(experiment_errors(e));
    const auto [it, added] = index.emplace(e.workload, out.workloads.size());
    if (added) {
      out.workloads.push_back({e.workload, 0, 0, 0});
      means.emplace_back();
      maxima.emplace_back();
    }
    ++out.workloads[it->second].experiments;
    means[it->second].push_back(out.experiments.back().mean_error);
    maxima[it->second].push_back(out.experiments.back().max_error);
  }
  std::vector<double> workload_means, workload_maxima;
  for (std::size_t w = 0; w < out.workloads.size(); ++w) {
    out.workloads[w].mean_error = mean_and_max(means[w]).first;   // eq. 19a
    out.workloads[w].max_error = mean_and_max(maxima[w]).second;  // eq. 19b
    workload_means.push_back(out.workloads[w].mean_error);
    workload_maxima.push_back(out.workloads[w].max_error);
  }
  if (!out.workloads.empty()) {
    out.mean_error = mean_and_max(workload_means).first;
    out.max_error = mean_and_max(workload_maxima).second;
  }
  return out;
}

RatioSummary ratio_errors(const std::vector<Experiment>& experiments, const std::string& a, const std::string& b) {
  RatioSummary out{a, b, {}, 0, 0};
  using Key = std::pair<std::string, std::vector<std::pair<std::string, std::string>>>;
  std::map<Key, const Experiment*> of_b;
  for (const Experiment& e : experiments) {
    if (e.workload == b) of_b.emplace(Key{e.gpu, e.keys}, &e);
  }
  std::vector<double> means, maxima;
  for (const Experiment& e : experiments) {
    if (e.workload != a) continue;
    const auto match = of_b.find(Key{e.gpu, e.keys});
    if (match == of_b.end()) continue;
    std::map<double, const Point*> b_points;
    for (const Point& p : match->second->points) b_points.emplace(p.x, &p);
    RatioExperiment r{e.gpu, e.keys, {}, 0, 0};
    std::vector<double> errors;
    for (const Point& p : e.points) {
      const auto q = b_points.find(p.x);
      if (q == b_points.end()) continue;
      const double measured = p.measured_us / q->second->measured_us;     // R^(d)
      const double predicted = p.predicted_us / q->second->predicted_us;  // R^(m)
      const double error = std::abs(measured - predicted) / measured;     // eq. 21
      r.points.push_back({p.x, measured, predicted, error});
      errors.push_back(error);
    }
    if (errors.empty()) continue;
    std::tie(r.mean_error, r.max_error) = mean_and_max(errors);
    means.push_back(r.mean_error);
    maxima.push_back(r.max_error);
    out.experiments.push_back(std::move(r));
  }
  if (!means.empty()) {
    out.mean_error = mean_and_max(means).first;  // eq. 22
    out.max_error = mean_and_max(maxima).second;
  }
  return out;
}

}  // namespace warpsim::sim::evaluate

#include "warpsim/calibrate/fit_error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::calibrate {

Accuracy accuracy(std::span<const MeasuredPoint> points, std::vector<double> predicted_us) {
  if (points.empty() || points.size() != predicted_us.size()) {
    throw std::invalid_argument("accuracy: one prediction per measured point, at least one");
  }
  Accuracy a;
  a.predicted_us = std::move(predicted_us);
  double sum = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const double r = a.predicted_us[k] / points[k].time_us;
    a.ratios.push_back(r);
    sum += std::abs(1 - r);
    a.max_error = std::max(a.max_error, std::abs(1 - r));
  }
  a.mean_error = sum / static_cast<double>(points.size());
  return a;
}

double best_tp(std::span<const MeasuredPoint> points, const AffineTimes& times, double lower, double upper) {
  // |1 - (A + L tp) / m| = (L / m) |(m - A) / L - tp|: minimise the weighted sum of distances.
  struct Candidate {
    double tp;
    double weight;
  };
  std::vector<Candidate> candidates;
  double total = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const double m = points[k].time_us, L = times.launches[k];
    candidates.push_back({(m - times.without_tp_us[k]) / L, L / m});
    total += L / m;
  }
  if (candidates.empty()) return lower;
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.tp < b.tp; });
  double below = 0;
  double median = candidates.back().tp;
  for (const Candidate& c : candidates) {
    below += c.weight;
    if (below >= total / 2) {
      median = c.tp;
      break;
    }
  }
  return std::clamp(median, lower, upper);
}

double mean_error(std::span<const MeasuredPoint> points, const AffineTimes& times, double tp_us) {
  double sum = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    sum += std::abs(1 - (times.without_tp_us[k] + times.launches[k] * tp_us) / points[k].time_us);
  }
  return points.empty() ? 0 : sum / static_cast<double>(points.size());
}

PointPredictor::PointPredictor(const workload::WorkloadModel& model, const gpus::Profile& gpu, MeasuredData data,
                               std::string section, Model timing_model)
    : model_(model), gpu_(gpu), points_(std::move(data.points)), section_(std::move(section)), timing_model_(timing_model),
      source_(std::move(data.source)) {}

workload::Prediction PointPredictor::predict_point(std::size_t k, const ModelValues& values, double tp_us) {
  workload::ModelOverrides overrides;
  overrides.tp_us = tp_us;
  overrides.tm = values.tm;
  overrides.memory_durations = values.durations;
  overrides.section = section_;
  overrides.model = timing_model_;
  const workload::WorkloadModel& model = points_[k].model ? *points_[k].model : model_;
  try {
    return model.predict(gpu_, points_[k].point, overrides, cache_);
  } catch (const InputError& e) {
    if (!e.location().file.empty()) throw;
    const std::string point = workload::describe_point(points_[k].point);
    throw InputError(SourceLocation{source_, points_[k].line, 0},
                     model.name() + (point.empty() ? "" : " at " + point) + ": " + e.what());
  }
}

std::vector<double> PointPredictor::predict(const ModelValues& values) {
  std::vector<double> times;
  times.reserve(points_.size());
  for (std::size_t k = 0; k < points_.size(); ++k) times.push_back(predict_point(k, values, values.tp_us).time_us);
  return times;
}

AffineTimes PointPredictor::predict_affine(const ModelValues& values) {
  AffineTimes times;
  times.without_tp_us.reserve(points_.size());
  times.launches.reserve(points_.size());
  for (std::size_t k = 0; k < points_.size(); ++k) {
    const workload::Prediction p = predict_point(k, values, 0);
    times.without_tp_us.push_back(p.time_us);
    times.launches.push_back(static_cast<double>(p.launches));
  }
  return times;
}

}  // namespace warpsim::sim::calibrate

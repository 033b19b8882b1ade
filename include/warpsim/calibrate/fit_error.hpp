// The objective of a calibration: the paper's mean absolute percentage error (eq. 15, 16)
//   r_k = t_model,k / t_measured,k,   E = mean |1 - r_k|,   E^ = max |1 - r_k|
// over the measured points, for given t_p, t_m and durations. Every model here is affine in t_p:
// T_k = A_k + L_k t_p (A_k: the time with t_p = 0, L_k: launches), so for fixed t_m and durations
// the best t_p is found exactly: it minimises sum_k (L_k / m_k) |(m_k - A_k) / L_k - t_p|, a
// weighted median.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/calibrate/measured_points.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::calibrate {

// The model parameters of one trial.
struct ModelValues {
  double tp_us = 0;
  isa::Millicycles tm = 0;
  std::vector<std::optional<isa::Millicycles>> durations;  // d1, d2, ...; nullopt: the profile's, else the program's
};

struct Accuracy {
  std::vector<double> predicted_us;  // one per point
  std::vector<double> ratios;        // r_k
  double mean_error = 0;             // E
  double max_error = 0;              // E^
};

// eq. 15, 16 for the points' measured times and these predictions (same length, not empty).
Accuracy accuracy(std::span<const MeasuredPoint> points, std::vector<double> predicted_us);

// T_k = without_tp_us[k] + launches[k] * t_p at every point.
struct AffineTimes {
  std::vector<double> without_tp_us;
  std::vector<double> launches;
};

// The t_p in [lower, upper] with the smallest E for these times (the weighted median, clamped:
// E is convex in t_p).
double best_tp(std::span<const MeasuredPoint> points, const AffineTimes& times, double lower, double upper);
// E for these times and t_p.
double mean_error(std::span<const MeasuredPoint> points, const AffineTimes& times, double tp_us);

// A workload model at the measured points on one GPU (a point with its own model, from a point
// list, uses that one), with one T_c cache for every trial: trials that repeat a (warps, t_m,
// durations) combination cost no simulation.
class PointPredictor {
 public:
  // `section`: the profile's [calibration.<section>] for what the values leave open; empty: the
  // workload's kernel. The model and the GPU must outlive the predictor.
  PointPredictor(const workload::WorkloadModel& model, const gpus::Profile& gpu, MeasuredData data,
                 std::string section = {}, Model timing_model = kDefaultModel);

  // The full model time at every point. Throws InputError naming the point (and its line) when
  // the model cannot predict it.
  std::vector<double> predict(const ModelValues& values);
  // The same with t_p left out: A_k and L_k (values.tp_us is ignored).
  AffineTimes predict_affine(const ModelValues& values);

  const std::vector<MeasuredPoint>& points() const { return points_; }
  const workload::CoreTimeCache& cache() const { return cache_; }

 private:
  const workload::WorkloadModel& model_;
  const gpus::Profile& gpu_;
  std::vector<MeasuredPoint> points_;
  std::string section_;
  Model timing_model_;
  std::string source_;
  workload::CoreTimeCache cache_;

  workload::Prediction predict_point(std::size_t k, const ModelValues& values, double tp_us);
};

}  // namespace warpsim::sim::calibrate

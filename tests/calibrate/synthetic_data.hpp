// Synthetic measurements for the calibration tests: times from the model itself with known t_p,
// t_m and durations, multiplied by deterministic noise (a fixed-seed std::mt19937, uniform in
// [1 - noise, 1 + noise]), as MeasuredData or as the text of a measurements CSV.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "warpsim/calibrate/fit_error.hpp"

namespace warpsim::testing_support {

namespace cal = sim::calibrate;

// Points K x N (either list may be empty: that axis is left out).
inline std::vector<sim::workload::Point> grid_points(const std::vector<std::int64_t>& ks, const std::vector<std::int64_t>& ns) {
  std::vector<sim::workload::Point> points;
  if (ks.empty()) {
    for (const std::int64_t n : ns) points.push_back({{"N", n}});
  }
  for (const std::int64_t k : ks) {
    for (const std::int64_t n : ns) points.push_back({{"K", k}, {"N", n}});
  }
  return points;
}

inline std::vector<std::int64_t> powers_of_two(int from, int to) {
  std::vector<std::int64_t> values;
  for (int e = from; e <= to; ++e) values.push_back(std::int64_t{1} << e);
  return values;
}

// The memory model's times (not the default pipes model's: the calibration tests recover its t_m)
// at `points` for `truth`, times noise; launch_us = truth t_p times noise when
// `with_launch`.
inline cal::MeasuredData synthetic_data(const sim::workload::WorkloadModel& model, const gpus::Profile& gpu,
                                        const std::vector<sim::workload::Point>& points, const cal::ModelValues& truth,
                                        double noise, std::uint32_t seed, bool with_launch = false,
                                        const std::string& source = "synthetic.csv") {
  cal::MeasuredData data;
  data.source = source;
  data.has_launch_column = with_launch;
  for (std::size_t k = 0; k < points.size(); ++k) {
    data.points.push_back({points[k], 1.0, std::nullopt, static_cast<int>(k) + 2});
  }
  cal::PointPredictor predictor(model, gpu, data, {}, Model::memory);
  const std::vector<double> times = predictor.predict(truth);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> factor(1 - noise, 1 + noise);
  for (std::size_t k = 0; k < points.size(); ++k) {
    data.points[k].time_us = times[k] * (noise > 0 ? factor(random) : 1.0);
    if (with_launch) data.points[k].launch_us = truth.tp_us * (noise > 0 ? factor(random) : 1.0);
  }
  return data;
}

// gpu,workload,<axes>,time_us[,launch_us] at full precision.
inline std::string measurements_csv(const cal::MeasuredData& data, const std::string& gpu, const std::string& workload) {
  std::string text = "gpu,workload";
  for (const auto& [axis, value] : data.points.front().point) text += "," + axis;
  text += data.has_launch_column ? ",time_us,launch_us\n" : ",time_us\n";
  char number[64];
  for (const cal::MeasuredPoint& p : data.points) {
    text += gpu + "," + workload;
    for (const auto& [axis, value] : p.point) text += "," + std::to_string(value);
    std::snprintf(number, sizeof number, ",%.17g", p.time_us);
    text += number;
    if (data.has_launch_column) {
      std::snprintf(number, sizeof number, ",%.17g", p.launch_us.value_or(0));
      text += number;
    }
    text += "\n";
  }
  return text;
}

}  // namespace warpsim::testing_support

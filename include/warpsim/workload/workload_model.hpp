// One workload of a suite or a calibration, whatever it is made of: a named DWT workload, a .kp
// program, or a PTX kernel. Each predicts T_k at a point: the values of its axes (K, N, a
// program parameter, a block size), with optional overrides of t_p, t_m and durations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/workload/core_time_cache.hpp"
#include "warpsim/workload/model_overrides.hpp"
#include "warpsim/workload/prediction.hpp"

namespace warpsim::sim::workload {

// Axis values by name, in the suite's axis order.
using Point = std::vector<std::pair<std::string, std::int64_t>>;

// Whether two axis names are equal, compared inline: they are a character or two, and a sweep
// compares them at every point (std::equal and == call memcmp).
inline bool same_axis_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// The value of axis `name`; throws InputError naming the axes the point has.
std::int64_t point_value(const Point& point, std::string_view name);
// point_value for many points that list their axes in the same order (a sweep's): the position
// where the name was last found is tried first.
class AxisLookup {
 public:
  explicit AxisLookup(std::string_view name) : name_(name) {}
  std::int64_t operator()(const Point& point) {
    if (position_ < point.size() && same_axis_name(point[position_].first, name_)) return point[position_].second;
    const auto found = std::find_if(point.begin(), point.end(), [&](const auto& axis) { return same_axis_name(axis.first, name_); });
    if (found == point.end()) return point_value(point, name_);  // throws, naming the axes there are
    position_ = static_cast<std::size_t>(found - point.begin());
    return found->second;
  }

 private:
  std::string_view name_;
  std::size_t position_ = 0;
};

// "K=8 N=64", for messages and labels.
std::string describe_point(const Point& point);

// A workload prepared for one GPU and one set of overrides, so that what its points share (the
// calibration, bound programs, core simulations and their T_c) is worked out once, not per
// point. Not thread-safe: one per thread. The GPU, overrides and cache must outlive it.
class PreparedModel {
 public:
  virtual ~PreparedModel() = default;
  // The same as WorkloadModel::predict with the GPU, overrides and cache it was prepared with,
  // written over every field of `into` (reusing its storage: a sweep recycles its rows).
  virtual void predict(const Point& point, Prediction& into) = 0;
};

class WorkloadModel {
 public:
  virtual ~WorkloadModel() = default;
  // The label in outputs and measurement files.
  virtual const std::string& name() const = 0;
  // The kernel whose [calibration.<kernel>] section of a profile applies.
  virtual const std::string& kernel() const = 0;
  // The axes a point must give, in the order they are reported.
  virtual std::vector<std::string> axes() const = 0;
  // How many durations d1, d2, ... ModelOverrides may set, and what each one is.
  virtual std::vector<std::string> duration_names() const = 0;
  // The values of d1, d2, ... and t_m that the workload's own program gives (where a calibration
  // starts when the profile has none); t_m only from a program's `tm` line.
  virtual std::vector<isa::Millicycles> own_durations() const = 0;
  virtual std::optional<isa::Millicycles> own_tm() const { return std::nullopt; }
  // Throws InputError for points the workload cannot take or launches the GPU cannot run.
  virtual Prediction predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                             CoreTimeCache& cache) const = 0;
  // For many points on one GPU (a sweep's block). The default calls predict() per point.
  virtual std::unique_ptr<PreparedModel> prepare(const gpus::Profile& gpu, const ModelOverrides& overrides,
                                                 CoreTimeCache& cache) const;
};

}  // namespace warpsim::sim::workload

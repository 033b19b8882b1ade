// Sweep suites (workloads/suites/*.toml, docs/formats.md): GPUs x workloads x each workload's
// axes. A workload is a named DWT workload, a .kp program or a PTX kernel, with its launch
// policy, its axes and where its calibration comes from.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/workload/model_overrides.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::driver {

inline constexpr std::int64_t kMaxSweepPoints = 10'000'000;
inline constexpr std::int64_t kMaxAxisValues = 1'000'000;

struct Axis {
  std::string name;
  std::vector<std::int64_t> values;
  bool zipped = false;  // advances with the axis before it (a zip), instead of crossing it
};

// How many points the axes span (a zip counting as one axis), saturating at INT64_MAX.
std::int64_t axis_point_count(const std::vector<Axis>& axes);
// The index-th point of the axes (0 <= index < axis_point_count), the last axis fastest, written
// into `into` (reusing its storage).
void axis_point(const std::vector<Axis>& axes, std::int64_t index, workload::Point& into);

struct SuiteWorkload {
  std::shared_ptr<const workload::WorkloadModel> model;
  std::vector<Axis> axes;              // the model's axes, in its order; the last varies fastest
  workload::ModelOverrides overrides;  // from the workload's `calibration`, empty otherwise

  std::int64_t point_count() const;    // product of the axes' sizes, a zip counting as one axis
  // The i-th point (0 <= i < point_count()), axes in order.
  workload::Point point(std::int64_t index) const;
  // The same, written into `into`, reusing its storage (a sweep fills rows it recycles).
  void point(std::int64_t index, workload::Point& into) const;
};

struct Suite {
  std::string source;
  std::string name;
  std::string description;
  std::vector<gpus::Profile> gpus;
  std::vector<SuiteWorkload> workloads;

  // Every axis name of every workload, in order of first appearance: the output's key columns.
  std::vector<std::string> axis_names() const;
  std::int64_t point_count() const;  // saturates at INT64_MAX
};

// Parses a suite; GPU ids resolve like --gpu, relative paths (profiles, .kp, .ptx) against the
// suite's folder. Throws InputError with file and line for unknown keys, bad values and too
// many points.
Suite parse_suite(std::string_view toml_text, const std::string& source);

// Every workload of the suite timed under `model` (--model, over the suite's `model` keys).
void use_model(Suite& suite, Model model);
Suite load_suite(const std::string& path);

}  // namespace warpsim::sim::driver

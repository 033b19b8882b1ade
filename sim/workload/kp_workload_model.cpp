#include "warpsim/workload/kp_workload_model.hpp"

#include <algorithm>

#include "warpsim/grid/launch_rejected.hpp"
#include "warpsim/workload/program_core_times.hpp"

namespace warpsim::sim::workload {

KpWorkloadModel::KpWorkloadModel(std::string name, isa::Program program, const LaunchPolicy& launch)
    : name_(std::move(name)), program_(std::move(program)), launch_(launch) {}

std::vector<std::string> KpWorkloadModel::axes() const {
  std::vector<std::string> names = program_.parameters();
  for (const std::string& axis : launch_.axes()) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

std::vector<std::string> KpWorkloadModel::duration_names() const { return memory_duration_names(program_); }
std::vector<isa::Millicycles> KpWorkloadModel::own_durations() const { return memory_durations(program_); }

Prediction KpWorkloadModel::predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                                    CoreTimeCache& cache) const {
  isa::ParameterValues values;
  for (const std::string& parameter : program_.parameters()) values[parameter] = point_value(point, parameter);
  const isa::Program bound = program_.bind(values);
  Prediction prediction;
  const LaunchShape shape = launch_.resolve(gpu, point);
  prediction.launch = shape.flat();
  prediction.total_threads = shape.threads;
  prediction.elements = prediction.total_threads;
  prediction.launches = 1;
  prediction.calibration =
      gpus::resolve_calibration(gpu, overrides.section_or(kernel()), overrides.calibration_choice(gpu), bound.default_tm());
  grid::rejecting_launch([&] { grid::validate_launch(gpu, prediction.launch); });
  const isa::Program program = apply_durations(bound, prediction.calibration);
  // The spec depends on the launch where accesses are priced (bandwidth share, barrier layout):
  // its fingerprint keys the cache, so each launch gets its own entry.
  const ModelSpec spec = make_model_spec(overrides.model, gpu, prediction.launch, prediction.calibration.tm,
                                         program.has_memory_annotations(), overrides.max_warp_instructions);
  prediction.per_launch = time_launch(gpu, prediction.launch, prediction.calibration.tp_us, program, spec, cache);
  prediction.time_us = prediction.per_launch.time_us;
  return prediction;
}

}  // namespace warpsim::sim::workload

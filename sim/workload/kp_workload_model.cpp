#include "warpsim/workload/kp_workload_model.hpp"

#include <algorithm>

#include "warpsim/workload/duration_key.hpp"

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
  CoreTimeKey key{reinterpret_cast<std::intptr_t>(this)};
  for (const std::string& parameter : program_.parameters()) {
    values[parameter] = point_value(point, parameter);
    key.push_back(values[parameter]);
  }
  const isa::Program bound = program_.bind(values);
  Prediction prediction;
  const LaunchShape shape = launch_.resolve(gpu, point);
  prediction.launch = shape.flat();
  prediction.total_threads = shape.threads;
  prediction.elements = prediction.total_threads;
  prediction.launches = 1;
  prediction.calibration =
      gpus::resolve_calibration(gpu, overrides.section_or(kernel()), overrides.calibration_choice(gpu), bound.default_tm());
  const isa::Program program = apply_durations(bound, prediction.calibration);
  if (overrides.model == TimingModel::memory && program.has_memory_annotations()) {
    // Priced accesses depend on the launch (bandwidth share, barrier layout): not cached by warp count.
    const LaunchEngine engine(gpu, prediction.launch, overrides.model, prediction.calibration.tm);
    prediction.per_launch = grid::time_grid(gpu, prediction.launch, prediction.calibration.tp_us, [&](std::int64_t warps) {
      return core::simulate_core(program, warps, prediction.calibration.tm, engine.options());
    });
  } else {
    prediction.per_launch = time_launch(gpu, prediction.launch, prediction.calibration, program, key, cache);
  }
  prediction.time_us = prediction.per_launch.time_us;
  return prediction;
}

}  // namespace warpsim::sim::workload

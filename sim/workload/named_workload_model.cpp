#include "sim/workload/named_workload_model.hpp"

#include <mutex>
#include <optional>

#include "isa/input_error.hpp"
#include "sim/workload/duration_key.hpp"

namespace warpsim::sim::workload {
namespace {

std::int64_t checked_elements(const NamedWorkload& workload, const DwtPoint& point) {
  if (!workload.two_dimensional) return point.N;
  std::int64_t elements = 0;
  if (__builtin_mul_overflow(point.N, point.N + point.K - 2, &elements)) {
    throw InputError(std::string(workload.name) + ": N = " + std::to_string(point.N) + " is too large");
  }
  return elements;
}

}  // namespace

NamedWorkloadModel::NamedWorkloadModel(const NamedWorkload& workload)
    : workload_(workload), name_(workload.name), kernel_(workload.kernel) {}

std::vector<std::string> NamedWorkloadModel::duration_names() const {
  return memory_duration_names(workload_program(workload_, 2));
}

const isa::Program& NamedWorkloadModel::program_for(std::int64_t K) const {
  {
    const std::shared_lock lock(programs_mutex_);
    if (const auto it = programs_.find(K); it != programs_.end()) return *it->second;
  }
  auto program = std::make_shared<const isa::Program>(workload_program(workload_, K));
  const std::unique_lock lock(programs_mutex_);
  for (const auto& entry : programs_) {
    if (entry.second->same_meaning(*program)) return *programs_.emplace(K, entry.second).first->second;
  }
  return *programs_.emplace(K, std::move(program)).first->second;
}

Prediction NamedWorkloadModel::predict(const gpus::Profile& gpu, const Point& values, const ModelOverrides& overrides,
                                       CoreTimeCache& cache) const {
  const DwtPoint point{point_value(values, "K"), point_value(values, "N")};
  const std::string what(workload_.name);
  if (point.K < 2 || point.K % 2 != 0 || point.K > isa::kMaxLoopCount) {
    throw InputError(what + ": K = " + std::to_string(point.K) + " must be an even filter length >= 2");
  }
  if (point.N < 1) throw InputError(what + ": N = " + std::to_string(point.N) + " must be positive");
  Prediction prediction;
  prediction.elements = checked_elements(workload_, point);
  if (workload_.lattice && prediction.elements % 2 != 0) {
    throw InputError(what + ": the lattice works on element pairs, so the size " +
                     std::to_string(prediction.elements) + " must be even");
  }
  prediction.total_threads = workload_.lattice ? prediction.elements / 2 : prediction.elements;
  prediction.launches = (workload_.two_dimensional ? 2 : 1) * (workload_.lattice ? point.K / 2 + 1 : 1);
  prediction.launch = grid::suggest_launch(gpu, prediction.total_threads);
  const isa::Program& bound = program_for(point.K);
  prediction.calibration =
      gpus::resolve_calibration(gpu, overrides.section_or(kernel_), overrides.calibration_choice(), bound.default_tm());
  // A copy only when the calibration changes durations; T_c usually comes from the cache.
  std::optional<isa::Program> changed;
  if (changes_durations(prediction.calibration.memory_durations)) changed = apply_durations(bound, prediction.calibration);
  const isa::Program& program = changed ? *changed : bound;
  const std::int64_t identity[] = {reinterpret_cast<std::intptr_t>(&bound)};
  prediction.per_launch = time_launch(gpu, prediction.launch, prediction.calibration, program, identity, cache);
  prediction.time_us = static_cast<double>(prediction.launches) * prediction.per_launch.time_us;
  return prediction;
}

}  // namespace warpsim::sim::workload

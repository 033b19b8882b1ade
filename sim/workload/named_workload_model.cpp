#include "warpsim/workload/named_workload_model.hpp"
#include "warpsim/workload/timing_model.hpp"

#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/workload/program_core_times.hpp"

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
std::vector<isa::Millicycles> NamedWorkloadModel::own_durations() const {
  return memory_durations(workload_program(workload_, 2));
}
std::optional<isa::Millicycles> NamedWorkloadModel::own_tm() const {
  return workload_program(workload_, 2).default_tm();
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

namespace {

// What the points of one program (one K, or several) share on this GPU: the program, its
// calibration, its ModelSpec and its T_c. The DWT programs carry no annotations, so their spec
// does not depend on the launch (make_model_spec reads it only for annotated programs).
struct ProgramOnGpu {
  ProgramOnGpu(const NamedWorkloadModel& model, const isa::Program& bound_, const gpus::Profile& gpu,
               const ModelOverrides& overrides, CoreTimeCache& cache)
      : bound(bound_),
        calibration(gpus::resolve_calibration(gpu, overrides.section_or(model.kernel()), overrides.calibration_choice(gpu),
                                              bound.default_tm())),
        changed(changes_durations(calibration.memory_durations) ? std::optional(apply_durations(bound, calibration))
                                                                 : std::nullopt),
        spec(launch_free_spec(overrides, gpu, timed(), calibration.tm)),
        core_times(timed(), spec, cache) {}

  // The program as timed: with the calibration's durations.
  const isa::Program& timed() const { return changed ? *changed : bound; }

  static ModelSpec launch_free_spec(const ModelOverrides& overrides, const gpus::Profile& gpu, const isa::Program& program,
                                    isa::Millicycles tm) {
    if (program.has_memory_annotations()) {
      throw std::logic_error("a built-in workload's program has memory annotations: its spec would depend on the launch");
    }
    return make_model_spec(overrides.model, gpu, grid::Launch{}, tm, false, overrides.max_warp_instructions);
  }

  const isa::Program& bound;
  gpus::Calibration calibration;
  std::optional<isa::Program> changed;  // a copy only when the calibration changes durations
  ModelSpec spec;
  ProgramCoreTimes core_times;
};

class PreparedNamedWorkload final : public PreparedModel {
 public:
  PreparedNamedWorkload(const NamedWorkloadModel& model, const gpus::Profile& gpu, const ModelOverrides& overrides,
                        CoreTimeCache& cache)
      : model_(model), workload_(model.workload()), gpu_(gpu), overrides_(overrides), cache_(cache) {
    by_K_.reserve(4);  // a sweep's usual few filter lengths
  }

  void predict(const Point& values, Prediction& prediction) override {
    const DwtPoint point{K_(values), N_(values)};
    if (point.K < 2 || point.K % 2 != 0 || point.K > isa::kMaxLoopCount) {
      throw InputError(std::string(workload_.name) + ": K = " + std::to_string(point.K) + " must be an even filter length >= 2");
    }
    if (point.N < 1) throw InputError(std::string(workload_.name) + ": N = " + std::to_string(point.N) + " must be positive");
    prediction.elements = checked_elements(workload_, point);
    if (workload_.lattice && prediction.elements % 2 != 0) {
      throw InputError(std::string(workload_.name) + ": the lattice works on element pairs, so the size " +
                       std::to_string(prediction.elements) + " must be even");
    }
    prediction.total_threads = workload_.lattice ? prediction.elements / 2 : prediction.elements;
    prediction.launches = (workload_.two_dimensional ? 2 : 1) * (workload_.lattice ? point.K / 2 + 1 : 1);
    prediction.launch = grid::suggest_launch(gpu_, prediction.total_threads);
    ProgramOnGpu& program = program_for(point.K);
    prediction.calibration = program.calibration;
    grid::time_grid(gpu_, planned_with(program.spec, prediction.launch), program.calibration.tp_us, program.core_times,
                    prediction.per_launch);
    prediction.time_us = back_to_back_us(gpu_, overrides_.model, prediction.launches, prediction.per_launch.time_us, program.calibration.tp_us);
    prediction.warnings.clear();
  }

 private:
  // K values with the same program (the lattice's does not depend on K) share one entry.
  ProgramOnGpu& program_for(std::int64_t K) {
    for (const auto& [known, program] : by_K_) {
      if (known == K) return *program;
    }
    const isa::Program& bound = model_.program_for(K);
    ProgramOnGpu* found = nullptr;
    for (ProgramOnGpu& program : programs_) {
      if (&program.bound == &bound) found = &program;
    }
    if (!found) found = &programs_.emplace_back(model_, bound, gpu_, overrides_, cache_);
    by_K_.emplace_back(K, found);
    return *found;
  }

  const NamedWorkloadModel& model_;
  const NamedWorkload& workload_;
  const gpus::Profile& gpu_;
  const ModelOverrides& overrides_;
  CoreTimeCache& cache_;
  std::deque<ProgramOnGpu> programs_;  // a deque: entries never move (core_times refers into them)
  std::vector<std::pair<std::int64_t, ProgramOnGpu*>> by_K_;
  AxisLookup K_{"K"}, N_{"N"};
};

}  // namespace

std::unique_ptr<PreparedModel> NamedWorkloadModel::prepare(const gpus::Profile& gpu, const ModelOverrides& overrides,
                                                           CoreTimeCache& cache) const {
  return std::make_unique<PreparedNamedWorkload>(*this, gpu, overrides, cache);
}

Prediction NamedWorkloadModel::predict(const gpus::Profile& gpu, const Point& values, const ModelOverrides& overrides,
                                       CoreTimeCache& cache) const {
  Prediction prediction;
  PreparedNamedWorkload(*this, gpu, overrides, cache).predict(values, prediction);
  return prediction;
}

}  // namespace warpsim::sim::workload

#include "sim/workload/duration_key.hpp"

#include "sim/core/simulate_core.hpp"

namespace warpsim::sim::workload {

std::vector<std::string> memory_duration_names(const isa::Program& program) {
  std::vector<std::string> names;
  for (const isa::Op& op : program.ops()) {
    if (!isa::is_memory(op.kind)) continue;
    std::string name = "d" + std::to_string(names.size() + 1) + " (" + isa::to_string(op.kind);
    if (op.line > 0) name += ", line " + std::to_string(op.line);
    names.push_back(name + ")");
  }
  return names;
}

void append_durations(CoreTimeKey& key, const gpus::Calibration& calibration) {
  key.push_back(static_cast<std::int64_t>(calibration.memory_durations.size()));
  for (const auto& d : calibration.memory_durations) key.push_back(d.value_or(0));
}

isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration) {
  if (!changes_durations(calibration.memory_durations)) return program;
  return with_memory_durations(program, calibration.memory_durations);
}

grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, const gpus::Calibration& calibration,
                             const isa::Program& program, std::span<const std::int64_t> identity, CoreTimeCache& cache) {
  const isa::Millicycles tm = calibration.tm;
  thread_local CoreTimeKey key;  // reused: building it allocates nothing once warmed up
  key.assign(identity.begin(), identity.end());
  append_durations(key, calibration);
  key.push_back(0);  // the warp count, set per call
  key.push_back(tm);
  // One pointer captured, so grid::CoreTime (a std::function) stores it without allocating.
  struct Lookup {
    CoreTimeKey& key;
    CoreTimeCache& cache;
    const isa::Program& program;
    isa::Millicycles tm;
  } lookup{key, cache, program, tm};
  return grid::time_grid(gpu, launch, calibration.tp_us, [l = &lookup](std::int64_t warps) {
    l->key[l->key.size() - 2] = warps;
    return l->cache.get(l->key, [&] { return core::simulate_core(l->program, warps, l->tm); });
  });
}

}  // namespace warpsim::sim::workload

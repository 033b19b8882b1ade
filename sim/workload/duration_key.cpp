#include "warpsim/workload/duration_key.hpp"

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

std::vector<isa::Millicycles> memory_durations(const isa::Program& program) {
  std::vector<isa::Millicycles> durations;
  for (const isa::Op& op : program.ops()) {
    if (isa::is_memory(op.kind)) durations.push_back(op.duration);
  }
  return durations;
}

void append_durations(CoreTimeKey& key, const gpus::Calibration& calibration) {
  key.push_back(static_cast<std::int64_t>(calibration.memory_durations.size()));
  for (const auto& d : calibration.memory_durations) key.push_back(d.value_or(0));
}

isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration) {
  if (!changes_durations(calibration.memory_durations)) return program;
  return with_memory_durations(program, calibration.memory_durations);
}

namespace {

CoreTimeKey program_key(std::span<const std::int64_t> identity, const gpus::Calibration& calibration) {
  CoreTimeKey key;
  key.reserve(identity.size() + calibration.memory_durations.size() + 2);
  key.assign(identity.begin(), identity.end());
  append_durations(key, calibration);
  key.push_back(calibration.tm);
  return key;
}

}  // namespace

ProgramCoreTimes::ProgramCoreTimes(const isa::Program& program, std::span<const std::int64_t> identity,
                                   const gpus::Calibration& calibration, CoreTimeCache& cache)
    : cache_(cache), shared_(cache.program(program_key(identity, calibration))), program_(program), tm_(calibration.tm) {}

ProgramCoreTimes::~ProgramCoreTimes() { cache_.count_hits(hits_); }

isa::Millicycles ProgramCoreTimes::simulate(std::int64_t warps) {
  if (!simulator_) simulator_.emplace(program_, tm_);
  const isa::Millicycles cycles = simulator_->run(warps);
  shared_.insert(warps, cycles);
  return cycles;
}

grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, const gpus::Calibration& calibration,
                             const isa::Program& program, std::span<const std::int64_t> identity, CoreTimeCache& cache) {
  ProgramCoreTimes core_times(program, identity, calibration, cache);
  grid::GridTiming timing;
  grid::time_grid(gpu, launch, calibration.tp_us, core_times, timing);
  return timing;
}

}  // namespace warpsim::sim::workload

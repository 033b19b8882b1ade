#include "warpsim/workload/program_core_times.hpp"

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

isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration) {
  if (!changes_durations(calibration.memory_durations)) return program;
  return with_memory_durations(program, calibration.memory_durations);
}

namespace {

CoreTimeKey program_key(const isa::Program& program, const ModelSpec& spec) {
  CoreTimeKey key = program.timing_identity();
  const std::vector<std::int64_t> fingerprint = spec.fingerprint();
  key.insert(key.end(), fingerprint.begin(), fingerprint.end());
  return key;
}

}  // namespace

ProgramCoreTimes::ProgramCoreTimes(const isa::Program& program, const ModelSpec& spec, CoreTimeCache& cache)
    : cache_(cache), shared_(cache.program(program_key(program, spec))), program_(program), spec_(spec) {}

ProgramCoreTimes::~ProgramCoreTimes() { cache_.count_hits(hits_); }

isa::Millicycles ProgramCoreTimes::simulate(std::int64_t warps) {
  if (!simulator_) simulator_.emplace(program_, spec_.tm, spec_.core_options());
  const isa::Millicycles cycles = simulator_->run(warps);
  shared_.insert(warps, cycles);
  return cycles;
}

grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us, const isa::Program& program,
                             const ModelSpec& spec, CoreTimeCache& cache) {
  ProgramCoreTimes core_times(program, spec, cache);
  grid::GridTiming timing;
  grid::time_grid(gpu, planned_with(spec, launch), tp_us, core_times, timing);
  return timing;
}

}  // namespace warpsim::sim::workload

#include "sim/workload/duration_key.hpp"

#include <functional>

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

ProgramCoreTimes::ProgramCoreTimes(const isa::Program& program, std::span<const std::int64_t> identity,
                                   const gpus::Calibration& calibration, CoreTimeCache& cache)
    : key_(identity.begin(), identity.end()), cache_(cache), program_(program), tm_(calibration.tm) {
  append_durations(key_, calibration);
  key_.push_back(0);  // the warp count, set per call
  key_.push_back(calibration.tm);
}

ProgramCoreTimes::~ProgramCoreTimes() { cache_.count_hits(memo_hits_); }

isa::Millicycles ProgramCoreTimes::operator()(std::int64_t warps) {
  for (const auto& [known, cycles] : memo_) {
    if (known == warps) {
      ++memo_hits_;
      return cycles;
    }
  }
  key_[key_.size() - 2] = warps;
  const isa::Millicycles cycles = cache_.get(key_, [&] {
    if (!simulator_) simulator_.emplace(program_, tm_);
    return simulator_->run(warps);
  });
  memo_.emplace_back(warps, cycles);
  return cycles;
}

grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, const gpus::Calibration& calibration,
                             const isa::Program& program, std::span<const std::int64_t> identity, CoreTimeCache& cache) {
  ProgramCoreTimes core_times(program, identity, calibration, cache);
  return grid::time_grid(gpu, launch, calibration.tp_us, std::ref(core_times));  // std::function without allocation
}

}  // namespace warpsim::sim::workload

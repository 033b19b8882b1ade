#include "sim/workload/duration_key.hpp"

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

}  // namespace warpsim::sim::workload

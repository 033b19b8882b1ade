#include "warpsim/workload/model_overrides.hpp"

#include <algorithm>
#include <string>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::workload {

bool changes_durations(std::span<const std::optional<isa::Millicycles>> durations) {
  return std::any_of(durations.begin(), durations.end(), [](const auto& d) { return d.has_value(); });
}

std::size_t memory_instruction_count(const isa::Program& program) {
  return static_cast<std::size_t>(
      std::count_if(program.ops().begin(), program.ops().end(), [](const isa::Op& op) { return isa::is_memory(op.kind); }));
}

namespace {

void check_positive(std::optional<isa::Millicycles> duration, const std::string& name) {
  if (duration && *duration <= 0) throw InputError(name + " must be a positive duration");
}

}  // namespace

isa::Program with_memory_durations(const isa::Program& program,
                                   std::span<const std::optional<isa::Millicycles>> durations) {
  const std::size_t available = memory_instruction_count(program);
  if (durations.size() > available) {
    throw InputError("d" + std::to_string(durations.size()) + " given, but " + program.name() + " has " +
                     std::to_string(available) + " memory instructions (d1 .. d" + std::to_string(available) + ")");
  }
  for (std::size_t i = 0; i < durations.size(); ++i) check_positive(durations[i], "d" + std::to_string(i + 1));
  return program.with_memory_durations([&](std::size_t index, const isa::Op&) {
    return index < durations.size() ? durations[index] : std::nullopt;
  });
}

isa::Program with_load_store_durations(const isa::Program& program, std::optional<isa::Millicycles> load,
                                       std::optional<isa::Millicycles> store) {
  check_positive(load, "d1 (loads)");
  check_positive(store, "d2 (stores)");
  // Shared, local, constant and texture accesses keep their one-instruction duration: d1 and d2
  // are the paper's global loads and stores.
  return program.with_memory_durations([&](std::size_t, const isa::Op& op) -> std::optional<isa::Millicycles> {
    if (!op.is_paper_memory()) return std::nullopt;
    return op.kind == isa::OpKind::load ? load : store;
  });
}

}  // namespace warpsim::sim::workload

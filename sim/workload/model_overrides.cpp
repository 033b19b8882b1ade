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

// The program rebuilt op by op, each memory instruction (numbered in program order) taking the
// duration `choose` gives it, or its own; spaces, sectors and barriers kept.
isa::Program with_durations(const isa::Program& program,
                            const std::function<std::optional<isa::Millicycles>(std::size_t, const isa::Op&)>& choose) {
  isa::Program out(program.name(), program.source());
  out.set_default_tm(program.default_tm());
  std::size_t memory_index = 0;
  for (const isa::Op& op : program.ops()) {
    switch (op.kind) {
      case isa::OpKind::calc:
      case isa::OpKind::barrier:
        out.add(op.kind, op.duration, op.line);
        break;
      case isa::OpKind::load:
      case isa::OpKind::store:
        out.add_access(op.kind, choose(memory_index++, op).value_or(op.duration), op.space, op.transactions, op.line);
        break;
      case isa::OpKind::repeat:
        if (op.count_parameter.empty()) {
          out.begin_repeat(op.count, op.line);
        } else {
          out.begin_repeat(op.count_parameter, op.line);
        }
        break;
      case isa::OpKind::end:
        out.end_repeat(op.line);
        break;
    }
  }
  out.finish();
  return out;
}

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
  return with_durations(program, [&](std::size_t index, const isa::Op&) {
    return index < durations.size() ? durations[index] : std::nullopt;
  });
}

isa::Program with_load_store_durations(const isa::Program& program, std::optional<isa::Millicycles> load,
                                       std::optional<isa::Millicycles> store) {
  check_positive(load, "d1 (loads)");
  check_positive(store, "d2 (stores)");
  // Shared, local, constant and texture accesses keep their one-instruction duration: d1 and d2
  // are the paper's global loads and stores.
  return with_durations(program, [&](std::size_t, const isa::Op& op) -> std::optional<isa::Millicycles> {
    if (!op.is_paper_memory()) return std::nullopt;
    return op.kind == isa::OpKind::load ? load : store;
  });
}

}  // namespace warpsim::sim::workload

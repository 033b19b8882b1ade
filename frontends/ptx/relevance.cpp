#include "warpsim/ptx/relevance.hpp"

#include "warpsim/ptx/opcodes.hpp"

#include <algorithm>
#include <optional>

namespace warpsim::ptx {
namespace {

// Registers the warp's instruction stream depends on directly, whatever computed them (a value
// stored to the param space: where `stored_value_matters` says so).
template <typename StoredValueMatters>
bool reads_into_control(const DecodedInstruction& in, std::uint32_t i, const StoredValueMatters& stored_value_matters) {
  switch (in.opcode) {
    case Opcode::brx:   // the index
    case Opcode::shfl:  // lanes exchange values: sources and lane selectors alike
    case Opcode::vote:
    case Opcode::cp_async:  // the size
    case Opcode::alloca:
      return true;
    case Opcode::st:
      return in.space == StateSpace::param && stored_value_matters(i);
    default:
      return false;
  }
}

// Instruction indices writing each register, as one flat list: writers of r are
// order[start[r] .. start[r + 1]).
struct Writers {
  std::vector<std::uint32_t> start;
  std::vector<std::uint32_t> order;

  explicit Writers(const DecodedFunction& f) : start(f.register_count + std::size_t{1}, 0) {
    const auto each_destination = [&](const auto& visit) {
      for (std::uint32_t i = 0; i < f.code.size(); ++i) {
        for (const Arg& d : f.code[i].dsts) {
          if (d.kind == Arg::Kind::reg) visit(d.reg, i);
        }
      }
    };
    each_destination([&](std::uint32_t reg, std::uint32_t) { ++start[reg + 1]; });
    for (std::size_t r = 1; r < start.size(); ++r) start[r] += start[r - 1];
    order.resize(start.back());
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    each_destination([&](std::uint32_t reg, std::uint32_t i) { order[next[reg]++] = i; });
  }
};

template <typename StoredValueMatters>
std::vector<bool> relevant_in(const DecodedFunction& function, const StoredValueMatters& stored_value_matters) {
  std::vector<bool> relevant(function.register_count, false);
  std::vector<std::uint32_t> pending;
  const auto mark = [&](const Arg& a) {
    if (a.kind != Arg::Kind::reg || a.reg >= relevant.size() || relevant[a.reg]) return;
    relevant[a.reg] = true;
    pending.push_back(a.reg);
  };
  const auto mark_guard = [&](const DecodedInstruction& in) {
    if (in.has_guard) mark(Arg{Arg::Kind::reg, false, in.guard_reg, 0});
  };
  for (std::uint32_t i = 0; i < function.code.size(); ++i) {
    const DecodedInstruction& in = function.code[i];
    mark_guard(in);  // bra's condition is its guard
    if (is_memory_access(in.opcode) && in.space != StateSpace::param) mark(in.address.base);
    if (reads_into_control(in, i, stored_value_matters)) std::for_each(in.srcs.begin(), in.srcs.end(), mark);
  }
  // Backwards: whatever an instruction with a relevant destination reads is relevant too.
  const Writers writers(function);
  std::vector<bool> visited(function.code.size(), false);
  while (!pending.empty()) {
    const std::uint32_t reg = pending.back();
    pending.pop_back();
    for (std::uint32_t k = writers.start[reg]; k < writers.start[reg + 1]; ++k) {
      const std::uint32_t i = writers.order[k];
      if (visited[i]) continue;
      visited[i] = true;
      const DecodedInstruction& in = function.code[i];
      mark_guard(in);
      mark(in.address.base);
      std::for_each(in.srcs.begin(), in.srcs.end(), mark);
    }
  }
  return relevant;
}

// The call a param access at `i` belongs to: nvcc stores a call's arguments just before it and
// loads its return values just after, in one call sequence. nullptr unless the nearest call
// (within kCallWindow instructions) lists the slot.
constexpr std::uint32_t kCallWindow = 64;

const DecodedInstruction* call_of(const DecodedFunction& f, std::uint32_t i, bool arguments) {
  const std::int32_t slot = f.code[i].address.param_slot;
  for (std::uint32_t step = 1; step <= kCallWindow; ++step) {
    if (arguments ? i + step >= f.code.size() : step > i) return nullptr;
    const DecodedInstruction& c = f.code[arguments ? i + step : i - step];
    if (c.opcode != Opcode::call && c.modelling != Modelling::external_call) continue;
    const std::vector<std::int32_t>& slots = arguments ? c.call_args : c.call_returns;
    return std::find(slots.begin(), slots.end(), slot) != slots.end() ? &c : nullptr;
  }
  return nullptr;
}

std::size_t position(const std::vector<std::int32_t>& slots, std::int32_t slot) {
  return static_cast<std::size_t>(std::find(slots.begin(), slots.end(), slot) - slots.begin());
}

}  // namespace

std::vector<bool> relevant_registers(const DecodedFunction& function) {
  return relevant_in(function, [](std::uint32_t) { return true; });
}

std::vector<std::vector<bool>> relevant_registers(const DecodedModule& module) {
  const std::size_t n = module.functions.size();
  // Who reads what a param store writes: parameter i of the function a call runs, or (a store to
  // a function's own return slot j) every caller that loads return value j; a call the emulator
  // does not follow (external, indirect) reads nothing. A slot whose call cannot be placed
  // counts as read.
  struct Reader {
    std::uint32_t function = 0;
    std::size_t index = 0;
  };
  std::vector<std::vector<bool>> parameter_read(n), return_read(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    parameter_read[f].assign(module.functions[f].param_slots.size(), false);
    return_read[f].assign(module.functions[f].return_slots.size(), false);
  }
  const auto reader_of = [&](const DecodedInstruction& call, std::int32_t slot, bool argument) -> std::optional<Reader> {
    if (call.opcode != Opcode::call) return std::nullopt;
    return Reader{call.target, position(argument ? call.call_args : call.call_returns, slot)};
  };
  // Grows to a fixed point: a value matters once what reads it does.
  std::vector<std::vector<bool>> relevant(n);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t f = 0; f < n; ++f) {
      const DecodedFunction& function = module.functions[f];
      relevant[f] = relevant_in(function, [&](std::uint32_t i) {
        const std::int32_t slot = function.code[i].address.param_slot;
        if (const std::size_t j = position(function.return_slots, slot); j < function.return_slots.size()) {
          return static_cast<bool>(return_read[f][j]);
        }
        const DecodedInstruction* call = call_of(function, i, true);
        if (call == nullptr) return true;
        const std::optional<Reader> r = reader_of(*call, slot, true);
        return r.has_value() && static_cast<bool>(parameter_read[r->function][r->index]);
      });
      const auto mark = [&](std::vector<bool>& flags, std::size_t i) {
        if (i < flags.size() && !flags[i]) flags[i] = changed = true;
      };
      for (std::uint32_t i = 0; i < function.code.size(); ++i) {
        const DecodedInstruction& in = function.code[i];
        if (in.addressed_param >= 0) mark(parameter_read[f], position(function.param_slots, in.addressed_param));
        if ((in.opcode != Opcode::ld && in.opcode != Opcode::ldu) || in.space != StateSpace::param) continue;
        bool read = false;
        for (const Arg& d : in.dsts) read = read || (d.kind == Arg::Kind::reg && d.reg < relevant[f].size() && relevant[f][d.reg]);
        if (!read) continue;
        if (const std::size_t p = position(function.param_slots, in.address.param_slot); p < function.param_slots.size()) {
          mark(parameter_read[f], p);
        } else if (const DecodedInstruction* call = call_of(function, i, false); call != nullptr) {
          if (const std::optional<Reader> r = reader_of(*call, in.address.param_slot, false)) mark(return_read[r->function], r->index);
        } else {
          for (std::uint32_t g = 0; g < n; ++g) {  // a return value from no placed call: any function's
            for (std::size_t j = 0; j < return_read[g].size(); ++j) mark(return_read[g], j);
          }
        }
      }
    }
  }
  return relevant;
}

std::vector<bool> needed_parameters(const DecodedModule& module, std::uint32_t entry) {
  const DecodedFunction& function = module.functions[entry];
  const std::vector<bool> relevant = relevant_registers(module)[entry];
  std::vector<bool> needed(function.param_slots.size(), false);
  const auto position_of = [&](std::int32_t slot) {
    return static_cast<std::size_t>(
        std::find(function.param_slots.begin(), function.param_slots.end(), slot) -
        function.param_slots.begin());
  };
  for (const DecodedInstruction& in : function.code) {
    if (in.addressed_param >= 0) {
      const std::size_t i = position_of(in.addressed_param);
      if (i < needed.size()) needed[i] = true;
    }
    if ((in.opcode != Opcode::ld && in.opcode != Opcode::ldu) || in.address.param_slot < 0)
      continue;
    const std::size_t i = position_of(in.address.param_slot);
    if (i >= needed.size()) continue;  // a call's return value, not a kernel parameter
    for (const Arg& d : in.dsts) {
      if (d.kind == Arg::Kind::reg && d.reg < relevant.size() && relevant[d.reg]) needed[i] = true;
    }
  }
  return needed;
}

}  // namespace warpsim::ptx

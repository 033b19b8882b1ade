#include "warpsim/ptx/relevance.hpp"

#include "warpsim/ptx/opcodes.hpp"

#include <algorithm>

namespace warpsim::ptx {
namespace {

// Registers the warp's instruction stream depends on directly, whatever computed them.
bool reads_into_control(const DecodedInstruction& in) {
  switch (in.opcode) {
    case Opcode::brx:   // the index
    case Opcode::shfl:  // lanes exchange values: sources and lane selectors alike
    case Opcode::vote:
    case Opcode::cp_async:  // the size
    case Opcode::alloca:
      return true;
    case Opcode::st:
      return in.space == StateSpace::param;  // call arguments and return values
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

}  // namespace

std::vector<bool> relevant_registers(const DecodedFunction& function) {
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
  for (const DecodedInstruction& in : function.code) {
    mark_guard(in);  // bra's condition is its guard
    if (is_memory_access(in.opcode) && in.space != StateSpace::param) mark(in.address.base);
    if (reads_into_control(in)) std::for_each(in.srcs.begin(), in.srcs.end(), mark);
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

std::vector<bool> needed_parameters(const DecodedModule& module, std::uint32_t entry) {
  const DecodedFunction& function = module.functions[entry];
  const std::vector<bool> relevant = relevant_registers(function);
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

#include "warpsim/ptx/assumptions.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "warpsim/ptx/opcodes.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

bool before(Position a, Position b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); }

// Static occurrences, grouped by kind and name (an opcode, a callee, a parameter, a register).
class Tally {
 public:
  void add(AssumptionKind kind, const std::string& name, Position pos, const std::string& message) {
    const auto [it, inserted] = entries_.try_emplace({kind, name}, Assumption{kind, message, pos, 0});
    if (!inserted && before(pos, it->second.first)) it->second.first = pos;
    ++it->second.count;
  }

  void append_to(std::vector<Assumption>& out) const {
    for (const auto& [key, assumption] : entries_) out.push_back(assumption);
  }

 private:
  std::map<std::pair<AssumptionKind, std::string>, Assumption> entries_;
};

// The kernel and every function it calls, directly or not.
std::vector<std::uint32_t> reachable_functions(const DecodedModule& module, std::uint32_t entry) {
  std::vector<bool> seen(module.functions.size(), false);
  std::vector<std::uint32_t> order{entry};
  seen[entry] = true;
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (const DecodedInstruction& in : module.functions[order[i]].code) {
      if (in.opcode != Opcode::call || seen[in.target]) continue;
      seen[in.target] = true;
      order.push_back(in.target);
    }
  }
  return order;
}

// The opcode an instruction was written with: "bar" for bar.sync 0.
std::string_view written_opcode(const DecodedInstruction& in) {
  return std::string_view(in.text).substr(0, in.text.find('.'));
}

// Any barrier of the block, whether the lowering models it (DecodedInstruction::block_barrier) or not.
bool is_block_barrier(const DecodedInstruction& in) {
  const OpcodeInfo* info = find_opcode(written_opcode(in));
  // bar.warp.sync only orders the lanes of one warp, which the emulator runs together anyway.
  return info != nullptr && info->opcode_class == OpcodeClass::barrier && in.text.find(".warp") == std::string::npos;
}

bool reads_memory(const DecodedInstruction& in) {
  if (in.dsts.empty()) return false;
  switch (in.opcode) {
    case Opcode::ld:
    case Opcode::ldu:
      return in.space != StateSpace::param;
    case Opcode::atom:
    case Opcode::tex:
    case Opcode::surface:
      return true;
    default:
      return false;
  }
}

bool is_global_atomic(const DecodedInstruction& in) {
  const bool atomic = in.opcode == Opcode::atom || in.opcode == Opcode::red;
  return atomic && (in.space == StateSpace::global || in.space == StateSpace::generic);
}

bool uses_register(const DecodedInstruction& in, std::uint32_t reg) {
  const auto is = [&](const Arg& a) { return a.kind == Arg::Kind::reg && a.reg == reg; };
  return std::any_of(in.srcs.begin(), in.srcs.end(), is) || is(in.address.base) ||
         (in.has_guard && in.guard_reg == reg);
}

// What the emulator gives a special register that is not simply the launch's: "" for none.
std::string special_register_message(const std::string& name, Special special) {
  switch (special) {
    case Special::smid:
      return quote_for_message(name) + " is taken as 0";
    case Special::nsmid:
      return quote_for_message(name) + " is taken as 1";
    case Special::gridid:
      return quote_for_message(name) + " is taken as 0";
    case Special::warpid:
      return quote_for_message(name) + " is taken as the warp's index in its block";
    case Special::unknown:
      return quote_for_message(name) + " has no value: clocks, timers and the like are unknown";
    default:
      return "";
  }
}

std::string without_semantics_message(const DecodedInstruction& in) {
  const std::string name = quote_for_message(in.modelling_name);
  switch (in.modelling) {
    case Modelling::unmodelled:
      return name + " is not modelled: its results are unknown, and it is timed as one calc instruction";
    case Modelling::unknown_opcode:
      return "unknown opcode " + name + ": its results are unknown, and it is timed as one calc instruction";
    case Modelling::external_call:
      return in.modelling_name.empty()
                 ? "indirect calls are timed as one calc instruction each: the callee is not run"
                 : "calls to external function " + name +
                       " are timed as one calc instruction each: it is not run, its return values are unknown";
    case Modelling::modelled:
      break;
  }
  return "";
}

AssumptionKind kind_without_semantics(Modelling modelling) {
  switch (modelling) {
    case Modelling::unknown_opcode:
      return AssumptionKind::unknown_opcode;
    case Modelling::external_call:
      return AssumptionKind::external_call;
    default:
      return AssumptionKind::unmodelled_opcode;
  }
}

void tally_instructions(const DecodedModule& module, const DecodedFunction& f, bool is_entry, Tally& tally) {
  for (const DecodedInstruction& in : f.code) {
    if (in.modelling != Modelling::modelled) {
      tally.add(kind_without_semantics(in.modelling), in.modelling_name, in.pos, without_semantics_message(in));
    }
    if (is_block_barrier(in) && !in.block_barrier) {
      tally.add(AssumptionKind::barrier, "", in.pos,
                "bar.arrive and barriers with a thread count are not modelled: each is one calc instruction, and "
                "each warp runs on its own, as if the other warps had arrived");
    }
    if (reads_memory(in)) {
      tally.add(AssumptionKind::memory_values, "", in.pos,
                "values loaded from memory are unknown (stores are not tracked)");
    }
    if (in.unknown_footprint && is_memory_access(in.opcode)) {
      tally.add(AssumptionKind::unknown_sectors, "", in.pos,
                "the sectors of wmma fragments and tensor copies are not computed");
    }
    if (is_global_atomic(in)) {
      tally.add(AssumptionKind::atomic_as_access, "", in.pos,
                "global atomics are timed as loads and reductions (red) as stores; the lanes on one address, and the updates of "
                "every warp to the busiest address the sample finds, queue at one update a cycle (assumed); no contention "
                "where addresses are unknown");
    }
    if (in.opcode == Opcode::trap) {
      tally.add(AssumptionKind::trap_as_ret, "", in.pos, "trap is treated as ret: the lanes leave the function");
    }
    const bool reads_aggregate =
        is_entry && in.opcode == Opcode::ld && in.space == StateSpace::param && in.address.param_slot >= 0 &&
        module.param_slots[static_cast<std::size_t>(in.address.param_slot)].is_array &&
        std::find(f.param_slots.begin(), f.param_slots.end(), in.address.param_slot) != f.param_slots.end();
    if (reads_aggregate) {
      const std::string& name = module.param_slots[static_cast<std::size_t>(in.address.param_slot)].name;
      tally.add(AssumptionKind::aggregate_parameter, name, in.pos,
                "parameter " + quote_for_message(name) + " is a struct passed by value: its contents are unknown");
    }
  }
}

void tally_special_registers(const DecodedFunction& f, Tally& tally) {
  for (std::size_t i = 0; i < f.special_registers.size(); ++i) {
    const auto [reg, special] = f.special_registers[i];
    const std::string& name = f.special_register_names[i];
    const std::string message = special_register_message(name, special);
    if (message.empty()) continue;
    for (const DecodedInstruction& in : f.code) {
      if (uses_register(in, reg)) tally.add(AssumptionKind::special_register, name, in.pos, message);
    }
  }
}

}  // namespace

std::string_view to_string(AssumptionKind kind) {
  switch (kind) {
    case AssumptionKind::unknown_branch:
      return "unknown_branch";
    case AssumptionKind::generic_as_global:
      return "generic_as_global";
    case AssumptionKind::unmodelled_opcode:
      return "unmodelled_opcode";
    case AssumptionKind::unknown_opcode:
      return "unknown_opcode";
    case AssumptionKind::external_call:
      return "external_call";
    case AssumptionKind::barrier:
      return "barrier";
    case AssumptionKind::memory_values:
      return "memory_values";
    case AssumptionKind::unknown_sectors:
      return "unknown_sectors";
    case AssumptionKind::atomic_as_access:
      return "atomic_as_access";
    case AssumptionKind::aggregate_parameter:
      return "aggregate_parameter";
    case AssumptionKind::special_register:
      return "special_register";
    case AssumptionKind::trap_as_ret:
      return "trap_as_ret";
  }
  return "?";
}

std::string unknown_branch_policy(const EmulatorOptions& options) {
  return "depended on values warpsim cannot know (loaded from memory, or computed by an instruction it does not "
         "model); loops left at test " +
         std::to_string(options.unknown_loop_trips) + " (--unknown-trips), other branches " +
         (options.unknown_branch == UnknownBranchPolicy::taken ? "taken" : "fell through") + " (--unknown-branch)";
}

std::vector<Assumption> collect_assumptions(const DecodedModule& module, std::uint32_t entry,
                                            const UnknownBranchReport& unknown_branches,
                                            const GenericAsGlobalReport& generic_as_global,
                                            const EmulatorOptions& options) {
  std::vector<Assumption> out;
  if (unknown_branches.count > 0) {
    out.push_back({AssumptionKind::unknown_branch, "branch decisions " + unknown_branch_policy(options),
                   unknown_branches.first, unknown_branches.count});
  }
  if (generic_as_global.count > 0) {
    out.push_back(
        {AssumptionKind::generic_as_global,
         "generic accesses whose address does not tell the space (unknown, or no lane active) count as global",
         generic_as_global.first, generic_as_global.count});
  }
  Tally tally;
  for (const std::uint32_t function : reachable_functions(module, entry)) {
    tally_instructions(module, module.functions[function], function == entry, tally);
    tally_special_registers(module.functions[function], tally);
  }
  tally.append_to(out);
  const bool stated = options.inputs != nullptr && std::any_of(options.inputs->begin(), options.inputs->end(), [](const auto& c) { return c.has_value(); });
  for (Assumption& a : out) {
    if (a.kind == AssumptionKind::memory_values && stated) {
      a.message = "values loaded from memory are unknown but from the buffers --input states (stores are not tracked)";
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Assumption& a, const Assumption& b) {
    return a.kind != b.kind ? a.kind < b.kind : before(a.first, b.first);
  });
  return out;
}

}  // namespace warpsim::ptx

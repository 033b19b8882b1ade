#include "frontends/ptx/relevance.hpp"

namespace warpsim::ptx {
namespace {

bool is_memory_access(const DecodedInstruction& in) {
  switch (in.opcode) {
    case Opcode::ld: case Opcode::ldu: case Opcode::st: case Opcode::atom: case Opcode::red:
    case Opcode::cp_async: case Opcode::tex: case Opcode::surface: case Opcode::prefetch:
      return in.space != StateSpace::param;
    default: return false;
  }
}

// Sources whose values the warp observes directly (what it issues depends on them).
bool observes_sources(const DecodedInstruction& in) {
  switch (in.opcode) {
    case Opcode::brx: case Opcode::shfl: case Opcode::vote: case Opcode::alloca: case Opcode::cp_async: return true;
    case Opcode::st: return in.space == StateSpace::param;  // values passed to and from calls
    default: return false;
  }
}

void mark(std::vector<bool>& relevant, const Arg& a, bool& changed) {
  if (a.kind != Arg::Kind::reg || relevant[a.reg]) return;
  relevant[a.reg] = true;
  changed = true;
}

}  // namespace

std::vector<bool> relevant_registers(const DecodedFunction& function) {
  std::vector<bool> relevant(function.register_count, false);
  bool changed = false;
  for (const DecodedInstruction& in : function.code) {
    if (in.has_guard) mark(relevant, Arg{Arg::Kind::reg, false, in.guard_reg, 0}, changed);
    if (is_memory_access(in)) mark(relevant, in.address.base, changed);
    if (observes_sources(in)) {
      for (const Arg& s : in.srcs) mark(relevant, s, changed);
    }
  }
  // Sources of an instruction that writes a relevant register are relevant, until nothing changes.
  changed = true;
  while (changed) {
    changed = false;
    for (const DecodedInstruction& in : function.code) {
      bool writes_relevant = false;
      for (const Arg& d : in.dsts) writes_relevant = writes_relevant || (d.kind == Arg::Kind::reg && relevant[d.reg]);
      if (!writes_relevant) continue;
      for (const Arg& s : in.srcs) mark(relevant, s, changed);
      if (in.has_guard) mark(relevant, Arg{Arg::Kind::reg, false, in.guard_reg, 0}, changed);
      if (in.address.base.kind == Arg::Kind::reg) mark(relevant, in.address.base, changed);
    }
  }
  return relevant;
}

}  // namespace warpsim::ptx

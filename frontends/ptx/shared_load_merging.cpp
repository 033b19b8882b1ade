#include "warpsim/ptx/shared_load_merging.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>

#include "warpsim/ptx/opcodes.hpp"

namespace warpsim::ptx {
namespace {

// How far past a load its partners are looked for (ptxas's scheduler sees whole blocks; nvcc's
// unrolled loops put a row's four words within a dozen instructions).
constexpr std::size_t kWindow = 64;

std::uint64_t alignment_of_value(std::uint64_t v) { return v == 0 ? kAlignmentCap : std::min(kAlignmentCap, v & (~v + 1)); }

bool is_integer(const ScalarType& t) { return t.kind == TypeKind::b || t.kind == TypeKind::u || t.kind == TypeKind::s; }

// The alignment an instruction's single integer result provably has, from its sources'.
std::uint64_t result_alignment(const DecodedInstruction& in, const std::vector<std::uint64_t>& alignment) {
  const auto source = [&](std::size_t i) -> std::uint64_t {
    if (i >= in.srcs.size() || in.srcs[i].negated) return 1;
    const Arg& a = in.srcs[i];
    if (a.kind == Arg::Kind::reg) return a.reg < alignment.size() ? alignment[a.reg] : 1;
    return a.kind == Arg::Kind::imm ? alignment_of_value(a.imm) : 1;
  };
  const auto product = [](std::uint64_t a, std::uint64_t b) { return std::min(kAlignmentCap, a * b); };
  if (!is_integer(in.type) || in.vector_width != 1 || in.dsts.size() != 1) return 1;
  switch (in.opcode) {
    case Opcode::mov:
    case Opcode::cvta:  // the shared window's base is itself aligned
      return source(0);
    case Opcode::cvt:
      return is_integer(in.src_type) ? source(0) : 1;
    case Opcode::add:
    case Opcode::sub:
    case Opcode::or_:
      return std::min(source(0), source(1));
    case Opcode::and_:
      return std::max(source(0), source(1));
    case Opcode::shl: {
      const Arg* by = in.srcs.size() > 1 ? &in.srcs[1] : nullptr;
      if (by == nullptr || by->kind != Arg::Kind::imm) return source(0);
      return by->imm >= 12 ? kAlignmentCap : product(source(0), std::uint64_t{1} << by->imm);
    }
    case Opcode::mul:
      return in.mul_mode == MulMode::hi ? 1 : product(source(0), source(1));
    case Opcode::mad:
      return in.mul_mode == MulMode::hi ? 1 : std::min(product(source(0), source(1)), source(2));
    default:
      return 1;
  }
}

bool plain_scalar_shared_load(const DecodedInstruction& in) {
  if (in.opcode != Opcode::ld || in.space != StateSpace::shared || in.vector_width != 1 || in.unknown_footprint) return false;
  if (in.modelling != Modelling::modelled || in.dsts.size() != 1 || in.dsts[0].kind != Arg::Kind::reg) return false;
  if (in.address.base.kind != Arg::Kind::reg || in.dsts[0].reg == in.address.base.reg) return false;
  if (in.type.elements != 1 || (in.type.bits != 32 && in.type.bits != 64)) return false;
  // Ordered or volatile loads stay as written.
  for (const char* kept : {".volatile", ".relaxed", ".acquire", ".mmio"}) {
    if (in.text.find(kept) != std::string::npos) return false;
  }
  return true;
}

bool same_group(const DecodedInstruction& a, const DecodedInstruction& b) {
  return a.address.base.reg == b.address.base.reg && a.type == b.type && a.has_guard == b.has_guard &&
         (!a.has_guard || (a.guard_reg == b.guard_reg && a.guard_negated == b.guard_negated));
}

// Loads may not move past these: writes to memory, ordering, control flow, unknown effects.
bool blocks_motion(const DecodedInstruction& in) {
  if (in.unknown_footprint || in.block_barrier) return true;
  switch (in.opcode) {
    case Opcode::ld:
    case Opcode::ldu:
    case Opcode::tex:
      return false;
    case Opcode::other_calc:
      return true;  // fences, external calls, unknown opcodes
    default: {
      const OpcodeClass c = opcode_class(in.opcode);
      return c == OpcodeClass::memory || c == OpcodeClass::control || c == OpcodeClass::barrier;
    }
  }
}

std::vector<bool> branch_targets(const DecodedFunction& f) {
  std::vector<bool> target(f.code.size() + 1, false);
  for (const DecodedInstruction& in : f.code) {
    if (in.opcode == Opcode::bra && in.target < target.size()) target[in.target] = true;
    for (const std::uint32_t t : in.branch_table) {
      if (t < target.size()) target[t] = true;
    }
  }
  return target;
}

// "ld.shared.f32" -> "ld.shared.v4.f32"
std::string vector_text(const std::string& text, int width) {
  const std::size_t last = text.rfind('.');
  const std::string v = ".v" + std::to_string(width);
  return last == std::string::npos ? text + v : text.substr(0, last) + v + text.substr(last);
}

// The partners of the load at `first`: at[m] is the index of the load of base + offset + m·w
// that can move up to `first`, or -1.
std::array<std::int64_t, 4> partners(const DecodedFunction& f, std::size_t first, const std::vector<bool>& target,
                                     const std::vector<bool>& removed) {
  const DecodedInstruction& head = f.code[first];
  const std::int64_t w = head.type.bytes();
  std::array<std::int64_t, 4> at{static_cast<std::int64_t>(first), -1, -1, -1};
  std::unordered_set<std::uint32_t> written, read;
  const std::uint32_t base = head.address.base.reg;
  for (std::size_t k = first + 1; k < f.code.size() && k - first <= kWindow && !target[k]; ++k) {
    const DecodedInstruction& in = f.code[k];
    if (removed[k]) continue;
    if (plain_scalar_shared_load(in) && same_group(head, in)) {
      const std::int64_t step = (in.address.offset - head.address.offset) / w;
      const bool exact = (in.address.offset - head.address.offset) % w == 0;
      const std::uint32_t dst = in.dsts[0].reg;
      if (exact && step >= 1 && step <= 3 && at[static_cast<std::size_t>(step)] < 0 && !written.contains(dst) &&
          !read.contains(dst) && dst != head.dsts[0].reg) {
        at[static_cast<std::size_t>(step)] = static_cast<std::int64_t>(k);
        written.insert(dst);  // now written at `first`
        continue;
      }
    }
    if (blocks_motion(in)) break;
    for (const Arg& d : in.dsts) {
      if (d.kind == Arg::Kind::reg) written.insert(d.reg);
    }
    for (const Arg& s : in.srcs) {
      if (s.kind == Arg::Kind::reg) read.insert(s.reg);
    }
    if (in.address.base.kind == Arg::Kind::reg) read.insert(in.address.base.reg);
    if (in.has_guard) read.insert(in.guard_reg);
    if (written.contains(base) || (head.has_guard && written.contains(head.guard_reg))) break;
  }
  return at;
}

}  // namespace

std::vector<std::uint64_t> register_alignment(const DecodedFunction& function) {
  std::vector<std::uint64_t> alignment(function.register_count, kAlignmentCap);
  for (const auto& [reg, special] : function.special_registers) {
    if (reg < alignment.size()) alignment[reg] = 1;
  }
  // Readers of each register, to revisit only what a lowered alignment can change.
  std::vector<std::vector<std::uint32_t>> readers(function.register_count);
  for (std::uint32_t i = 0; i < function.code.size(); ++i) {
    for (const Arg& s : function.code[i].srcs) {
      if (s.kind == Arg::Kind::reg && s.reg < readers.size()) readers[s.reg].push_back(i);
    }
  }
  std::vector<std::uint32_t> pending(function.code.size());
  for (std::uint32_t i = 0; i < pending.size(); ++i) pending[i] = static_cast<std::uint32_t>(pending.size() - 1 - i);
  std::vector<bool> queued(function.code.size(), true);
  while (!pending.empty()) {
    const std::uint32_t i = pending.back();
    pending.pop_back();
    queued[i] = false;
    const DecodedInstruction& in = function.code[i];
    const std::uint64_t result = result_alignment(in, alignment);
    for (const Arg& d : in.dsts) {
      if (d.kind != Arg::Kind::reg || d.reg >= alignment.size() || alignment[d.reg] <= result) continue;
      alignment[d.reg] = result;  // only ever lowered: the loop ends
      for (const std::uint32_t r : readers[d.reg]) {
        if (!queued[r]) {
          queued[r] = true;
          pending.push_back(r);
        }
      }
    }
  }
  return alignment;
}

void merge_shared_loads(DecodedFunction& function) {
  const std::vector<std::uint64_t> alignment = register_alignment(function);
  const std::vector<bool> target = branch_targets(function);
  std::vector<bool> removed(function.code.size(), false);
  bool merged_any = false;
  for (std::size_t i = 0; i < function.code.size(); ++i) {
    DecodedInstruction& head = function.code[i];
    if (removed[i] || !plain_scalar_shared_load(head)) continue;
    const std::array<std::int64_t, 4> at = partners(function, i, target, removed);
    const auto w = static_cast<std::uint64_t>(head.type.bytes());
    const std::uint64_t base_alignment = alignment[head.address.base.reg];
    const auto fits = [&](std::uint64_t bytes) {
      return bytes <= 16 && base_alignment >= bytes && static_cast<std::uint64_t>(head.address.offset) % bytes == 0;
    };
    int width = 1;
    if (at[1] >= 0 && at[2] >= 0 && at[3] >= 0 && fits(4 * w)) {
      width = 4;
    } else if (at[1] >= 0 && fits(2 * w)) {
      width = 2;
    }
    if (width == 1) continue;
    for (int m = 1; m < width; ++m) {
      const auto k = static_cast<std::size_t>(at[static_cast<std::size_t>(m)]);
      head.dsts.push_back(function.code[k].dsts[0]);
      removed[k] = true;
    }
    head.vector_width = static_cast<std::uint8_t>(width);
    head.text = vector_text(head.text, width);
    merged_any = true;
  }
  if (!merged_any) return;
  // Renumber: branch targets never fall on a removed load (partners stop at a target).
  std::vector<std::uint32_t> renumbered(function.code.size() + 1);
  std::vector<DecodedInstruction> kept;
  for (std::size_t i = 0; i < function.code.size(); ++i) {
    renumbered[i] = static_cast<std::uint32_t>(kept.size());
    if (!removed[i]) kept.push_back(std::move(function.code[i]));
  }
  renumbered[function.code.size()] = static_cast<std::uint32_t>(kept.size());
  for (DecodedInstruction& in : kept) {
    if (in.opcode == Opcode::bra && in.target < renumbered.size()) in.target = renumbered[in.target];
    for (std::uint32_t& t : in.branch_table) {
      if (t < renumbered.size()) t = renumbered[t];
    }
  }
  function.code = std::move(kept);
}

void merge_shared_loads(DecodedModule& module) {
  for (DecodedFunction& function : module.functions) merge_shared_loads(function);
}

}  // namespace warpsim::ptx

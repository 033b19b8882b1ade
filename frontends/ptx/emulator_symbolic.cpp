// The warp emulator's symbolic layer (docs/ptx.md, "Warps in classes"). A class emulation runs
// the first block of a box (and the first iteration of a loop run in closed form) concretely,
// and keeps beside each register how its lanes vary with the symbols' indices: per lane an
// integer coefficient per symbol, so that at index i the value is base + sum(coefficient x i).
// Whenever something the warp issues (a branch, a guard, a memory access's sectors or space)
// could differ inside the box, the box is narrowed until it cannot: the concrete run stays
// exact for every block left in it.
#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

#include "warp_emulator_impl.hpp"
#include "warpsim/ptx/lane_arith.hpp"

namespace warpsim::ptx {

struct WarpEmulator::Impl::LaneForm {
  Wide c = 0;
  std::array<Wide, kMaxSymbols> b{};
  Wide lo = 0, hi = 0;
};

namespace {

// Outcome of an ordered or equality comparison of d = x - y with 0.
bool compare_with_zero(Compare compare, Wide d) { return compare_ordered(compare, d, Wide{0}); }

bool is_integer_compare(Compare compare) {
  switch (compare) {
    case Compare::eq: case Compare::ne: case Compare::lt: case Compare::le: case Compare::gt: case Compare::ge:
    case Compare::lo: case Compare::ls: case Compare::hi: case Compare::hs: return true;
    default: return false;
  }
}

std::int64_t gcd64(std::int64_t a, std::int64_t b) { return std::gcd(a < 0 ? -a : a, b < 0 ? -b : b); }

constexpr std::int64_t kLargestResidueCut = 64;  // larger moduli fix the symbol instead

}  // namespace

bool WarpEmulator::Impl::tainted(std::size_t r) const {
  const std::int32_t slot = symbolic_.coefficient_slot[r];
  return slot >= 0 && (symbolic_.coefficient_pool[static_cast<std::size_t>(slot)].symbols & symbolic_.live) != 0;
}

const WarpEmulator::Impl::Coefficients* WarpEmulator::Impl::coefficients(std::size_t r) const {
  const std::int32_t slot = symbolic_.coefficient_slot[r];
  return slot < 0 ? nullptr : &symbolic_.coefficient_pool[static_cast<std::size_t>(slot)];
}

WarpEmulator::Impl::Coefficients& WarpEmulator::Impl::writable_coefficients(std::size_t r) {
  std::int32_t& slot = symbolic_.coefficient_slot[r];
  if (slot < 0) {
    if (!symbolic_.free_slots.empty()) {
      slot = symbolic_.free_slots.back();
      symbolic_.free_slots.pop_back();
      symbolic_.coefficient_pool[static_cast<std::size_t>(slot)] = Coefficients{};
    } else {
      slot = static_cast<std::int32_t>(symbolic_.coefficient_pool.size());
      symbolic_.coefficient_pool.emplace_back();
    }
  }
  return symbolic_.coefficient_pool[static_cast<std::size_t>(slot)];
}

void WarpEmulator::Impl::clear_coefficients(std::size_t r) {
  std::int32_t& slot = symbolic_.coefficient_slot[r];
  if (slot < 0) return;
  symbolic_.free_slots.push_back(slot);
  slot = -1;
}

void WarpEmulator::Impl::clear_frame_coefficients(std::size_t base, std::uint32_t count) {
  for (std::size_t r = base; r < base + count; ++r) clear_coefficients(r);
}

std::uint32_t WarpEmulator::Impl::symbols_of(const Arg& a) const {
  if (a.kind != Arg::Kind::reg) return 0;
  const Coefficients* c = coefficients(lanes_.frames.back().register_base + a.reg);
  return c == nullptr ? 0 : c->symbols & symbolic_.live;
}

std::uint64_t WarpEmulator::Impl::source_value(std::size_t i, int lane) const {
  return symbolic_.captured[i][static_cast<std::size_t>(lane)];
}

void WarpEmulator::Impl::capture_sources(const DecodedInstruction& in) {
  const std::size_t base = lanes_.frames.back().register_base;
  for (std::size_t i = 0; i < in.srcs.size() && i < symbolic_.captured.size(); ++i) {
    const Arg& a = in.srcs[i];
    if (a.kind == Arg::Kind::reg) {
      std::copy_n(&lanes_.values[(base + a.reg) * 32], 32, symbolic_.captured[i].begin());
    } else {
      symbolic_.captured[i].fill(a.imm);
    }
  }
}

bool WarpEmulator::Impl::form_of(const Arg& a, int lane, ScalarType type, LaneForm& f, const std::uint64_t* raw_value) const {
  const int bits = width(type);
  const std::uint64_t raw = raw_value != nullptr ? *raw_value
                            : a.kind == Arg::Kind::reg ? lanes_.values[(lanes_.frames.back().register_base + a.reg) * 32 + static_cast<std::size_t>(lane)]
                                                       : a.imm;
  const Coefficients* c = a.kind == Arg::Kind::reg ? coefficients(lanes_.frames.back().register_base + a.reg) : nullptr;
  if (c != nullptr) {
    // A register read as a wider type holds its own width's value, zero-extended: an unsigned
    // form of the register's width, which must not wrap.
    const int register_bits = width(module_.functions[lanes_.frames.back().function].register_types[a.reg]);
    if (register_bits < bits) return form_of(a, lane, ScalarType{TypeKind::u, static_cast<std::uint8_t>(register_bits)}, f, raw_value);
  }
  f = LaneForm{};
  f.c = type.is_signed() ? static_cast<Wide>(sign_extend(raw, bits)) : static_cast<Wide>(truncate(raw, bits));
  f.lo = f.hi = f.c;
  if (c != nullptr) {
    for (std::uint32_t m = c->symbols & symbolic_.live; m != 0; m &= m - 1) {
      const auto v = static_cast<std::size_t>(std::countr_zero(m));
      const Wide b = static_cast<Wide>(sign_extend(c->lane[v][static_cast<std::size_t>(lane)], bits));
      f.b[v] = b;
      const Wide span = b * static_cast<Wide>(symbolic_.symbols[v].count - 1);
      (span < 0 ? f.lo : f.hi) += span;
    }
  }
  const Wide one = 1;
  const Wide lowest = type.is_signed() ? -(one << (bits - 1)) : 0;
  const Wide highest = type.is_signed() ? (one << (bits - 1)) - 1 : (one << bits) - 1;
  return f.lo >= lowest && f.hi <= highest;
}

void WarpEmulator::Impl::narrow(int symbol, std::int64_t count, SplitKind kind) {
  Symbol& s = symbolic_.symbols[static_cast<std::size_t>(symbol)];

  if (count >= s.count) return;
  if (s.restart_modulus > 0) throw RestartClass{ClassSplit{SplitKind::residue, s.dim, s.restart_modulus}};
  if (!s.loop && s.step == 1) symbolic_.splits->push_back(ClassSplit{kind, s.dim, kind == SplitKind::each ? s.count : count});
  if (!s.loop && s.step > 1) symbolic_.splits->push_back(ClassSplit{SplitKind::prefix, s.dim, count * s.step});  // every low digit
  s.count = count;
  if (count <= 1) symbolic_.live &= ~(1u << symbol);
}

void WarpEmulator::Impl::fix(int symbol) { narrow(symbol, 1, SplitKind::each); }

void WarpEmulator::Impl::fix_all(std::uint32_t symbols) {
  for (std::uint32_t m = symbols & symbolic_.live; m != 0; m &= m - 1) fix(std::countr_zero(m));
}

void WarpEmulator::Impl::residue_cut(int symbol, std::int64_t modulus) {
  const Symbol& s = symbolic_.symbols[static_cast<std::size_t>(symbol)];
  if (s.loop) {
    period_hint(symbol, modulus);
    fix(symbol);
  } else if (s.restart_modulus > 0) {
    throw RestartClass{ClassSplit{SplitKind::residue, s.dim, s.restart_modulus}};
  } else if (modulus > kLargestResidueCut || modulus >= s.count) {
    fix(symbol);
  } else {
    throw RestartClass{ClassSplit{SplitKind::residue, s.dim, modulus * s.step}};
  }
}

// A division by d of an index i over n blocks (d dividing n) is i = r + d q: the quotient q and
// the remainder r are affine in two digits where they are not in i. The class goes on with both
// digits; only narrowing the low one falls back to the residue cut.
bool WarpEmulator::Impl::reshape(int symbol, std::int64_t modulus) {
  int digit = kBlockSymbols;
  while (digit < kMaxSymbols && ((symbolic_.allocated >> digit) & 1) != 0) ++digit;
  if (digit >= kMaxSymbols) return false;
  symbolic_.allocated |= 1u << digit;
  symbolic_.live |= 1u << digit;
  Symbol& s = symbolic_.symbols[static_cast<std::size_t>(symbol)];
  symbolic_.symbols[static_cast<std::size_t>(digit)] = Symbol{false, s.dim, modulus, s.step, modulus * s.step};
  s.count /= modulus;
  s.step *= modulus;
  for (Coefficients& c : symbolic_.coefficient_pool) substitute(c, symbol, digit, modulus);
  const auto in_slots = [&](std::unordered_map<std::int32_t, std::vector<Slot>>& store) {
    for (auto& [id, slots] : store) {
      for (Slot& slot : slots) {
        if (slot.coefficients) substitute(*slot.coefficients, symbol, digit, modulus);
      }
    }
  };
  const auto in_snapshot = [&](LoopSnapshot& snapshot) {
    for (auto& [position, c] : snapshot.coefficients) substitute(c, symbol, digit, modulus);
    in_slots(snapshot.param_store);
  };
  in_slots(lanes_.param_store);
  for (LoopTracker& t : loops_.trackers) in_snapshot(t.snapshot);
  for (LoopRun& run : loops_.runs) in_snapshot(run.start);
  return true;
}

void WarpEmulator::Impl::substitute(Coefficients& c, int symbol, int digit, std::int64_t modulus) const {
  if (((c.symbols >> symbol) & 1) == 0) return;
  auto& high = c.lane[static_cast<std::size_t>(symbol)];
  auto& low = c.lane[static_cast<std::size_t>(digit)];
  for (std::size_t lane = 0; lane < 32; ++lane) {
    low[lane] = high[lane];
    high[lane] *= static_cast<std::uint64_t>(modulus);
  }
  c.symbols |= 1u << digit;
}

// Narrows the live symbols among `involved` until `uniform()` holds, keeping the first block
// (index 0 of every symbol): first by the longest prefix of one symbol (a bound check splits
// the grid where it starts to fail), else by fixing one symbol, innermost loop first.
template <typename Uniform>
void WarpEmulator::Impl::narrow_until(Uniform uniform, std::uint32_t involved) {
  const auto set_count = [&](int v, std::int64_t n) {
    symbolic_.symbols[static_cast<std::size_t>(v)].count = n;
    symbolic_.live = n > 1 ? symbolic_.live | (1u << v) : symbolic_.live & ~(1u << v);
  };
  while (!uniform()) {
    const std::uint32_t candidates = involved & symbolic_.live;
    // Nothing left to narrow: every symbol of the value is fixed in this box, so its lanes hold
    // exact values (as --emulate-all has them) and the caller's test no longer needs to hold: a
    // division of a value that is negative in the first block, say, is emulated as it is.
    if (candidates == 0) return;
    bool narrowed = false;
    for (int v = kMaxSymbols - 1; v >= 0 && !narrowed; --v) {
      if (((candidates >> v) & 1) == 0) continue;
      const std::int64_t full = symbolic_.symbols[static_cast<std::size_t>(v)].count;
      set_count(v, 1);
      const bool alone = uniform();
      set_count(v, full);
      if (!alone) continue;
      std::int64_t good = 1, bad = full;
      while (bad - good > 1) {
        const std::int64_t mid = good + (bad - good) / 2;
        set_count(v, mid);
        (uniform() ? good : bad) = mid;
        set_count(v, full);
      }
      narrow(v, good, SplitKind::prefix);
      narrowed = true;
    }
    if (narrowed) continue;
    // Loops first (innermost), then the block symbol with the fewest indices; a low digit last
    // (fixing it restarts the class).
    int pick = -1;
    for (int v = kMaxSymbols - 1; v >= 0 && pick < 0; --v) {
      if (((candidates >> v) & 1) != 0 && symbolic_.symbols[static_cast<std::size_t>(v)].loop) pick = v;
    }
    for (int v = 0; v < kMaxSymbols && pick < 0; ++v) {
      const Symbol& s = symbolic_.symbols[static_cast<std::size_t>(v)];
      if (((candidates >> v) & 1) == 0 || s.restart_modulus > 0) continue;
      if (pick < 0 || s.count < symbolic_.symbols[static_cast<std::size_t>(pick)].count) pick = v;
    }
    if (pick < 0) pick = std::countr_zero(candidates);
    fix(pick);
  }
}

void WarpEmulator::Impl::force_uniform_compare(const DecodedInstruction&, const Arg& a, const Arg& b, Compare compare,
                                               ScalarType type, std::uint32_t lanes) {
  const std::uint32_t involved = symbols_of(a) | symbols_of(b);
  if (involved == 0) return;
  if (type.is_float() || !is_integer_compare(compare)) {
    fix_all(involved);
    return;
  }
  narrow_until([&] {
    for (std::uint32_t m = lanes; m != 0; m &= m - 1) {
      const int lane = std::countr_zero(m);
      LaneForm x, y;
      if (!form_of(a, lane, type, x) || !form_of(b, lane, type, y)) return false;
      Wide lo = x.c - y.c, hi = lo;
      bool constant = true;
      for (std::size_t v = 0; v < kMaxSymbols; ++v) {
        const Wide d = x.b[v] - y.b[v];
        if (d == 0 || ((symbolic_.live >> v) & 1) == 0) continue;
        constant = false;
        const Wide span = d * static_cast<Wide>(symbolic_.symbols[v].count - 1);
        (span < 0 ? lo : hi) += span;
      }
      if (constant) continue;
      if (compare == Compare::eq || compare == Compare::ne) {
        if (lo <= 0 && hi >= 0) return false;
      } else if (compare_with_zero(compare, lo) != compare_with_zero(compare, hi)) {
        return false;
      }
    }
    return true;
  }, involved);
}

void WarpEmulator::Impl::observe(const DecodedInstruction& in, std::uint32_t gtrue, std::uint32_t gunknown) {
  const std::size_t base = lanes_.frames.back().register_base;
  const std::uint32_t executing = gtrue | gunknown;
  if (in.has_guard && tainted(base + in.guard_reg)) fix_all(coefficients(base + in.guard_reg)->symbols);
  const auto fix_sources = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < in.srcs.size(); ++i) fix_all(symbols_of(in.srcs[i]));
  };
  switch (in.opcode) {
    case Opcode::brx: case Opcode::vote: case Opcode::alloca: fix_sources(0, in.srcs.size()); return;
    case Opcode::shfl: fix_sources(1, 3); return;  // the lane operands; the value is propagated
    case Opcode::st:  // a param slot keeps a scalar's coefficients; what it cannot keep is fixed where it matters
      if (in.space == StateSpace::param) {
        for (const Arg& a : in.srcs) {
          if (a.kind != Arg::Kind::reg || !relevant_[lanes_.frames.back().function][a.reg]) continue;
          const Coefficients* c = coefficients(base + a.reg);
          if (in.srcs.size() != 1 || (c != nullptr && c->poisoned)) fix_all(symbols_of(a));
        }
      }
      break;
    case Opcode::setp: case Opcode::set: case Opcode::min: case Opcode::max: {
      bool relevant = false;
      for (const Arg& d : in.dsts) relevant = relevant || (d.kind == Arg::Kind::reg && relevant_[lanes_.frames.back().function][d.reg]);
      if (!relevant || in.srcs.size() < 2) return;
      std::uint32_t lanes = gtrue;
      for (std::size_t i = 0; i < 2; ++i) {
        if (in.srcs[i].kind == Arg::Kind::reg) lanes &= lanes_.known[base + in.srcs[i].reg];
      }
      const bool compare = in.opcode == Opcode::setp || in.opcode == Opcode::set;
      const ScalarType type = compare ? in.src_type : in.type;
      force_uniform_compare(in, in.srcs[0], in.srcs[1], compare ? in.compare : Compare::lt, type, lanes);
      if (compare && in.srcs.size() > 2) fix_sources(2, 3);
      return;
    }
    default: break;
  }
  const bool memory = in.opcode == Opcode::ld || in.opcode == Opcode::ldu || in.opcode == Opcode::st ||
                      in.opcode == Opcode::atom || in.opcode == Opcode::red || in.opcode == Opcode::cp_async ||
                      in.opcode == Opcode::tex || in.opcode == Opcode::surface;
  if (!memory || in.space == StateSpace::param) return;
  if (in.opcode == Opcode::cp_async) fix_sources(0, in.srcs.size());
  if (in.address.base.kind == Arg::Kind::reg && tainted(base + in.address.base.reg)) observe_access(in, executing);
}

// The access's space and transactions must be the same for every block of the box. Lanes that
// move together by a multiple of 128 bytes touch as many sectors and lines (by a multiple of 4 bytes, as
// many shared ways and const addresses); other shifts are tried one by one.
void WarpEmulator::Impl::observe_access(const DecodedInstruction& in, std::uint32_t lanes) {
  const std::size_t r = lanes_.frames.back().register_base + in.address.base.reg;
  while (tainted(r)) {
    if ((lanes & ~lanes_.known[r]) != 0 || lanes == 0) return;  // an unknown address: unknown sectors anyway
    const Coefficients& c = *coefficients(r);
    bool mixed = false;
    for (std::uint32_t m = c.symbols & symbolic_.live; m != 0 && !mixed; m &= m - 1) {
      const auto v = static_cast<std::size_t>(std::countr_zero(m));
      const std::uint64_t first = c.lane[v][static_cast<std::size_t>(std::countr_zero(lanes))];
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        if (c.lane[v][static_cast<std::size_t>(std::countr_zero(l))] != first) {
          fix(static_cast<int>(v));  // lanes drift apart: their sectors change from block to block
          mixed = true;
          break;
        }
      }
    }
    if (mixed) continue;
    const std::uint32_t involved = c.symbols & symbolic_.live;
    const int lane0 = std::countr_zero(lanes);
    narrow_until([&] {
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        LaneForm f;
        if (!form_of(in.address.base, std::countr_zero(l), ScalarType{TypeKind::u, 64}, f)) return false;
        const auto lo = static_cast<std::uint64_t>(f.lo), hi = static_cast<std::uint64_t>(f.hi);
        if (space_of_generic(lo) != space_of_generic(hi)) return false;
      }
      return true;
    }, involved);
    if (!tainted(r)) return;
    std::uint64_t* row = &lanes_.values[r * 32];
    StateSpace space = in.space;
    if (space == StateSpace::generic) space = space_of_generic(row[static_cast<std::size_t>(lane0)] + static_cast<std::uint64_t>(in.address.offset));
    // Shifting every lane by a multiple of `period` bytes keeps the access's transactions: 128 for
    // sectors and their 128-byte lines, 4 for shared ways and const addresses (counted in 4-byte words).
    const std::int64_t period = space == StateSpace::shared || space == StateSpace::constant || space == StateSpace::param ? 4 : 128;
    std::int64_t step = period;
    for (std::uint32_t m = coefficients(r)->symbols & symbolic_.live; m != 0; m &= m - 1) {
      const auto v = static_cast<std::size_t>(std::countr_zero(m));
      step = gcd64(step, static_cast<std::int64_t>(coefficients(r)->lane[v][static_cast<std::size_t>(lane0)] & static_cast<std::uint64_t>(period - 1)));
    }
    if (step == period) return;
    const Access reference = access_of(in, lanes);
    bool same = true;
    for (std::int64_t shift = step; shift < period && same; shift += step) {
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) row[std::countr_zero(l)] += static_cast<std::uint64_t>(shift);
      same = access_of(in, lanes) == reference;
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) row[std::countr_zero(l)] -= static_cast<std::uint64_t>(shift);
    }
    if (same) return;
    for (int v = kMaxSymbols - 1; v >= 0; --v) {
      if (((coefficients(r)->symbols & symbolic_.live) >> v & 1) == 0) continue;
      const auto b = static_cast<std::int64_t>(coefficients(r)->lane[static_cast<std::size_t>(v)][static_cast<std::size_t>(lane0)] &
                                               static_cast<std::uint64_t>(period - 1));
      if (b == 0) continue;
      residue_cut(v, period / gcd64(b, period));
      break;
    }
  }
}

std::uint32_t WarpEmulator::Impl::nonzero_symbols(const Coefficients& c) {
  std::uint32_t symbols = 0;
  for (std::size_t v = 0; v < kMaxSymbols; ++v) {
    if (std::any_of(c.lane[v].begin(), c.lane[v].end(), [](std::uint64_t x) { return x != 0; })) symbols |= 1u << v;
  }
  return symbols;
}

WarpEmulator::Impl::Slot* WarpEmulator::Impl::stored_param(const DecodedInstruction& in) {
  const auto slots = lanes_.param_store.find(in.address.param_slot);
  if (slots == lanes_.param_store.end()) return nullptr;
  for (Slot& s : slots->second) {
    if (s.offset == in.address.offset) return &s;
  }
  return nullptr;
}

void WarpEmulator::Impl::store_param_coefficients(const DecodedInstruction& in, std::uint32_t executing) {
  Slot* slot = stored_param(in);
  if (slot == nullptr || in.srcs.size() != 1) return;
  const Arg& a = in.srcs[0];
  const Frame& frame = lanes_.frames.back();
  const bool observed = a.kind == Arg::Kind::reg && relevant_[frame.function][a.reg];  // as execute stores it
  const Coefficients* c = observed ? coefficients(frame.register_base + a.reg) : nullptr;
  if (c == nullptr && !slot->coefficients) return;
  Coefficients merged = slot->coefficients.value_or(Coefficients{});
  for (std::size_t v = 0; v < kMaxSymbols; ++v) {
    for (std::uint32_t l = executing; l != 0; l &= l - 1) {
      const auto lane = static_cast<std::size_t>(std::countr_zero(l));
      merged.lane[v][lane] = c != nullptr ? c->lane[v][lane] : 0;
    }
  }
  merged.symbols = nonzero_symbols(merged);
  merged.poisoned = (c != nullptr && c->poisoned) || (slot->coefficients && slot->coefficients->poisoned && executing != 0xFFFFFFFFu);
  if (merged.poisoned) merged.symbols |= (c != nullptr ? c->symbols : 0) | (slot->coefficients ? slot->coefficients->symbols : 0);
  if (merged.symbols == 0) {
    slot->coefficients.reset();
  } else {
    slot->coefficients = merged;
    slot->coefficient_bits = static_cast<std::uint8_t>(width(in.type));
  }
}

void WarpEmulator::Impl::propagate(const DecodedInstruction& in, std::uint32_t executing) {
  const Frame& frame = lanes_.frames.back();
  const std::size_t base = frame.register_base;
  if (in.opcode == Opcode::st && in.space == StateSpace::param) {
    store_param_coefficients(in, executing);
    return;
  }
  bool any_tainted = false;
  for (const Arg& s : in.srcs) any_tainted = any_tainted || (s.kind == Arg::Kind::reg && tainted(base + s.reg));
  const bool loads = in.opcode == Opcode::ld || in.opcode == Opcode::ldu || in.opcode == Opcode::atom;
  if (loads && in.space != StateSpace::param) any_tainted = false;  // the result is a loaded (unknown) value
  // An argument or return value read back as wide as it was stored keeps its coefficients.
  const Slot* passed = loads && in.space == StateSpace::param ? stored_param(in) : nullptr;
  if (passed != nullptr && (!passed->coefficients || passed->coefficient_bits != width(in.type))) passed = nullptr;
  if (passed != nullptr) any_tainted = true;
  bool dst_has_coefficients = false;
  for (const Arg& d : in.dsts) dst_has_coefficients = dst_has_coefficients || (d.kind == Arg::Kind::reg && symbolic_.coefficient_slot[base + d.reg] >= 0);
  if (!any_tainted && !dst_has_coefficients) return;

  Coefficients result;
  std::uint32_t involved = 0;
  for (const Arg& s : in.srcs) involved |= symbols_of(s);
  bool relevant = false;
  for (const Arg& d : in.dsts) relevant = relevant || (d.kind == Arg::Kind::reg && relevant_[frame.function][d.reg]);
  // Comparisons with a relevant result were made uniform before the instruction ran (observe).
  const bool compares = in.opcode == Opcode::setp || in.opcode == Opcode::set || in.opcode == Opcode::min ||
                        in.opcode == Opcode::max;
  bool affine = !any_tainted;  // untainted sources: coefficients zero
  if (passed != nullptr) {
    result = *passed->coefficients;
    involved = result.symbols;
    affine = !result.poisoned;  // else fixed or poisoned below, as any value not followed
    result.poisoned = false;
  } else if (any_tainted && compares && relevant) {
    affine = in.opcode == Opcode::setp || in.opcode == Opcode::set || propagate_affine(in, executing, result);
  } else if (any_tainted && !compares && in.dsts.size() == 1) {
    affine = propagate_affine(in, executing, result);
  }
  result.symbols = nonzero_symbols(result);
  bool poisoned = false;
  if (!affine) {
    if (relevant) {
      fix_all(involved);  // the values are exact for the box that is left
    } else {
      poisoned = true;
    }
  }
  for (const Arg& d : in.dsts) {
    if (d.kind != Arg::Kind::reg) continue;
    const std::size_t r = base + d.reg;
    const Coefficients* old = coefficients(r);
    if (old == nullptr && result.symbols == 0 && !poisoned) continue;
    Coefficients merged = old != nullptr ? *old : Coefficients{};
    for (std::size_t v = 0; v < kMaxSymbols; ++v) {
      for (std::uint32_t l = executing; l != 0; l &= l - 1) {
        const auto lane = static_cast<std::size_t>(std::countr_zero(l));
        merged.lane[v][lane] = affine ? result.lane[v][lane] : 0;
      }
    }
    merged.symbols = nonzero_symbols(merged);
    const bool kept_poison = old != nullptr && old->poisoned && executing != 0xFFFFFFFFu;
    merged.poisoned = kept_poison || poisoned;
    if (poisoned) merged.symbols |= involved;
    if (kept_poison) merged.symbols |= old->symbols;
    if (merged.symbols == 0) {
      clear_coefficients(r);
    } else {
      writable_coefficients(r) = merged;
    }
  }
}

// Coefficients of the single destination of an integer instruction that is affine in its
// tainted sources; false when it is not (then the caller fixes or poisons).
bool WarpEmulator::Impl::propagate_affine(const DecodedInstruction& in, std::uint32_t lanes, Coefficients& out) {
  const std::size_t base = lanes_.frames.back().register_base;
  const auto coef = [&](std::size_t i) -> const Coefficients* {
    if (i >= in.srcs.size() || in.srcs[i].kind != Arg::Kind::reg || in.srcs[i].negated) return nullptr;
    const Coefficients* c = coefficients(base + in.srcs[i].reg);
    return c != nullptr && (c->symbols & symbolic_.live) != 0 ? c : nullptr;
  };
  if (in.type.is_float() || in.dsts.empty() || in.dsts[0].kind != Arg::Kind::reg) return false;
  const auto combine = [&](auto f) {
    for (std::size_t v = 0; v < kMaxSymbols; ++v) {
      if (((symbolic_.live >> v) & 1) == 0) continue;
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        const auto lane = static_cast<std::size_t>(std::countr_zero(l));
        out.lane[v][lane] = f(v, lane);
      }
    }
  };
  const auto at = [&](std::size_t i, std::size_t v, std::size_t lane) -> std::uint64_t {
    const Coefficients* c = coef(i);
    return c == nullptr ? 0 : c->lane[v][lane];
  };
  const Coefficients* a = coef(0);
  const Coefficients* b = coef(1);
  const int bits = width(in.type);
  switch (in.opcode) {
    case Opcode::mov: case Opcode::cvta:
      combine([&](std::size_t v, std::size_t lane) { return at(0, v, lane); });
      return in.srcs.size() == 1;
    case Opcode::add: combine([&](std::size_t v, std::size_t lane) { return at(0, v, lane) + at(1, v, lane); }); return true;
    case Opcode::sub: combine([&](std::size_t v, std::size_t lane) { return at(0, v, lane) - at(1, v, lane); }); return true;
    case Opcode::neg: combine([&](std::size_t v, std::size_t lane) { return std::uint64_t{0} - at(0, v, lane); }); return true;
    case Opcode::mul:
    case Opcode::mad: {
      if (a != nullptr && b != nullptr) return false;
      const std::size_t t = a != nullptr ? 0 : 1;  // the tainted factor
      const std::size_t k = 1 - t;
      if (in.mul_mode == MulMode::hi) return false;
      if (in.mul_mode == MulMode::wide) {
        const ScalarType narrow_type = in.type;
        const std::uint32_t symbols = symbols_of(in.srcs[t]);
        narrow_until([&] {
          for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
            LaneForm f;
            const int lane = std::countr_zero(l);
            const std::uint64_t raw = source_value(t, lane);
            if (!form_of(in.srcs[t], lane, narrow_type, f, &raw)) return false;
          }
          return true;
        }, symbols);
        if (coef(t) == nullptr) {
          if (in.opcode == Opcode::mad) combine([&](std::size_t v, std::size_t lane) { return at(2, v, lane); });
          return true;
        }
      }
      combine([&](std::size_t v, std::size_t lane) {
        std::uint64_t factor = source_value(k, static_cast<int>(lane));
        std::uint64_t c = at(t, v, lane);
        if (in.mul_mode == MulMode::wide) {
          c = static_cast<std::uint64_t>(sign_extend(c, bits));
          factor = in.type.is_signed() ? static_cast<std::uint64_t>(sign_extend(factor, bits)) : truncate(factor, bits);
        }
        return c * factor + (in.opcode == Opcode::mad ? at(2, v, lane) : 0);
      });
      return true;
    }
    case Opcode::shl: {
      if (b != nullptr) return false;
      combine([&](std::size_t v, std::size_t lane) {
        const std::uint64_t k = truncate(source_value(1, static_cast<int>(lane)), 32);
        return k >= static_cast<std::uint64_t>(bits) ? 0 : at(0, v, lane) << k;
      });
      return true;
    }
    case Opcode::or_: case Opcode::xor_: {
      // nvcc joins bit fields with `or`: where no bit can be set on both sides anywhere in the box,
      // x | y = x ^ y = x + y. A side that does not vary sets exactly its own bits.
      if (in.srcs.size() != 2 || in.type.kind == TypeKind::pred) return false;
      const ScalarType type{TypeKind::u, in.type.bits};
      // Bits low .. top-1 set: what a value that is a multiple of 2^low and below 2^top may set.
      const auto bits_between = [](int low, int top) {
        const std::uint64_t below_top = top >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << top) - 1;
        return below_top & ~((std::uint64_t{1} << low) - 1);
      };
      const auto possible_bits = [&](std::size_t i, int lane, std::uint64_t& bits_out) {
        const std::uint64_t raw = source_value(i, lane);
        LaneForm f;
        if (!form_of(in.srcs[i], lane, type, f, &raw)) return false;
        if (f.lo == f.hi) {
          bits_out = static_cast<std::uint64_t>(f.c);
          return true;
        }
        // Terms in bits of their own (no carries between them): exactly the bits they span;
        // else from the lowest bit value and steps share to the top of the range.
        std::uint64_t terms = static_cast<std::uint64_t>(f.c), used = terms;
        bool separate = true;
        for (std::size_t v = 0; v < kMaxSymbols; ++v) {
          if (((symbolic_.live >> v) & 1) == 0 || f.b[v] == 0) continue;
          const auto step = static_cast<std::uint64_t>(f.b[v]);
          used |= step;
          if (!separate || f.b[v] < 0) {
            separate = false;
            continue;
          }
          const std::uint64_t term = bits_between(std::countr_zero(step), static_cast<int>(std::bit_width(step * static_cast<std::uint64_t>(symbolic_.symbols[v].count - 1))));
          separate = (terms & term) == 0;
          terms |= term;
        }
        bits_out = separate ? terms : bits_between(std::countr_zero(used), static_cast<int>(std::bit_width(static_cast<std::uint64_t>(f.hi))));
        return true;
      };
      const auto joins = [&] {
        for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
          const int lane = std::countr_zero(l);
          std::uint64_t x = 0, y = 0;
          if (!possible_bits(0, lane, x) || !possible_bits(1, lane, y) || (x & y) != 0) return false;
        }
        return true;
      };
      // A value that matters is worth a smaller box (until a shifted index stops wrapping, say);
      // another is poisoned instead, as before.
      if (relevant_[lanes_.frames.back().function][in.dsts[0].reg]) narrow_until(joins, symbols_of(in.srcs[0]) | symbols_of(in.srcs[1]));
      if (!joins()) return false;
      combine([&](std::size_t v, std::size_t lane) { return at(0, v, lane) + at(1, v, lane); });
      return true;
    }
    case Opcode::cvt: {
      const ScalarType from = in.src_type, to = in.type;
      if (from.is_float() || to.is_float() || from.kind == TypeKind::pred || in.text.find(".sat") != std::string::npos) return false;
      if (width(to) > width(from)) {
        narrow_until([&] {
          for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
            LaneForm f;
            const int lane = std::countr_zero(l);
            const std::uint64_t raw = source_value(0, lane);
            if (!form_of(in.srcs[0], lane, from, f, &raw)) return false;
          }
          return true;
        }, symbols_of(in.srcs[0]));
        combine([&](std::size_t v, std::size_t lane) { return static_cast<std::uint64_t>(sign_extend(at(0, v, lane), width(from))); });
      } else {
        combine([&](std::size_t v, std::size_t lane) { return at(0, v, lane); });
      }
      return true;
    }
    case Opcode::selp: {
      if (coef(2) != nullptr) return false;
      combine([&](std::size_t v, std::size_t lane) { return at(source_value(2, static_cast<int>(lane)) != 0 ? 0 : 1, v, lane); });
      return true;
    }
    case Opcode::min:
    case Opcode::max: {  // the comparison was made uniform before the instruction ran
      combine([&](std::size_t v, std::size_t lane) {
        const std::uint64_t x = source_value(0, static_cast<int>(lane)), y = source_value(1, static_cast<int>(lane));
        const bool less = in.type.is_signed() ? sign_extend(x, bits) < sign_extend(y, bits) : truncate(x, bits) < truncate(y, bits);
        return at((in.opcode == Opcode::min) == less ? 0 : 1, v, lane);
      });
      return true;
    }
    case Opcode::div: case Opcode::rem: case Opcode::shr: case Opcode::and_: {
      if (in.srcs.size() != 2 || (a != nullptr && b != nullptr)) return false;
      // x and the divisor (shift, mask); `and` takes its mask from either side.
      const std::size_t x_index = in.opcode == Opcode::and_ && a == nullptr ? 1 : 0;
      if ((x_index == 0 ? b : a) != nullptr) return false;
      const std::size_t k = 1 - x_index;
      // The divisor must be one known positive value in every lane.
      const std::uint64_t d0 = source_value(k, std::countr_zero(lanes == 0 ? 1u : lanes));
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        if (source_value(k, std::countr_zero(l)) != d0) return false;
      }
      std::uint64_t divisor = truncate(d0, bits);
      std::uint64_t period = 0;  // 0: the divisor
      Division part = in.opcode == Opcode::rem ? Division::remainder : Division::quotient;
      if (in.opcode == Opcode::shr) {
        if (divisor >= static_cast<std::uint64_t>(bits) || divisor > 62) return false;
        divisor = std::uint64_t{1} << divisor;
      } else if (in.opcode == Opcode::and_) {
        const std::uint64_t low = truncate(~divisor, bits);  // x & ~(2^k - 1) rounds down to a multiple of 2^k
        if (divisor != 0 && (divisor & (divisor + 1)) == 0 && divisor < (std::uint64_t{1} << 62)) {
          divisor += 1;  // x & (2^k - 1) is x mod 2^k
          part = Division::remainder;
        } else if (low != 0 && (low & (low + 1)) == 0 && low < (std::uint64_t{1} << 62)) {
          divisor = low + 1;
          part = Division::rounded_down;
        } else if (divisor != 0 && divisor < (std::uint64_t{1} << 61)) {
          period = std::uint64_t{1} << std::countr_zero(divisor);  // x & m is constant where x / 2^(its lowest bit) is
          const std::uint64_t run = divisor >> std::countr_zero(divisor);
          part = (run & (run + 1)) == 0 ? Division::field : Division::masked;
          divisor = std::bit_floor(divisor) << 1;  // any other mask reads only x mod 2^(its top bit + 1)
        } else {
          return false;
        }
      }
      if (divisor == 0 || divisor > (std::uint64_t{1} << 62)) return false;
      return propagate_division(in, x_index, lanes, divisor, period == 0 ? divisor : period, part, out);
    }
    default: return false;
  }
}

// x / d and x mod d of an affine x of one sign over the box (narrowed where it changes sign) are
// affine where every coefficient is a multiple of d (a residue cut of the symbols makes them so
// when the modulus is small), or where x stays within one multiple of d (then the quotient is
// constant; the box is narrowed to such stretches).
bool WarpEmulator::Impl::propagate_division(const DecodedInstruction& in, std::size_t x_index, std::uint32_t lanes,
                                            std::uint64_t divisor, std::uint64_t period, Division part, Coefficients& out) {
  const Arg& x = in.srcs[x_index];
  const ScalarType type = in.opcode == Opcode::and_ ? ScalarType{TypeKind::u, in.type.bits} : in.type;
  const auto d = static_cast<Wide>(divisor);
  const auto x_form = [&](int lane, LaneForm& f) {
    const std::uint64_t raw = source_value(x_index, lane);
    return form_of(x, lane, type, f, &raw);
  };
  // A signed shr rounds down (floor); div and rem round toward zero. Over a box where x keeps one
  // sign, both are affine where d divides every step and constant within one period.
  const bool floors = in.opcode == Opcode::shr && type.is_signed();
  const auto p = static_cast<Wide>(period);
  const auto period_of = [&](Wide v) { return floors && v < 0 ? -((-v + p - 1) / p) : v / p; };
  // x = A + B with B a multiple of d in every block (the symbols whose steps d divides) and A
  // (the rest) within one period: then B / d is the quotient's variation, A the remainder's.
  // With a dimension split into digits (reshape), a tile index i / 64 and i % 64 are so.
  // A bit field (x & 0b111000) moves with A where A stays within one period of d and its steps
  // keep the bits below the field: `step` divides them.
  const auto floor_div = [](Wide v, Wide by) { return v >= 0 ? v / by : -((-v + by - 1) / by); };
  const auto rest_within = [&](Wide period_length, Wide step) {
    for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
      LaneForm f;
      if (!x_form(std::countr_zero(l), f) || (!floors && f.lo < 0)) return false;
      Wide lo = f.c, hi = f.c;
      for (std::size_t v = 0; v < kMaxSymbols; ++v) {
        if (((symbolic_.live >> v) & 1) == 0 || f.b[v] % d == 0) continue;
        if (f.b[v] % step != 0) return false;
        const Wide span = f.b[v] * static_cast<Wide>(symbolic_.symbols[v].count - 1);
        (span < 0 ? lo : hi) += span;
      }
      if (floor_div(lo, period_length) != floor_div(hi, period_length)) return false;
    }
    return true;
  };
  bool one_period = false, mixed = false, field_moves = false;
  for (;;) {
    narrow_until([&] {
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        LaneForm f;
        if (!x_form(std::countr_zero(l), f) || (f.lo < 0 && f.hi >= 0)) return false;
      }
      return true;
    }, symbols_of(x));
    if (symbols_of(x) == 0) return true;  // fixed: the values are exact
    const Coefficients& c = *coefficients(lanes_.frames.back().register_base + x.reg);
    int cut = -1;
    std::int64_t modulus = 1, digit = 1;  // the residue cut's modulus (capped); a reshape's low digit
    for (int v = kMaxSymbols - 1; v >= 0 && cut < 0; --v) {
      if ((((c.symbols & symbolic_.live) >> v) & 1) == 0) continue;
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        const Wide b = static_cast<Wide>(sign_extend(c.lane[static_cast<std::size_t>(v)][static_cast<std::size_t>(std::countr_zero(l))], width(type)));
        const Wide rest = ((b % d) + d) % d;
        if (rest == 0) continue;
        const auto m = static_cast<std::int64_t>(d / static_cast<Wide>(gcd64(static_cast<std::int64_t>(rest), static_cast<std::int64_t>(divisor))));
        modulus = std::min(std::lcm(modulus, m), kLargestResidueCut + 1);
        digit = std::min(std::lcm(digit, m), symbolic_.symbols[static_cast<std::size_t>(v)].count + 1);
        cut = v;
      }
    }
    if (cut < 0) break;
    if (part == Division::field && rest_within(d, p)) {
      mixed = field_moves = true;
      break;
    }
    if (rest_within(p, 1)) {
      mixed = true;
      break;
    }
    // Split the block dimension into digits where the low digit alone passes the checks above
    // (the high one steps by multiples of d): a tile index over a grid of whole rows of tiles.
    if (Symbol& s = symbolic_.symbols[static_cast<std::size_t>(cut)]; !s.loop && s.step == 1 && s.restart_modulus == 0 &&
                                                               digit < s.count && s.count % digit == 0) {
      const std::int64_t all = s.count;
      s.count = digit;
      const bool splits = (part == Division::field && rest_within(d, p)) || rest_within(p, 1);
      s.count = all;
      if (splits && reshape(cut, digit)) continue;
    }
    if (modulus <= kLargestResidueCut) {
      residue_cut(cut, modulus);
      continue;
    }
    narrow_until([&] {
      for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
        LaneForm f;
        if (!x_form(std::countr_zero(l), f) || (f.lo < 0 && f.hi >= 0) || period_of(f.lo) != period_of(f.hi)) return false;
      }
      return true;
    }, symbols_of(x));
    one_period = true;
    break;
  }
  if (symbols_of(x) == 0) return true;
  const Coefficients& c = *coefficients(lanes_.frames.back().register_base + x.reg);
  for (std::size_t v = 0; v < kMaxSymbols; ++v) {
    if ((((c.symbols & symbolic_.live) >> v) & 1) == 0) continue;
    for (std::uint32_t l = lanes; l != 0; l &= l - 1) {
      const auto lane = static_cast<std::size_t>(std::countr_zero(l));
      const Wide b = static_cast<Wide>(sign_extend(c.lane[v][lane], width(type)));
      const bool rest = one_period || (mixed && b % d != 0);  // a step within the period
      const Wide q = rest ? 0 : b / d;  // x = q d + r: with q fixed, r moves with x
      switch (part) {
        case Division::quotient: out.lane[v][lane] = static_cast<std::uint64_t>(static_cast<std::int64_t>(q)); break;
        case Division::remainder: out.lane[v][lane] = rest ? c.lane[v][lane] : 0; break;
        case Division::rounded_down: out.lane[v][lane] = static_cast<std::uint64_t>(static_cast<std::int64_t>(q * d)); break;
        // x mod d is the same in every block, or (one period) every bit of x the mask reads is.
        case Division::masked: out.lane[v][lane] = 0; break;
        case Division::field: out.lane[v][lane] = rest && field_moves ? c.lane[v][lane] : 0; break;
      }
    }
  }
  return true;
}

}  // namespace warpsim::ptx

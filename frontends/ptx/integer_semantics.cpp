#include "warpsim/ptx/integer_semantics.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "warpsim/ptx/lane_arith.hpp"

namespace warpsim::ptx {

std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint8_t lut) {
  std::uint32_t d = 0;
  for (unsigned minterm = 0; minterm < 8; ++minterm) {
    if (((lut >> minterm) & 1) == 0) continue;
    d |= ((minterm & 4) ? a : ~a) & ((minterm & 2) ? b : ~b) & ((minterm & 1) ? c : ~c);
  }
  return d;
}

std::uint32_t funnel_shift(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool left, bool clamp) {
  const unsigned n = clamp ? std::min<std::uint32_t>(c, 32) : c & 31;
  const std::uint64_t pair = std::uint64_t{b} << 32 | a;
  return static_cast<std::uint32_t>(left ? (pair << n) >> 32 : pair >> n);
}

std::uint32_t permute_bytes(std::uint32_t a, std::uint32_t b, std::uint32_t c, PermuteMode mode) {
  // The source bytes of d.b0 .. d.b3 for selector c[1:0], per mode (PTX ISA, prmt).
  static constexpr std::uint8_t kModeBytes[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const std::uint64_t source = std::uint64_t{b} << 32 | a;
  std::uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    std::uint32_t byte = 0;
    if (mode == PermuteMode::generic) {
      const unsigned selector = (c >> (4 * i)) & 0xF;
      byte = static_cast<std::uint32_t>(source >> (8 * (selector & 7))) & 0xFF;
      if (selector & 8) byte = (byte & 0x80) ? 0xFF : 0;  // replicate the byte's sign
    } else {
      const unsigned from = kModeBytes[static_cast<int>(mode) - 1][c & 3][i];
      byte = static_cast<std::uint32_t>(source >> (8 * from)) & 0xFF;
    }
    d |= byte << (8 * i);
  }
  return d;
}

std::uint32_t mul24(std::uint64_t a, std::uint64_t b, bool is_signed, bool high) {
  const auto low24 = [&](std::uint64_t v) -> std::int64_t {
    const std::int64_t field = static_cast<std::int64_t>(v & 0xFFFFFF);
    return is_signed && (field & 0x800000) ? field - 0x1000000 : field;
  };
  const std::int64_t product = low24(a) * low24(b);  // at most 48 bits
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(product) >> (high ? 16 : 0));
}

bool compare_integers(Compare c, std::uint64_t a, std::uint64_t b, ScalarType t) {
  const int bits = width(t);
  return t.is_signed() ? compare_ordered(c, sign_extend(a, bits), sign_extend(b, bits))
                       : compare_ordered(c, truncate(a, bits), truncate(b, bits));
}

std::uint32_t compare_integer_lanes(Compare c, const std::uint64_t* a, const std::uint64_t* b, ScalarType t) {
  std::uint32_t out = 0;
  for (unsigned l = 0; l < 32; ++l) out |= static_cast<std::uint32_t>(compare_integers(c, a[l], b[l], t)) << l;
  return out;
}

bool combine_predicates(BoolOp op, bool a, bool c) {
  switch (op) {
    case BoolOp::and_: return a && c;
    case BoolOp::or_: return a || c;
    case BoolOp::xor_: return a != c;
    case BoolOp::none: return a;
  }
  return a;
}

// Integer result of a two- or three-operand arithmetic instruction; false when undefined.
bool integer_result(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& r) {
  const ScalarType t = in.type;
  const int bits = width(t);
  const bool s = t.is_signed();
  const auto product = [&](MulMode mode) -> std::uint64_t {
    if (mode == MulMode::lo) return a * b;
    const Wide x = s ? static_cast<Wide>(sign_extend(a, bits)) : static_cast<Wide>(truncate(a, bits));
    const Wide y = s ? static_cast<Wide>(sign_extend(b, bits)) : static_cast<Wide>(truncate(b, bits));
    const Wide p = x * y;
    return mode == MulMode::wide ? static_cast<std::uint64_t>(p) : static_cast<std::uint64_t>(p >> bits);
  };
  switch (in.opcode) {
    case Opcode::mov: r = a; return true;
    case Opcode::add: r = a + b; return true;
    case Opcode::sub: r = a - b; return true;
    case Opcode::mul: r = product(in.mul_mode); return true;
    case Opcode::mad: r = product(in.mul_mode) + c; return true;
    case Opcode::mul24: r = mul24(a, b, s, in.mul_mode == MulMode::hi); return true;
    case Opcode::mad24: r = mul24(a, b, s, in.mul_mode == MulMode::hi) + c; return true;
    case Opcode::div:
    case Opcode::rem:
      if (truncate(b, bits) == 0) return false;
      if (s) {
        const std::int64_t x = sign_extend(a, bits), y = sign_extend(b, bits);
        if (y == -1 && x == std::numeric_limits<std::int64_t>::min()) return false;
        r = static_cast<std::uint64_t>(in.opcode == Opcode::div ? x / y : x % y);
      } else {
        const std::uint64_t x = truncate(a, bits), y = truncate(b, bits);
        r = in.opcode == Opcode::div ? x / y : x % y;
      }
      return true;
    case Opcode::abs: r = sign_extend(a, bits) < 0 ? ~a + 1 : a; return true;  // abs(INT_MIN) wraps to INT_MIN
    case Opcode::neg: r = ~a + 1; return true;
    case Opcode::min:
    case Opcode::max: {
      const bool less = s ? sign_extend(a, bits) < sign_extend(b, bits) : truncate(a, bits) < truncate(b, bits);
      r = (in.opcode == Opcode::min) == less ? a : b;
      return true;
    }
    case Opcode::and_: r = a & b; return true;
    case Opcode::or_: r = a | b; return true;
    case Opcode::xor_: r = a ^ b; return true;
    case Opcode::not_: r = t.kind == TypeKind::pred ? !a : ~a; return true;
    case Opcode::cnot: r = truncate(a, bits) == 0 ? 1 : 0; return true;
    case Opcode::shl: r = truncate(b, 32) >= static_cast<std::uint64_t>(bits) ? 0 : a << truncate(b, 32); return true;
    case Opcode::shr: {
      const std::uint64_t n = std::min<std::uint64_t>(truncate(b, 32), static_cast<std::uint64_t>(bits));
      if (s) {
        r = static_cast<std::uint64_t>(sign_extend(a, bits) >> std::min<std::uint64_t>(n, 63));
      } else {
        r = n >= static_cast<std::uint64_t>(bits) ? 0 : truncate(a, bits) >> n;
      }
      return true;
    }
    case Opcode::popc: r = static_cast<std::uint64_t>(std::popcount(truncate(a, bits))); return true;
    case Opcode::clz: r = static_cast<std::uint64_t>(std::countl_zero(truncate(a, bits)) - (64 - bits)); return true;
    case Opcode::bfind: {  // the most significant non-sign bit, 0xFFFFFFFF when there is none
      std::uint64_t v = truncate(a, bits);
      if (s && sign_extend(a, bits) < 0) v = truncate(~a, bits);
      r = v == 0 ? 0xFFFFFFFFu : static_cast<std::uint64_t>(63 - std::countl_zero(v));
      return true;
    }
    case Opcode::brev: {
      std::uint64_t v = truncate(a, bits), out = 0;
      for (int i = 0; i < bits; ++i) out |= ((v >> i) & 1) << (bits - 1 - i);
      r = out;
      return true;
    }
    case Opcode::bfe: {
      const std::uint64_t pos = b & 0xFF, len = c & 0xFF;
      if (len == 0) { r = 0; return true; }
      const std::uint64_t v = pos >= static_cast<std::uint64_t>(bits) ? 0 : truncate(a, bits) >> pos;
      const std::uint64_t field = len >= 64 ? v : v & ((std::uint64_t{1} << len) - 1);
      r = s && len < 64 && ((field >> (len - 1)) & 1) ? field | ~((std::uint64_t{1} << len) - 1) : field;
      return true;
    }
    case Opcode::lop3:  // the truth table is an immediate
      if (in.srcs.size() < 4 || in.srcs[3].kind != Arg::Kind::imm) return false;
      r = lop3(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(c),
               static_cast<std::uint8_t>(in.srcs[3].imm));
      return true;
    case Opcode::shf:
      r = funnel_shift(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(c),
                       in.shift_left, in.shift_clamp);
      return true;
    case Opcode::prmt:
      r = permute_bytes(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(c),
                        in.permute_mode);
      return true;
    case Opcode::sad: {
      const bool less = s ? sign_extend(a, bits) < sign_extend(b, bits) : truncate(a, bits) < truncate(b, bits);
      r = (less ? b - a : a - b) + c;
      return true;
    }
    default: return false;
  }
}

}  // namespace warpsim::ptx

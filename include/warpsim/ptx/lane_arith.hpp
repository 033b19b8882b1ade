// Integer helpers shared by the warp emulator's concrete and symbolic parts: lane values are
// kept in 64 bits, truncated to their register's width.
#pragma once

#include <cstdint>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

__extension__ typedef __int128 Wide;  // GCC/Clang 128-bit integer, for mul.hi, mul.wide and ranges

inline std::uint64_t truncate(std::uint64_t v, int bits) { return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }

inline std::int64_t sign_extend(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  return static_cast<std::int64_t>((truncate(v, bits) ^ sign) - sign);
}

inline int width(ScalarType t) { return t.bits == 0 ? 64 : t.bits; }

// An ordered or equality comparison of two integers (the unsigned forms lo/ls/hi/hs on values
// already read as unsigned); false for the float-only comparisons.
template <typename T>
bool compare_ordered(Compare c, T x, T y) {
  switch (c) {
    case Compare::eq: return x == y;
    case Compare::ne: return x != y;
    case Compare::lt: case Compare::lo: return x < y;
    case Compare::le: case Compare::ls: return x <= y;
    case Compare::gt: case Compare::hi: return x > y;
    case Compare::ge: case Compare::hs: return x >= y;
    default: return false;
  }
}

// The emulated generic address space: a window per state space (kernel_ir.hpp).
inline std::uint64_t window_base(StateSpace space) {
  switch (space) {
    case StateSpace::shared: return kSharedWindow;
    case StateSpace::local: return kLocalWindow;
    case StateSpace::constant: return kConstWindow;
    case StateSpace::param: return kParamWindow;
    default: return 0;
  }
}

inline StateSpace space_of_generic(std::uint64_t address) {
  if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) return StateSpace::shared;
  if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) return StateSpace::local;
  if (address >= kConstWindow && address < kConstWindow + kWindowSize) return StateSpace::constant;
  if (address >= kParamWindow && address < kParamWindow + kWindowSize) return StateSpace::param;
  return StateSpace::global;
}

}  // namespace warpsim::ptx

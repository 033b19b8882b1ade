#include "warpsim/ptx/integer_semantics.hpp"

#include <algorithm>

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

}  // namespace warpsim::ptx

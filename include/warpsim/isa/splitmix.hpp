// splitmix64's finaliser (Steele, Lea and Flood, 2014): a 64-bit key to a well-mixed 64-bit value.
// The one hash for deterministic pseudo-random choices made from a key: stated input contents,
// which sampled block stands in for another, which run pattern an SM gets.
#pragma once

#include <cstdint>

namespace warpsim::isa {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace warpsim::isa

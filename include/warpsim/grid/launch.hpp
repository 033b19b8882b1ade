// A kernel launch (N_b blocks of N_t threads), its validation against a GPU, and the paper's
// launch heuristic N_bt* (Algorithm 3 with the rounding of MODEL.md section 4).
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "warpsim/gpus/profile.hpp"

namespace warpsim::sim::grid {

inline constexpr std::int64_t kMaxBlocks = (std::int64_t{1} << 31) - 1;

// ceil(a / b) for a >= 0 and b >= 1. The divisors of Algorithms 1 and 3 are mostly powers of two
// (the warp size, core packages per SM, threads per block): those take a shift, several times
// faster than a division, which a sweep pays at every point.
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  if ((b & (b - 1)) == 0) {
    const int shift = std::countr_zero(static_cast<std::uint64_t>(b));
    return (a >> shift) + ((a & (b - 1)) != 0 ? 1 : 0);
  }
  return a / b + (a % b != 0 ? 1 : 0);
}

struct Launch {
  std::int64_t blocks = 0;             // N_b
  std::int64_t threads_per_block = 0;  // N_t
  // Blocks per SM that registers and shared memory allow (sim/occupancy); 0: no such limit (the
  // paper's model counts warps and blocks only).
  std::int64_t resident_blocks_limit = 0;
  // N_cp, which the timing model decides (workload::ModelSpec); 0: the profile's cores_per_sm / 32.
  std::int64_t core_packages_per_sm = 0;

  bool operator==(const Launch&) const = default;
};

// Throws InputError when the launch cannot run on the GPU: zero or negative sizes, more than
// 2^31-1 blocks, a block above max_threads_per_block or needing more warps than an SM holds.
void validate_launch(const gpus::Profile& gpu, const Launch& launch);

// Which of Algorithm 3's four rules applies to `total_threads` (>= 1) threads.
int heuristic_rule(const gpus::Profile& gpu, std::int64_t total_threads);

// Algorithm 3 for `total_threads` threads. Throws InputError for fewer than one thread or a
// result above 2^31-1 blocks.
Launch suggest_launch(const gpus::Profile& gpu, std::int64_t total_threads);

// A grid or block shape.
struct Dimensions {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
};

// "B", "X,Y" or "X,Y,Z" (positive whole numbers). Throws InputError naming `what`, also when
// the product overflows.
Dimensions parse_dimension_list(const std::string& text, const std::string& what);

// The product of parse_dimension_list's factors.
std::int64_t parse_dimensions(const std::string& text, const std::string& what);

}  // namespace warpsim::sim::grid

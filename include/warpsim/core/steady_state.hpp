// Steady-state fast-forward: inside a long loop the round-robin schedule becomes periodic after a
// few iterations (every warp's state relative to the clock repeats). The detector compares the
// state at each round start with the last few; when one period repeats, the package jumps over as
// many periods as the loop counters allow. Exact because time is integer: "the state repeats" is
// an equality, and the jump gives the same state the full simulation reaches.
#pragma once

#include <array>
#include <cstdint>

#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::core {

class SteadyStateDetector {
 public:
  // Call at the start of every round. Returns the periods skipped (0 when none).
  std::int64_t at_round_start(CorePackage& package);

 private:
  static constexpr std::size_t kHistory = 8;  // periods of up to 8 rounds are found
  std::array<PackageSnapshot, kHistory + 1> ring_;
  std::size_t stored_ = 0;  // valid snapshots before `next_`
  std::size_t next_ = 0;
};

}  // namespace warpsim::sim::core

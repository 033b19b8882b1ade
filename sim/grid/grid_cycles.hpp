// Totals of Algorithm 1 in exact 128-bit millicycles, and T_k from them (grid.cpp, mixed_grid.cpp).
#pragma once

#include <cstdint>

#include "warpsim/grid/grid.hpp"

namespace warpsim::sim::grid {

__extension__ typedef __int128 Wide;  // GCC/Clang 128-bit integer, for exact products

// Millicycles to cycles. A total within 64 bits (always, in practice) converts without the
// library call that a 128-bit conversion needs; the result is the same double.
inline double to_cycles(Wide millicycles) {
  const bool narrow = millicycles <= INT64_MAX && millicycles >= INT64_MIN;
  const double value = narrow ? static_cast<double>(static_cast<std::int64_t>(millicycles)) : static_cast<double>(millicycles);
  return value / static_cast<double>(isa::kMillicyclesPerCycle);
}

// T_k = t_p + cycles / F, once the cycles are known.
inline void set_time(const gpus::Profile& gpu, double tp_us, GridTiming& timing) {
  timing.tp_us = tp_us;
  timing.time_us = tp_us + timing.cycles / gpu.clock_mhz;
}

}  // namespace warpsim::sim::grid

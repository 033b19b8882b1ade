// Exact simulation time: an integer count of thousandths of a cycle. Durations in files have at
// most three decimals, so every time is exact, and equal schedule states compare equal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace warpsim::isa {

using Millicycles = std::int64_t;

inline constexpr Millicycles kMillicyclesPerCycle = 1000;
// A sanity bound on one duration or t_m (10^9 cycles): keeps every sum far from int64 overflow.
inline constexpr Millicycles kMaxDuration = Millicycles{1'000'000'000} * kMillicyclesPerCycle;

// Parses a non-negative decimal number of cycles with at most three decimals ("35", "1.1",
// "0.125") exactly. Throws std::invalid_argument with the reason when the text is not one.
Millicycles parse_cycles(std::string_view text);

// Converts a number of cycles read as floating point (TOML, JSON) to millicycles. Rejects NaN,
// infinities, negatives, values above kMaxDuration and more than three decimals.
Millicycles cycles_from_double(double cycles);

// Shortest exact decimal text: 112000 -> "112", 1100 -> "1.1", 125 -> "0.125".
std::string format_cycles(Millicycles time);

inline double to_cycles(Millicycles time) {
  return static_cast<double>(time) / static_cast<double>(kMillicyclesPerCycle);
}

}  // namespace warpsim::isa

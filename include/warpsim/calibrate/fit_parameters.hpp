// What a calibration fits (`--fit tm,tp,d1,d3`) and within which bounds (`--bounds tm=0:100`).
// Units: t_p in microseconds; t_m and the durations d1, d2, ... in cycles.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sim::calibrate {

enum class ParameterKind { tp, tm, duration };

struct FitParameter {
  ParameterKind kind = ParameterKind::tm;
  std::size_t duration = 0;  // kind duration: 0 for d1, 1 for d2, ...
  double lower = 0;
  double upper = 0;

  std::string name() const;         // "tp", "tm", "d1", ...
  const char* unit() const;         // "us" or "cycles"
};

// Default bounds: t_p in [0, the smallest measured time] (a larger t_p alone would exceed that
// measurement), t_m in [0, 10^4] cycles, durations in [1, 10^5] cycles.
inline constexpr double kMaxFittedTm = 1e4;
inline constexpr double kMinFittedDuration = 1;
inline constexpr double kMaxFittedDuration = 1e5;

// "tm,tp,d1,d3" in the order given, with the default bounds (`tp_upper_us`: the smallest
// measured time). `duration_count` is how many memory instructions (d1 .. dn) the workload has.
// Throws InputError (naming --fit) for an empty list or entry, an unknown name, a repeated one,
// or a duration the workload does not have.
std::vector<FitParameter> parse_fit_list(std::string_view list, std::size_t duration_count, double tp_upper_us);

// "tm=0:100,d1=10:200": replaces the bounds of fitted parameters. Throws InputError (naming
// --bounds) for a parameter that is not fitted, a malformed entry or number, lower >= upper,
// a negative bound, a duration bound below 0.001 cycles or any bound above 10^9 cycles.
void apply_bounds(std::vector<FitParameter>& parameters, std::string_view text);

// Whether the list holds a parameter of this kind (and, for durations, this index).
bool fits(const std::vector<FitParameter>& parameters, ParameterKind kind, std::size_t duration = 0);

// "tm, tp, d1"
std::string describe(const std::vector<FitParameter>& parameters);

}  // namespace warpsim::sim::calibrate

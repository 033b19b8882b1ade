#include "warpsim/report/number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace warpsim::sim::report {

std::string shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

nlohmann::json number_json(double value) {
  if (std::nearbyint(value) == value && std::abs(value) < 9e15) return static_cast<std::int64_t>(value);
  return value;
}

nlohmann::json cycles_json(isa::Millicycles time) {
  if (time % isa::kMillicyclesPerCycle == 0) return time / isa::kMillicyclesPerCycle;
  return isa::to_cycles(time);
}

}  // namespace warpsim::sim::report

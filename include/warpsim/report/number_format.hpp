// Number text: full precision for machine-readable output, rounding only for text tables.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpsim/isa/time.hpp"

namespace warpsim::sim::report {

// Shortest text that reads back as the same double ("112", "0.1", "1.2345678901234567").
std::string shortest(double value);
// Fixed decimals for people ("112.000").
std::string fixed(double value, int decimals);
// A JSON number that prints as an integer when the value is whole ("1200", not "1200.0").
nlohmann::json number_json(double value);
// Cycles as a JSON number: an integer when whole, else the exact decimal as a double.
nlohmann::json cycles_json(isa::Millicycles time);

}  // namespace warpsim::sim::report

// Whole numbers and .kp loop counts from text (--param NAME=VALUE, --warps N, ...): one reading
// for the CLI and the facade, with one message.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "warpsim/isa/program.hpp"

namespace warpsim::isa {

// A non-negative decimal whole number; throws InputError "WHAT 'TEXT': expected a non-negative
// whole number".
std::int64_t parse_count(const std::string& text, const std::string& what);

// NAME=VALUE pairs as .kp `repeat NAME` counts; throws InputError for a bad value or a name
// given twice.
ParameterValues parse_parameter_values(const std::vector<std::pair<std::string, std::string>>& pairs);

}  // namespace warpsim::isa

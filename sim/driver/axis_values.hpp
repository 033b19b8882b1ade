// Reading one axis of a suite: [a, b, c] | { from, to, step } | { powers_of, from, to }.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpus/toml_reader.hpp"

namespace warpsim::sim::driver {

// Throws InputError at the node for bad shapes, unknown keys, empty or descending ranges,
// overflow and more than kMaxAxisValues values.
std::vector<std::int64_t> read_axis_values(const gpus::TomlReader& toml, const toml::node& node, const std::string& axis);

}  // namespace warpsim::sim::driver

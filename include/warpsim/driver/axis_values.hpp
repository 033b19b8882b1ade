// Reading the axes of a suite: one axis is [a, b, c] | { from, to, step } | { powers_of, from, to };
// a table of axes may hold one group `zip = { N = [..], T = [..] }` whose axes advance together.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpsim/gpus/toml_reader.hpp"

namespace warpsim::sim::driver {

// Throws InputError at the node for bad shapes, unknown keys, empty or descending ranges,
// overflow and more than kMaxAxisValues values.
std::vector<std::int64_t> read_axis_values(const gpus::TomlReader& toml, const toml::node& node, const std::string& axis);

// [axes], or a workload's axes = { ... }.
struct AxisTable {
  struct Values {
    std::vector<std::int64_t> values;
    const toml::node* node;  // for errors
  };
  std::map<std::string, Values> axes;  // zipped ones too
  std::vector<std::string> zip;        // the axes of `zip`, which advance together; empty when none

  bool zipped(const std::string& name) const;
};

// Throws InputError at the node for a bad axis, an axis given twice, or zipped lists whose
// lengths differ.
AxisTable read_axis_table(const gpus::TomlReader& toml, const toml::node& node, const std::string& what);

}  // namespace warpsim::sim::driver

#include "warpsim/driver/axis_values.hpp"

#include <algorithm>
#include <optional>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/suite.hpp"

namespace warpsim::sim::driver {

// powers_of^from .. powers_of^to, or from .. to by step.
std::vector<std::int64_t> read_axis_values(const gpus::TomlReader& toml, const toml::node& node, const std::string& axis) {
  std::vector<std::int64_t> values;
  if (node.is_array()) {
    for (const toml::node& entry : toml.non_empty_list(node, axis)) values.push_back(toml.whole_number(entry, axis + " values"));
    return values;
  }
  const toml::table& table =
      toml.table(node, axis + " must be a list or a table { from, to, step } or { powers_of, from, to }");
  std::optional<std::int64_t> from, to, step, base;
  for (const auto& [key, value] : table) {
    const std::string name = axis + "." + std::string(key.str());
    if (key == "from") from = toml.whole_number(value, name);
    else if (key == "to") to = toml.whole_number(value, name);
    else if (key == "step") step = toml.whole_number(value, name);
    else if (key == "powers_of") base = toml.whole_number(value, name);
    else toml.fail(&value, "unknown key " + quote_for_message(key.str()) + " in axis " + axis +
                          " (expected from, to, step or powers_of)");
  }
  if (!from || !to) toml.fail(&node, "axis " + axis + " needs both 'from' and 'to'");
  if (*to < *from) toml.fail(&node, "axis " + axis + ": 'to' is below 'from'");
  if (base) {
    if (step) toml.fail(&node, "axis " + axis + ": 'step' and 'powers_of' do not mix");
    if (*base < 2 || *from < 0) toml.fail(&node, "axis " + axis + ": needs powers_of >= 2 and from >= 0");
    for (std::int64_t exponent = *from; exponent <= *to; ++exponent) {
      std::int64_t value = 1;
      for (std::int64_t i = 0; i < exponent; ++i) {
        if (__builtin_mul_overflow(value, *base, &value)) toml.fail(&node, "axis " + axis + ": values overflow 64 bits");
      }
      values.push_back(value);
    }
    return values;
  }
  const std::int64_t stride = step.value_or(1);
  if (stride < 1) toml.fail(&node, "axis " + axis + ": step must be positive");
  if ((*to - *from) / stride >= kMaxAxisValues) toml.fail(&node, "axis " + axis + " has more than 10^6 values");
  for (std::int64_t value = *from; value <= *to; value += stride) {
    values.push_back(value);
    if (*to - value < stride) break;  // no overflow past `to`
  }
  return values;
}

bool AxisTable::zipped(const std::string& name) const { return std::find(zip.begin(), zip.end(), name) != zip.end(); }

AxisTable read_axis_table(const gpus::TomlReader& toml, const toml::node& node, const std::string& what) {
  AxisTable table;
  const auto add = [&](const std::string& name, const toml::node& values) {
    if (table.axes.contains(name)) toml.fail(&values, "axis " + quote_for_message(name) + " is given twice in " + what);
    table.axes[name] = {read_axis_values(toml, values, name), &values};
  };
  for (const auto& [key, values] : toml.table(node, what + " must be a table")) {
    if (key != "zip") continue;
    for (const auto& [member, member_values] : toml.table(values, "zip must be a table { AXIS = VALUES, ... }")) {
      const std::string name(member.str());
      add(name, member_values);
      const std::size_t size = table.axes[name].values.size();
      if (!table.zip.empty() && size != table.axes[table.zip[0]].values.size()) {
        toml.fail(&member_values, "zip: axis " + quote_for_message(name) + " has " + std::to_string(size) + " values and " +
                                      quote_for_message(table.zip[0]) + " has " +
                                      std::to_string(table.axes[table.zip[0]].values.size()) + ": zipped axes advance together");
      }
      table.zip.push_back(name);
    }
  }
  for (const auto& [key, values] : toml.table(node, what + " must be a table")) {
    if (key != "zip") add(std::string(key.str()), values);
  }
  return table;
}

}  // namespace warpsim::sim::driver

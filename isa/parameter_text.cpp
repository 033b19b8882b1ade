#include "warpsim/isa/parameter_text.hpp"

#include <charconv>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::isa {

std::int64_t parse_count(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || value < 0) {
    throw InputError(what + " " + quote_for_message(text) + ": expected a non-negative whole number");
  }
  return value;
}

ParameterValues parse_parameter_values(const std::vector<std::pair<std::string, std::string>>& pairs) {
  ParameterValues values;
  for (const auto& [name, text] : pairs) {
    if (!values.emplace(name, parse_count(text, "--param " + name)).second) throw InputError("--param " + name + " given twice");
  }
  return values;
}

}  // namespace warpsim::isa

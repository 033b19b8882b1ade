#include "warpsim/isa/text_list.hpp"

#include "warpsim/isa/input_error.hpp"

namespace warpsim {

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t comma; (comma = text.find(',', start)) != std::string_view::npos; start = comma + 1) {
    parts.emplace_back(text.substr(start, comma - start));
  }
  parts.emplace_back(text.substr(start));
  return parts;
}

std::vector<std::string> split_names(std::string_view text, const std::string& what) {
  std::vector<std::string> names = split_commas(text);
  for (const std::string& name : names) {
    if (name.empty()) throw InputError(what + " " + quote_for_message(text) + ": an empty name");
  }
  return names;
}

}  // namespace warpsim

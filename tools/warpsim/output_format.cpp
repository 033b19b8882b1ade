// choose_format: one rule for every command's --format and -o.
#include "output_format.hpp"

#include "warpsim/warpsim.hpp"

namespace warpsim::cli {

std::string choose_format(const std::optional<std::string>& format, const std::string& out, const FormatRule& rule) {
  std::string name = rule.fallback;
  if (format) {
    name = *format;
  } else if (!out.empty() && out != "-") {
    bool matched = false;
    std::string extensions;
    for (const auto& [extension, format_name] : rule.by_extension) {
      extensions += (extensions.empty() ? "" : " or ") + extension;
      if (!matched && out.ends_with(extension)) {
        name = format_name;
        matched = true;
      }
    }
    if (!matched && rule.extension_required) {
      throw InputError("--out " + out + ": name a " + extensions + " file, or give --format");
    }
  }
  std::string list;
  bool known = false;
  for (const std::string& a : rule.allowed) {
    known = known || a == name;
    list += (list.empty() ? "" : "|") + a;
  }
  if (!known) throw InputError("--format " + quote_for_message(name) + ": expected " + list);
  return name;
}

}  // namespace warpsim::cli

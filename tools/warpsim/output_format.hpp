// The output format of a command: one rule for every command's --format and -o.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::cli {

// --format when given; else from the -o file's extension (`by_extension`: {".csv", "csv"}, ...);
// else `fallback`, or with `extension_required` an error for an -o file of another extension.
// Checked against `allowed`. Throws Error otherwise.
struct FormatRule {
  std::vector<std::pair<std::string, std::string>> by_extension;
  std::string fallback;
  std::vector<std::string> allowed;
  bool extension_required = false;
};
std::string choose_format(const std::optional<std::string>& format, const std::string& out, const FormatRule& rule);

}  // namespace warpsim::cli

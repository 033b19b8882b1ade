#include "warpsim/ptx/line_markers.hpp"

#include <set>
#include <variant>

namespace warpsim::ptx {
namespace {

std::string_view trimmed(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos ? std::string_view() : line.substr(first);
}

bool is_directive(std::string_view line, std::string_view name) {
  const std::string_view t = trimmed(line);
  return t.starts_with(name) && (t.size() == name.size() || t[name.size()] == ' ' || t[name.size()] == '\t');
}

}  // namespace

std::string with_line_markers(std::string_view text, const Module& module) {
  std::set<int> starts;
  for (const Function& function : module.functions) {
    for (const Statement& statement : function.body) {
      if (const auto* instruction = std::get_if<Instruction>(&statement)) starts.insert(instruction->pos.line);
    }
  }
  std::string out;
  out.reserve(text.size() + starts.size() * 16);
  bool file_declared = false;
  int number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    ++number;
    if (starts.contains(number)) out.append("\t.loc 1 ").append(std::to_string(number)).append(" 0\n");
    // nvcc's markers name CUDA lines; ptxas would mix them with these (the explain view keeps them
    // from the original PTX).
    if (!is_directive(line, ".loc") && !is_directive(line, ".file")) out.append(line);
    out.push_back('\n');
    // The header's last directive; a .file must follow .version, .target and .address_size.
    if (!file_declared && (is_directive(line, ".address_size"))) {
      out.append(".file 1 \"").append(kMarkedFileName).append("\"\n");
      file_declared = true;
    }
  }
  if (!file_declared) {  // no .address_size: after .target
    const std::size_t target = out.find(".target");
    const std::size_t eol = target == std::string::npos ? std::string::npos : out.find('\n', target);
    if (eol != std::string::npos) out.insert(eol + 1, ".file 1 \"" + std::string(kMarkedFileName) + "\"\n");
  }
  return out;
}

}  // namespace warpsim::ptx

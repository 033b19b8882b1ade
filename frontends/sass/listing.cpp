// Listing and Function helpers: lookup by name, and where ptxas's padding starts.
#include "warpsim/sass/listing.hpp"

namespace warpsim::sass {

const Function* Listing::find(std::string_view name) const {
  for (const Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// ptxas ends a function with `BRA` to its own label (a trap for a fall-through) and NOPs up to
// the section's alignment.
std::size_t Function::padding_start() const {
  std::size_t start = code.size();
  while (start > 0 && code[start - 1].opcode == "NOP" && code[start - 1].predicate.empty()) --start;
  if (start == 0) return code.size();
  const Instruction& last = code[start - 1];
  if (last.opcode != "BRA" || !last.predicate.empty()) return code.size();
  const std::size_t open = last.operands.find("`(");
  const std::size_t close = last.operands.find(')', open);
  if (open == std::string::npos || close == std::string::npos) return code.size();
  const auto label = labels.find(last.operands.substr(open + 2, close - open - 2));
  return label != labels.end() && label->second == start - 1 ? start - 1 : code.size();
}

}  // namespace warpsim::sass

#include "warpsim/ptx/kernel_resources.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/lowering.hpp"

namespace warpsim::ptx {
namespace {

void collect_names(const Operand& operand, std::set<std::string>& names) {
  if ((operand.kind == Operand::Kind::name || operand.kind == Operand::Kind::address) && !operand.text.empty()) {
    names.insert(operand.text);
  }
  for (const Operand& element : operand.elements) collect_names(element, names);
}

bool is_static_shared(const Declaration& d) {
  return d.space == StateSpace::shared && std::find(d.array_dims.begin(), d.array_dims.end(), 0) == d.array_dims.end();
}

void add_at_alignment(std::int64_t& bytes, const Declaration& d) {
  const std::int64_t align = std::max<std::int64_t>(d.alignment, 1);
  bytes = (bytes + align - 1) / align * align + declaration_bytes(d);
}

}  // namespace

std::int64_t static_shared_bytes(const Module& module, const std::string& kernel) {
  std::unordered_map<std::string, std::uint32_t> functions;
  for (std::uint32_t i = 0; i < module.functions.size(); ++i) {
    if (module.functions[i].has_body || !functions.contains(module.functions[i].name)) functions[module.functions[i].name] = i;
  }
  // The entry and every function it reaches: the names their instructions use.
  std::set<std::string> names;
  std::vector<std::uint32_t> pending = {select_kernel(module, kernel)};
  std::set<std::uint32_t> visited;
  std::int64_t bytes = 0;
  while (!pending.empty()) {
    const std::uint32_t index = pending.back();
    pending.pop_back();
    if (!visited.insert(index).second) continue;
    const Function& f = module.functions[index];
    for (const Declaration& d : f.locals) {
      if (is_static_shared(d)) add_at_alignment(bytes, d);
    }
    std::set<std::string> used;
    for (const Statement& s : f.body) {
      if (const auto* instruction = std::get_if<Instruction>(&s)) {
        for (const Operand& operand : instruction->operands) collect_names(operand, used);
      }
    }
    for (const std::string& name : used) {
      if (const auto it = functions.find(name); it != functions.end()) pending.push_back(it->second);
    }
    names.insert(used.begin(), used.end());
  }
  for (const Declaration& d : module.globals) {
    if (is_static_shared(d) && names.contains(d.name)) add_at_alignment(bytes, d);
  }
  return bytes;
}

}  // namespace warpsim::ptx

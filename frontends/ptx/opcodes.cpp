#include "warpsim/ptx/opcodes.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_map>

namespace warpsim::ptx {
namespace {

const std::unordered_map<std::string_view, OpcodeInfo>& opcode_rows() {
  static const std::unordered_map<std::string_view, OpcodeInfo> rows = [] {
    std::unordered_map<std::string_view, OpcodeInfo> by_name;
#define WARPSIM_OPCODE(enumerator, name, operands, cls, pipes) \
  by_name.emplace(name, OpcodeInfo{name, Opcode::enumerator, operands, OpcodeClass::cls, PipeRule::pipes});
#define WARPSIM_OPCODE_ALIAS(name, enumerator, operands, cls, pipes) \
  by_name.emplace(name, OpcodeInfo{name, Opcode::enumerator, operands, OpcodeClass::cls, PipeRule::pipes});
#include "warpsim/ptx/opcodes.def"
    return by_name;
  }();
  return rows;
}

struct Form {
  std::string_view name;
  std::string_view modifier;
};

constexpr Form kUnmodelledForms[] = {
#define WARPSIM_OPCODE(enumerator, name, operands, cls, pipes)
#define WARPSIM_OPCODE_FORM(name, modifier) Form{name, modifier},
#include "warpsim/ptx/opcodes.def"
};

constexpr std::string_view kUnmodelledModifiers[] = {
#define WARPSIM_OPCODE(enumerator, name, operands, cls, pipes)
#define WARPSIM_UNMODELLED_MODIFIER(modifier) modifier,
#include "warpsim/ptx/opcodes.def"
};

}  // namespace

const OpcodeInfo* find_opcode(std::string_view name) {
  const auto it = opcode_rows().find(name);
  return it == opcode_rows().end() ? nullptr : &it->second;
}

bool is_unmodelled_form(std::string_view name, std::string_view modifier) {
  return std::any_of(std::begin(kUnmodelledForms), std::end(kUnmodelledForms),
                     [&](const Form& f) { return f.name == name && f.modifier == modifier; });
}

bool is_unmodelled_modifier(std::string_view modifier) {
  return std::find(std::begin(kUnmodelledModifiers), std::end(kUnmodelledModifiers), modifier) !=
         std::end(kUnmodelledModifiers);
}

}  // namespace warpsim::ptx

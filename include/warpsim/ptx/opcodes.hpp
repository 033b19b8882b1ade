// The opcode table (opcodes.def) as lookups: what the decoder, the emulator and the assumptions
// report ask about an opcode. Nothing else lists opcodes.
#pragma once

#include <cstdint>
#include <string_view>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// How warpsim treats an opcode (opcodes.def explains each class).
enum class OpcodeClass : std::uint8_t { emulated, plain, unmodelled, memory, control, barrier, warp };

// Which execution pipes an opcode's SASS runs on (opcodes.def explains each rule; pipe_use()
// in pipe_classes.hpp applies it).
enum class PipeRule : std::uint8_t { by_type, imul, integer, bits, conv, sfu, divide, shfl, mma, memory, control, barrier, plain };

struct OpcodeInfo {
  std::string_view name;  // as written in PTX: "ld", "mma"
  Opcode opcode;
  int operands;  // the expected count; -1 when it varies
  OpcodeClass opcode_class;
  PipeRule pipe_rule;
};

// The row of PTX opcode `name`, or nullptr for an opcode warpsim does not know.
const OpcodeInfo* find_opcode(std::string_view name);

// The class of an enumerator's own row; other_calc, which has no semantics, counts as plain.
constexpr OpcodeClass opcode_class(Opcode opcode) {
  switch (opcode) {
#define WARPSIM_OPCODE(enumerator, name, operands, cls, pipes) \
  case Opcode::enumerator:                                     \
    return OpcodeClass::cls;
#include "warpsim/ptx/opcodes.def"
    case Opcode::other_calc:
      break;
  }
  return OpcodeClass::plain;
}

// Instructions the emulator reports to the lowering as memory accesses (ld.param aside).
constexpr bool is_memory_access(Opcode opcode) { return opcode_class(opcode) == OpcodeClass::memory; }

// `name.modifier` is a form the emulator does not model although it models `name` (add.cc).
bool is_unmodelled_form(std::string_view name, std::string_view modifier);

// A modifier of emulated opcodes whose semantics the emulator does not follow (approx, rz).
bool is_unmodelled_modifier(std::string_view modifier);

}  // namespace warpsim::ptx

// The opcode table (opcode_table.cpp), shared by the operand reader (which operands an opcode
// writes) and pipe_of (what it occupies). Private to warpsim_sass.
#pragma once

#include <cstdint>
#include <string_view>

#include "warpsim/isa/pipes.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace warpsim::sass::detail {

// Which leading operands an opcode writes.
enum class Dests : std::uint8_t {
  first,       // its first register operand (after any predicate ones), and carry-out predicates after it
  predicates,  // its leading predicate operands only (ISETP P0, PT, ...)
  none,        // nothing in a register (stores, branches, barriers)
};
// Which register operands are 64-bit pairs without a `.64` of their own.
enum class Wide : std::uint8_t { none, dest_and_addend /*IMAD.WIDE*/, all /*DFMA...*/ };

struct OpcodeRow {
  std::string_view name;  // base opcode, or base.MODIFIER for a row that overrides its base's
  OpcodeKind kind;
  isa::Pipe pipe = isa::Pipe::control;
  Dests dests = Dests::first;
  Wide wide = Wide::none;
  std::uint8_t ccs = 0x7f;  // the compute capabilities that have it: bit i of kComputeCapabilities
  bool move = false;
  bool variable_latency = false;
  bool integer_alias = false;
};

inline constexpr int kComputeCapabilities[] = {75, 80, 86, 89, 90, 100, 120};

// The row of an opcode with modifiers ("IMAD.MOV.U32": the IMAD.MOV row), the base's when no
// modifier row matches, a uniform-datapath row for other U* opcodes; nullptr when unknown.
const OpcodeRow* find_row(std::string_view opcode);

// Bits per thread of a memory opcode's access, from its modifiers (opcode_class.cpp).
int access_bits(std::string_view opcode);

}  // namespace warpsim::sass::detail

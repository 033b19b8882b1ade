// The registers an instruction writes and reads, from its operand text and its opcode's row
// (operands.cpp). Private to warpsim_sass.
#pragma once

#include "warpsim/sass/listing.hpp"

namespace warpsim::sass::detail {

// Fills in.writes, reads, uniform_* and predicate_* from in.predicate, opcode and operands.
void read_registers(Instruction& in);

}  // namespace warpsim::sass::detail

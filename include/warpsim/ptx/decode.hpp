// Resolving a parsed module into the form the emulator runs (kernel_ir.hpp): registers,
// special registers, labels, symbols and parameters by index; opcodes and modifiers as enums.
#pragma once

#include "warpsim/ptx_syntax/ast.hpp"
#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// Throws InputError at FILE:LINE:COL for an undeclared register, an undefined label or
// function, or a known opcode with the wrong number of operands. Unknown opcodes are kept as
// generic calc instructions (their first operand treated as written with an unknown value) and
// reported in `warnings`.
DecodedModule decode_module(const Module& module);

// The same for one kernel: function `entry` and, transitively, every function it calls; the
// others keep their name and parameter slots but no code (a Thrust or CUB build holds hundreds of
// kernels, and lowering one need not decode them all). Errors in functions the kernel never calls
// are not reported.
DecodedModule decode_kernel(const Module& module, std::uint32_t entry);

// Bytes a declared variable takes: element size x vector width x array dimensions (an unsized
// `[]` dimension counts as 1).
std::int64_t declaration_bytes(const Declaration& d);

}  // namespace warpsim::ptx

// The semantics of PTX's integer instructions (PTX ISA), on one lane's values: the arithmetic
// and logic of every integer opcode the emulator computes, with those that take more than a
// line (lop3's truth table, the funnel shift shf, the byte permute prmt, the 24-bit products of
// mul24/mad24) on their own; integer comparisons and predicate combinations (setp).
#pragma once

#include <cstdint>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// lop3.b32 d, a, b, c, lut: bit i of d is bit (a_i b_i c_i, read as a 3-bit number) of lut.
std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint8_t lut);

// shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: {b, a} shifted by c (clamped to 32, or modulo 32); shf.l
// keeps the upper 32 bits, shf.r the lower.
std::uint32_t funnel_shift(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool left, bool clamp);

// prmt.b32{.mode} d, a, b, c: four bytes picked from {b, a} by selector c.
std::uint32_t permute_bytes(std::uint32_t a, std::uint32_t b, std::uint32_t c, PermuteMode mode);

// mul24: the 48-bit product of the low 24 bits of a and b (sign-extended when signed); .lo keeps
// bits 31..0, .hi bits 47..16.
std::uint32_t mul24(std::uint64_t a, std::uint64_t b, bool is_signed, bool high);

// The integer result of a two- or three-operand arithmetic or logic instruction on operand values
// a, b, c (the instruction's type and modifiers say how): false where PTX leaves it undefined
// (division by zero, INT_MIN / -1) or the opcode is not one of these.
bool integer_result(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& r);

// setp's comparison of two integers of type t (signed or unsigned at t's width).
bool compare_integers(Compare c, std::uint64_t a, std::uint64_t b, ScalarType t);

// compare_integers for the 32 lanes of a warp at once (32 values at a and at b): bit l of the
// result is lane l's outcome.
std::uint32_t compare_integer_lanes(Compare c, const std::uint64_t* a, const std::uint64_t* b, ScalarType t);

// setp's .and/.or/.xor with a third predicate.
bool combine_predicates(BoolOp op, bool a, bool c);

}  // namespace warpsim::ptx

// Float values as the GPU computes them, for the emulator: IEEE binary16, binary32, binary64 and
// bfloat16, scalar or in packed pairs (f16x2), rounded to nearest even. A result is given only
// when it is exactly the GPU's; the functions return false (the value is unknown) otherwise: NaN
// results, whose bits PTX leaves unspecified, and subnormal results under .ftz. Forms that are
// not followed at all (.approx, .rz, fp8 types) never get here: the decoder marks them unmodelled.
#pragma once

#include <cstdint>
#include <optional>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

enum class FloatFormat : std::uint8_t { f16, bf16, f32, f64 };

// The format of one element of `type` (f16x2: f16); nullopt for integer types and for tf32 and
// the fp8/fp6/fp4 formats.
std::optional<FloatFormat> float_format(ScalarType type);

// The value of the low bits of `bits` in `format`. Exact: every format fits in a double.
double float_value(std::uint64_t bits, FloatFormat format);

// `value` rounded to nearest even in `format`, as bits; too large gives infinity.
std::uint64_t float_bits(double value, FloatFormat format);

// mov add sub mul mad fma div sqrt rcp abs neg min max copysign of float type `in.type`, on the
// operand bits a, b, c (element by element for packed pairs), with .ftz and .sat.
bool float_arithmetic(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                      std::uint64_t& r);

// An operand of a float comparison (setp, set) or of slct in scalar float `type`, with .ftz.
double float_operand(const DecodedInstruction& in, std::uint64_t bits, ScalarType type);

// cvt from in.src_type to in.type with its rounding, .sat and .ftz, between any integer and
// float types; cvt.rn.f16x2.f32 and cvt.rn.bf16x2.f32 pack a (upper half) and b (lower half).
bool convert(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t& r);

// 1.0 in float `type`: what set writes for true.
std::uint64_t float_one(ScalarType type);

// setp's comparison of two floating-point values: the ordered comparisons are false, the
// unordered (equ, ltu, ...) true, when either is NaN; num and nan test for NaN alone.
bool compare_floats(Compare c, double x, double y);

}  // namespace warpsim::ptx

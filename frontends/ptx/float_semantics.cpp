#include "warpsim/ptx/float_semantics.hpp"

#include "warpsim/ptx/lane_arith.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace warpsim::ptx {
namespace {

struct Layout {
  int exponent_bits;
  int fraction_bits;
};

Layout layout(FloatFormat format) {
  switch (format) {
    case FloatFormat::f16:
      return {5, 10};
    case FloatFormat::bf16:
      return {8, 7};
    case FloatFormat::f32:
      return {8, 23};
    case FloatFormat::f64:
      return {11, 52};
  }
  return {11, 52};
}

double smallest_normal(FloatFormat format) {
  const int bias = (1 << (layout(format).exponent_bits - 1)) - 1;
  return std::ldexp(1.0, 1 - bias);
}

bool is_subnormal(double value, FloatFormat format) { return value != 0 && std::fabs(value) < smallest_normal(format); }

// Rounds to nearest even in a format of at most 16 bits (f16, bf16); double has room to spare.
std::uint64_t round_to_small_format(double value, Layout l) {
  const std::uint64_t sign = std::signbit(value) ? std::uint64_t{1} << (l.exponent_bits + l.fraction_bits) : 0;
  const std::uint64_t infinity = ((std::uint64_t{1} << l.exponent_bits) - 1) << l.fraction_bits;
  if (std::isnan(value)) return sign | infinity | (std::uint64_t{1} << (l.fraction_bits - 1));
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | infinity;
  if (magnitude == 0) return sign;
  const int bias = (1 << (l.exponent_bits - 1)) - 1;
  int exponent = 0;
  std::frexp(magnitude, &exponent);
  exponent = std::max(exponent - 1, 1 - bias);  // subnormals share the smallest exponent
  if (exponent > bias) return sign | infinity;
  // The significand in units of the last place: scaling by a power of two is exact.
  auto units = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(magnitude, l.fraction_bits - exponent)));
  const std::uint64_t hidden = std::uint64_t{1} << l.fraction_bits;
  if (units >= 2 * hidden) {  // rounded up into the next binade
    units >>= 1;
    ++exponent;
  }
  if (exponent > bias) return sign | infinity;
  if (units < hidden) return sign | units;  // subnormal
  return sign | (static_cast<std::uint64_t>(exponent + bias) << l.fraction_bits) | (units - hidden);
}

// a * b + c rounded to odd in double, for inputs of at most 24 significant bits: the product is
// exact, and rounding to odd first makes the later rounding to the narrower format correct
// (53 >= 24 + 2 bits), where std::fma would round twice.
double fma_rounded_to_odd(double a, double b, double c) {
  const double product = a * b;
  const double sum = product + c;
  if (!std::isfinite(sum)) return sum;
  const double c_part = sum - product;  // TwoSum: sum + error is exactly product + c
  const double error = (product - (sum - c_part)) + (c - c_part);
  if (error == 0 || (std::bit_cast<std::uint64_t>(sum) & 1) != 0) return sum;
  return std::nextafter(sum,
                        error > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
}

double flushed(const DecodedInstruction& in, double value, FloatFormat format) {
  return in.flush_subnormals && is_subnormal(value, format) ? std::copysign(0.0, value) : value;
}

// Rounds an exact (or already correctly rounded) result to `format` and applies .sat and .ftz.
bool float_result(const DecodedInstruction& in, double value, FloatFormat format, bool flush_result, std::uint64_t& r) {
  if (std::isnan(value)) {
    if (!in.saturate) return false;  // NaN bits are unspecified; .sat makes them +0
    value = 0.0;
  }
  std::uint64_t bits = float_bits(value, format);
  double rounded = float_value(bits, format);
  if (flush_result && in.flush_subnormals && is_subnormal(rounded, format))
    return false;  // flushed before or after rounding?
  if (in.saturate) {
    if (rounded == 0 && std::signbit(rounded)) return false;  // the sign of a clamped -0 is not pinned down
    rounded = std::clamp(rounded, 0.0, 1.0);
    bits = float_bits(rounded, format);
  }
  r = bits;
  return true;
}

bool scalar_arithmetic(const DecodedInstruction& in, FloatFormat format, std::uint64_t a, std::uint64_t b,
                       std::uint64_t c, std::uint64_t& r) {
  const double x = flushed(in, float_value(a, format), format);
  const double y = flushed(in, float_value(b, format), format);
  const double z = flushed(in, float_value(c, format), format);
  // One operation in double, then one rounding to the format, is correctly rounded for + - * /
  // and sqrt of formats up to f32 (53 >= 2 * 24 + 2 bits); f64 is computed in its own format.
  double v = 0;
  switch (in.opcode) {
    case Opcode::add:
      v = x + y;
      break;
    case Opcode::sub:
      v = x - y;
      break;
    case Opcode::mul:
      v = x * y;
      break;
    case Opcode::mad:
    case Opcode::fma:
      v = format == FloatFormat::f64 ? std::fma(x, y, z) : fma_rounded_to_odd(x, y, z);
      break;
    case Opcode::div:
      v = x / y;
      break;
    case Opcode::sqrt:
      v = std::sqrt(x);
      break;
    case Opcode::rcp:
      v = 1.0 / x;
      break;
    case Opcode::abs:
      v = std::fabs(x);
      break;
    case Opcode::neg:
      v = -x;
      break;
    case Opcode::min:
    case Opcode::max:
      if (x == 0 && y == 0 && std::signbit(x) != std::signbit(y)) return false;  // which zero: not pinned down
      v = in.opcode == Opcode::min ? std::fmin(x, y) : std::fmax(x, y);          // a NaN operand gives the other
      break;
    case Opcode::copysign:
      v = std::copysign(y, x);
      break;  // b with the sign of a
    default:
      return false;
  }
  return float_result(in, v, format, true, r);
}

double rounded_to_integer(double value, IntegerRounding rounding) {
  switch (rounding) {
    case IntegerRounding::nearest_even:
      return std::nearbyint(value);
    case IntegerRounding::zero:
      return std::trunc(value);
    case IntegerRounding::down:
      return std::floor(value);
    case IntegerRounding::up:
      return std::ceil(value);
    case IntegerRounding::none:
      break;
  }
  return value;
}


std::uint64_t extended(std::uint64_t v, ScalarType type) {
  const int bits = width(type);
  if (!type.is_signed() || bits >= 64) return truncate(v, bits);
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  return (truncate(v, bits) ^ sign) - sign;
}

// Float to integer: rounded as asked (toward zero by default), clamped to the destination's
// range; NaN gives 0, or the top bit for 64-bit conversions (PTX ISA, cvt).
std::uint64_t float_to_integer(double value, ScalarType from, ScalarType to, IntegerRounding rounding) {
  const int bits = width(to);
  if (std::isnan(value)) {
    const bool wide = width(from) == 64 || bits == 64;
    return wide ? extended(std::uint64_t{1} << (bits - 1), to) : 0;
  }
  const double v = rounded_to_integer(value, rounding == IntegerRounding::none ? IntegerRounding::zero : rounding);
  if (to.is_signed()) {
    const double limit = std::ldexp(1.0, bits - 1);
    const std::int64_t top =
        bits >= 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
    const std::int64_t clamped = v >= limit ? top : v < -limit ? -top - 1 : static_cast<std::int64_t>(v);
    return static_cast<std::uint64_t>(clamped);
  }
  const double limit = std::ldexp(1.0, bits);
  if (v >= limit) return truncate(~std::uint64_t{0}, bits);
  return v <= 0 ? 0 : static_cast<std::uint64_t>(v);
}

// An integer as the nearest double the conversion can round from without a second rounding:
// exact below 2^53; f32 and f64 round the integer themselves. False where neither holds (bf16).
bool integer_value(std::uint64_t bits, ScalarType from, FloatFormat to, double& value) {
  const bool is_signed = from.is_signed();
  const std::uint64_t v = extended(bits, from);
  const auto as_signed = static_cast<std::int64_t>(v);
  const bool small = is_signed ? (as_signed > -(std::int64_t{1} << 53) && as_signed < (std::int64_t{1} << 53))
                               : v < (std::uint64_t{1} << 53);
  if (to == FloatFormat::f32) {
    value = is_signed ? static_cast<double>(static_cast<float>(as_signed)) : static_cast<double>(static_cast<float>(v));
  } else if (to == FloatFormat::f64 || small) {
    value = is_signed ? static_cast<double>(as_signed) : static_cast<double>(v);
  } else if (to == FloatFormat::f16) {  // beyond 65520 every f16 rounding is infinity
    value =
        is_signed && as_signed < 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  } else {
    return false;
  }
  return true;
}

std::uint64_t integer_to_integer(const DecodedInstruction& in, std::uint64_t bits, ScalarType from, ScalarType to) {
  std::uint64_t v = extended(bits, from);
  if (in.saturate) {
    const Wide value = from.is_signed() ? Wide{static_cast<std::int64_t>(v)} : Wide{v};
    const int to_bits = width(to);
    const Wide lowest = to.is_signed() ? -(Wide{1} << (to_bits - 1)) : Wide{0};
    const Wide highest = to.is_signed() ? (Wide{1} << (to_bits - 1)) - 1 : (Wide{1} << to_bits) - 1;
    v = static_cast<std::uint64_t>(std::clamp(value, lowest, highest));
  }
  return extended(v, to);
}

bool convert_scalar(const DecodedInstruction& in, ScalarType to, ScalarType from, std::uint64_t x, std::uint64_t& r) {
  const std::optional<FloatFormat> to_format = float_format(to), from_format = float_format(from);
  if ((to.is_float() && !to_format) || (from.is_float() && !from_format)) return false;
  if (from_format) {
    double v = float_value(x, *from_format);
    // .ftz of cvt applies to f32 operands and results only.
    if (in.flush_subnormals && *from_format == FloatFormat::f32 && is_subnormal(v, FloatFormat::f32))
      v = std::copysign(0.0, v);
    if (!to_format) {
      r = float_to_integer(v, from, to, in.integer_rounding);
      return true;
    }
    return float_result(in, rounded_to_integer(v, in.integer_rounding), *to_format, *to_format == FloatFormat::f32, r);
  }
  if (to_format) {
    double v = 0;
    return integer_value(x, from, *to_format, v) && float_result(in, v, *to_format, *to_format == FloatFormat::f32, r);
  }
  r = integer_to_integer(in, x, from, to);
  return true;
}

}  // namespace

std::optional<FloatFormat> float_format(ScalarType type) {
  const int element_bits = type.bits / std::max<int>(type.elements, 1);
  if (type.kind == TypeKind::bf && element_bits == 16) return FloatFormat::bf16;
  if (type.kind != TypeKind::f) return std::nullopt;
  switch (element_bits) {
    case 16:
      return FloatFormat::f16;
    case 32:
      return FloatFormat::f32;
    case 64:
      return FloatFormat::f64;
    default:
      return std::nullopt;
  }
}

double float_value(std::uint64_t bits, FloatFormat format) {
  switch (format) {
    case FloatFormat::f64:
      return std::bit_cast<double>(bits);
    case FloatFormat::f32:
      return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    case FloatFormat::bf16:
      return std::bit_cast<float>(static_cast<std::uint32_t>((bits & 0xFFFF) << 16));
    case FloatFormat::f16: {
      const std::uint64_t exponent = (bits >> 10) & 0x1F, fraction = bits & 0x3FF;
      double magnitude =
          exponent == 0 ? std::ldexp(static_cast<double>(fraction), -24)
          : exponent == 31
              ? (fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity())
              : std::ldexp(static_cast<double>(fraction + 0x400), static_cast<int>(exponent) - 25);
      return (bits >> 15) & 1 ? -magnitude : magnitude;
    }
  }
  return 0;
}

std::uint64_t float_bits(double value, FloatFormat format) {
  switch (format) {
    case FloatFormat::f64:
      return std::bit_cast<std::uint64_t>(value);
    case FloatFormat::f32:
      return std::bit_cast<std::uint32_t>(static_cast<float>(value));  // rounds to nearest even
    case FloatFormat::f16:
    case FloatFormat::bf16:
      return round_to_small_format(value, layout(format));
  }
  return 0;
}

bool float_arithmetic(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                      std::uint64_t& r) {
  if (in.opcode == Opcode::mov) {  // a copy of the bits, NaNs included
    r = a;
    return true;
  }
  const std::optional<FloatFormat> format = float_format(in.type);
  if (!format) return false;
  const int element_bits = in.type.bits / in.type.elements;
  r = 0;
  for (int e = 0; e < in.type.elements; ++e) {
    const int shift = e * element_bits;
    std::uint64_t element = 0;
    if (!scalar_arithmetic(in, *format, a >> shift, b >> shift, c >> shift, element)) return false;
    r |= element << shift;
  }
  return true;
}

double float_operand(const DecodedInstruction& in, std::uint64_t bits, ScalarType type) {
  // The decoder leaves only scalar f16, bf16, f32 and f64 comparisons to the emulator.
  const FloatFormat format = float_format(type).value_or(FloatFormat::f64);
  return flushed(in, float_value(bits, format), format);
}

bool convert(const DecodedInstruction& in, std::uint64_t a, std::uint64_t b, std::uint64_t& r) {
  const ScalarType to = in.type, from = in.src_type;
  if (from.elements != 1) return false;
  if (to.elements == 1) return in.srcs.size() == 1 && convert_scalar(in, to, from, a, r);
  if (to.elements != 2 || in.srcs.size() != 2) return false;
  ScalarType half = to;
  half.bits = static_cast<std::uint8_t>(to.bits / 2);
  half.elements = 1;
  std::uint64_t upper = 0, lower = 0;
  if (!convert_scalar(in, half, from, a, upper) || !convert_scalar(in, half, from, b, lower)) return false;
  r = upper << half.bits | lower;
  return true;
}

std::uint64_t float_one(ScalarType type) { return float_bits(1.0, float_format(type).value_or(FloatFormat::f32)); }

bool compare_floats(Compare c, double x, double y) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (c) {
    case Compare::eq: return !unordered && x == y;
    case Compare::ne: return !unordered && x != y;
    case Compare::lt: return !unordered && x < y;
    case Compare::le: return !unordered && x <= y;
    case Compare::gt: return !unordered && x > y;
    case Compare::ge: return !unordered && x >= y;
    case Compare::equ: return unordered || x == y;
    case Compare::neu: return unordered || x != y;
    case Compare::ltu: return unordered || x < y;
    case Compare::leu: return unordered || x <= y;
    case Compare::gtu: return unordered || x > y;
    case Compare::geu: return unordered || x >= y;
    case Compare::num: return !unordered;
    case Compare::nan: return unordered;
    default: return false;
  }
}

}  // namespace warpsim::ptx

#include "warpsim/ptx/parameter_value.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string_view>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& text, const std::string& why) {
  throw InputError("--param " + name + "=" + quote_for_message(text) + ": " + why);
}

std::string out_of_range(const KernelParameter& p, const std::string& range) {
  return "out of range: " + p.ptx_name + " is " + type_name(p) + ", which holds " + range;
}

ParsedValue parse_float(const KernelParameter& p, const std::string& name,
                        const std::string& text) {
  const char* end = text.data() + text.size();
  double value = 0;
  const auto r = std::from_chars(text.data(), end, value);
  const bool out_of_double = r.ec == std::errc::result_out_of_range;
  if (r.ptr != end || (r.ec != std::errc() && !out_of_double))
    refuse(name, text, "expected a number");
  if (out_of_double) value = std::strtod(text.c_str(), nullptr);  // +-HUGE_VAL, or an underflow's 0
  const bool single = p.type.bits != 64;
  const double largest =
      single ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  if (std::fabs(value) > largest && (out_of_double || std::isfinite(value))) {
    std::ostringstream range;
    range << "finite values up to " << largest << " in magnitude";
    refuse(name, text, out_of_range(p, range.str()));
  }
  const std::uint64_t bits = single ? std::bit_cast<std::uint32_t>(static_cast<float>(value))
                                    : std::bit_cast<std::uint64_t>(value);
  return {value, bits};
}

ParsedValue parse_integer(const KernelParameter& p, const std::string& name,
                          const std::string& text) {
  std::string_view digits = text;
  const bool negative = digits.starts_with('-');
  if (negative) digits.remove_prefix(1);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t magnitude = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  const bool whole = !digits.empty() && r.ptr == digits.data() + digits.size();
  if (!whole || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) {
    refuse(name, text, "expected a whole number");
  }
  const int bits = p.type.bits;
  const bool is_signed = is_signed_parameter(p);
  const std::uint64_t all_ones = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t largest = is_signed ? all_ones >> 1 : all_ones;  // 2^(b-1)-1 or 2^b-1
  const std::uint64_t most_negative = is_signed ? largest + 1 : 0;     // its magnitude
  if (r.ec == std::errc::result_out_of_range || magnitude > (negative ? most_negative : largest)) {
    const std::string low = is_signed ? "-" + std::to_string(most_negative) : "0";
    refuse(name, text, out_of_range(p, low + " to " + std::to_string(largest)));
  }
  const std::uint64_t value = negative ? 0 - magnitude : magnitude;
  if (is_signed) return {static_cast<std::int64_t>(value), value & all_ones};
  return {value, value & all_ones};
}

}  // namespace

bool is_signed_parameter(const KernelParameter& parameter) {
  static const std::string_view signed_types[] = {"int",         "long", "short",  "long long",
                                                  "signed char", "char", "wchar_t"};
  static const std::string_view unsigned_types[] = {
      "unsigned int", "unsigned long", "unsigned short", "unsigned char", "unsigned long long",
      "bool",         "char8_t",       "char16_t",       "char32_t"};
  for (const std::string_view t : signed_types) {
    if (parameter.cxx_type == t) return true;
  }
  for (const std::string_view t : unsigned_types) {
    if (parameter.cxx_type == t) return false;
  }
  return parameter.type.is_signed();
}

ParsedValue parse_parameter_value(const KernelParameter& parameter, const std::string& name,
                                  const std::string& text) {
  return parameter.type.is_float() ? parse_float(parameter, name, text)
                                   : parse_integer(parameter, name, text);
}

}  // namespace warpsim::ptx

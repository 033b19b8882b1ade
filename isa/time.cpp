#include "warpsim/isa/time.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace warpsim::isa {
namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

Millicycles parse_cycles(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("a number of cycles is missing");
  if (text.front() == '-') throw std::invalid_argument("cycles cannot be negative");
  std::size_t i = text.front() == '+' ? 1 : 0;
  Millicycles whole = 0;
  std::size_t whole_digits = 0;
  for (; i < text.size() && is_digit(text[i]); ++i, ++whole_digits) {
    whole = whole * 10 + (text[i] - '0');
    if (whole > kMaxDuration / kMillicyclesPerCycle) {
      throw std::invalid_argument("cycles above the limit of 10^9");
    }
  }
  Millicycles fraction = 0;
  std::size_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && is_digit(text[i]); ++i, ++fraction_digits) {
      if (fraction_digits == 3) {
        throw std::invalid_argument("more than three decimals (time is kept in 1/1000 cycles)");
      }
      fraction = fraction * 10 + (text[i] - '0');
    }
  }
  if (i != text.size() || whole_digits + fraction_digits == 0) {
    throw std::invalid_argument("not a decimal number of cycles");
  }
  for (std::size_t d = fraction_digits; d < 3; ++d) fraction *= 10;
  return whole * kMillicyclesPerCycle + fraction;
}

Millicycles cycles_from_double(double cycles) {
  if (!std::isfinite(cycles)) throw std::invalid_argument("cycles must be a finite number");
  if (cycles < 0) throw std::invalid_argument("cycles cannot be negative");
  const double scaled = cycles * static_cast<double>(kMillicyclesPerCycle);
  if (scaled > static_cast<double>(kMaxDuration)) {
    throw std::invalid_argument("cycles above the limit of 10^9");
  }
  const double rounded = std::nearbyint(scaled);
  if (std::abs(scaled - rounded) > 1e-6 * std::max(1.0, scaled)) {
    throw std::invalid_argument("more than three decimals (time is kept in 1/1000 cycles)");
  }
  return static_cast<Millicycles>(rounded);
}

std::string format_cycles(Millicycles time) {
  std::string out;
  if (time < 0) out.push_back('-');
  // Unsigned magnitude: -INT64_MIN does not fit in int64.
  const std::uint64_t magnitude = time < 0 ? 0 - static_cast<std::uint64_t>(time) : static_cast<std::uint64_t>(time);
  out.append(std::to_string(magnitude / kMillicyclesPerCycle));
  unsigned fraction = static_cast<unsigned>(magnitude % kMillicyclesPerCycle);
  if (fraction != 0) {
    char digits[4] = {static_cast<char>('0' + fraction / 100), static_cast<char>('0' + fraction / 10 % 10),
                      static_cast<char>('0' + fraction % 10), '\0'};
    std::size_t length = 3;
    while (digits[length - 1] == '0') --length;
    out.push_back('.');
    out.append(digits, length);
  }
  return out;
}

}  // namespace warpsim::isa

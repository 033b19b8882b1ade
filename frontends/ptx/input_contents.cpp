#include "warpsim/ptx/input_contents.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/splitmix.hpp"

namespace warpsim::ptx {
namespace {

// A finite number, the whole of `text`.
double number(std::string_view text, const std::string& what, const std::string& spec) {
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    throw InputError(what + ": " + quote_for_message(std::string(text)) + " in " + quote_for_message(spec) + " is not a number");
  }
  return v;
}

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ULL;
  return h;
}

std::uint64_t low_bits(std::uint64_t v, int bits) { return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }

// `v` as a load of `type` holds it: float bits for f32/f64, a whole number's two's complement
// for integers; nullopt where the type cannot hold it exactly (a fraction read as an integer).
std::optional<std::uint64_t> encode(double v, ScalarType type) {
  if (type.kind == TypeKind::f && type.bits == 32) return std::bit_cast<std::uint32_t>(static_cast<float>(v));
  if (type.kind == TypeKind::f && type.bits == 64) return std::bit_cast<std::uint64_t>(v);
  if (type.is_float() || type.kind == TypeKind::pred) return v == 0 ? std::optional<std::uint64_t>(0) : std::nullopt;
  if (v != std::floor(v) || std::abs(v) > 9.2e18) return std::nullopt;
  return low_bits(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)), type.bits);
}

}  // namespace

std::string InputContents::identity() const {
  switch (kind) {
    case Kind::zeros: return "zeros";
    case Kind::constant: return "const:" + std::to_string(std::bit_cast<std::uint64_t>(value));
    case Kind::uniform:
      return "uniform:" + std::to_string(std::bit_cast<std::uint64_t>(low)) + ":" + std::to_string(std::bit_cast<std::uint64_t>(high));
    case Kind::file: return "file:" + std::to_string(bytes->size()) + ":" + std::to_string(fnv1a(*bytes));
  }
  return "";
}

std::optional<std::uint64_t> InputContents::value_at(std::uint64_t offset, ScalarType type) const {
  switch (kind) {
    case Kind::zeros: return 0;
    case Kind::constant: return encode(value, type);
    case Kind::uniform: {
      // The element the load starts in, drawn once: the same offset reads the same value.
      const double u = static_cast<double>(isa::splitmix64(offset) >> 11) * 0x1.0p-53;  // [0, 1)
      const bool whole = !type.is_float();
      const double v = whole ? std::floor(low + u * (std::floor(high) - std::ceil(low) + 1)) : low + u * (high - low);
      return encode(whole ? std::max(std::ceil(low), v) : v, type);
    }
    case Kind::file: {
      const auto n = static_cast<std::uint64_t>(type.bytes());
      if (offset > bytes->size() || bytes->size() - offset < n) return std::nullopt;
      std::uint64_t v = 0;
      std::memcpy(&v, bytes->data() + offset, n);  // little-endian, as the GPU stores it
      return v;
    }
  }
  return std::nullopt;
}

InputContents parse_input_contents(std::string_view spec, const std::string& what) {
  const std::string text(spec);
  InputContents c;
  c.text = text;
  const std::size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
  const auto no_argument = [&] {
    if (colon != std::string_view::npos) throw InputError(what + ": " + quote_for_message(text) + ": " + std::string(kind) + " takes no value");
  };
  if (kind == "zeros") {
    no_argument();
    c.kind = InputContents::Kind::zeros;
  } else if (kind == "const") {
    c.kind = InputContents::Kind::constant;
    c.value = number(rest, what, text);
  } else if (kind == "uniform") {
    c.kind = InputContents::Kind::uniform;
    const std::size_t second = rest.find(':');
    if (colon == std::string_view::npos || second == std::string_view::npos) {
      throw InputError(what + ": " + quote_for_message(text) + ": expected uniform:LOW:HIGH");
    }
    c.low = number(rest.substr(0, second), what, text);
    c.high = number(rest.substr(second + 1), what, text);
    if (c.low > c.high) throw InputError(what + ": " + quote_for_message(text) + ": LOW is above HIGH");
  } else if (kind == "file") {
    c.kind = InputContents::Kind::file;
    const std::string path(rest);
    if (path.empty()) throw InputError(what + ": " + quote_for_message(text) + ": expected file:PATH");
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) throw InputError(path + ": not a readable file (" + what + ")");
    if (std::filesystem::file_size(path, error) > (std::uintmax_t{1} << 32)) throw InputError(path + ": larger than 4 GiB (" + what + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot read (" + what + ")");
    auto bytes = std::make_shared<std::vector<std::uint8_t>>();
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      bytes->insert(bytes->end(), buffer, buffer + in.gcount());
      if (bytes->size() > (std::size_t{1} << 32)) throw InputError(path + ": larger than 4 GiB (" + what + ")");
    }
    c.bytes = std::move(bytes);
  } else {
    throw InputError(what + ": " + quote_for_message(text) + " is not input contents: expected zeros, const:V, uniform:LOW:HIGH or file:PATH");
  }
  return c;
}

}  // namespace warpsim::ptx

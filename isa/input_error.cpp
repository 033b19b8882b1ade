#include "warpsim/isa/input_error.hpp"

#include <cstdio>

namespace warpsim {

std::string InputError::describe() const {
  std::string out;
  if (!location_.file.empty()) {
    out += location_.file;
    if (location_.line > 0) {
      out += ':' + std::to_string(location_.line);
      if (location_.column > 0) out += ':' + std::to_string(location_.column);
    }
    out += ": ";
  }
  return out + what();
}

std::string quote_for_message(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out + "'";
}

}  // namespace warpsim

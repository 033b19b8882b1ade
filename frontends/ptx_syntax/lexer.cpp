#include "warpsim/ptx_syntax/lexer.hpp"

#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int hex_digit_value(char c) {
  if (is_digit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

// Bytes that never occur in a text file: control characters other than white space, and DEL.
bool is_binary_byte(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') || c == 0x7f;
}

bool is_punctuation(char c) { return c != '\0' && std::strchr(",;:(){}[]<>+-!@|=*/~&^?", c) != nullptr; }

// invalid_argument when malformed, result_out_of_range above 2^64-1.
std::errc parse_digits(std::string_view digits, int base, std::uint64_t& value) {
  if (digits.empty()) return std::errc::invalid_argument;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (error != std::errc()) return error;
  return end == digits.data() + digits.size() ? std::errc() : std::errc::invalid_argument;
}

// 42, 0x1F, 0b101, 017, each with an optional unsigned suffix U.
std::errc parse_integer(std::string_view text, std::uint64_t& value) {
  if (text.size() > 1 && text.back() == 'U') text.remove_suffix(1);
  if (text.size() >= 2 && text[0] == '0') {
    switch (text[1]) {
      case 'x': case 'X': return parse_digits(text.substr(2), 16, value);
      case 'b': case 'B': return parse_digits(text.substr(2), 2, value);
      default: return parse_digits(text.substr(1), 8, value);
    }
  }
  return parse_digits(text, 10, value);
}

std::optional<std::uint64_t> hex_bits(std::string_view digits, std::size_t count) {
  if (digits.size() != count) return std::nullopt;
  std::uint64_t bits = 0;
  for (const char c : digits) {
    if (!is_hex_digit(c)) return std::nullopt;
    bits = bits << 4 | static_cast<std::uint64_t>(hex_digit_value(c));
  }
  return bits;
}

}  // namespace

std::optional<std::uint64_t> integer_value(std::string_view text) {
  std::uint64_t value = 0;
  if (parse_integer(text, value) != std::errc()) return std::nullopt;
  return value;
}

std::optional<double> floating_value(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    const auto bits = hex_bits(text.substr(2), 8);
    if (!bits) return std::nullopt;
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(*bits)));
  }
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    const auto bits = hex_bits(text.substr(2), 16);
    if (!bits) return std::nullopt;
    return std::bit_cast<double>(*bits);
  }
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

Lexer::Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {
  // One pass up front: a binary file is reported as such, not as a confusing syntax error.
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (is_binary_byte(c)) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", c);
      fail({line, static_cast<int>(i - line_start) + 1}, std::string("not a PTX text file: byte ") + byte);
    }
  }
  if (text_.starts_with("\xEF\xBB\xBF")) at_ = line_start_ = 3;  // UTF-8 byte order mark
}

void Lexer::fail(Position pos, const std::string& what) const {
  throw InputError(SourceLocation{file_, pos.line, pos.column}, what);
}

void Lexer::skip_space_and_comments() {
  while (at_ < text_.size()) {
    const char c = text_[at_];
    if (c == '\n') {
      ++at_;
      ++line_;
      line_start_ = at_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++at_;
    } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '/') {
      at_ = std::min(text_.find('\n', at_), text_.size());
    } else if (c == '@' && text_.substr(at_).starts_with("@@DWARF")) {
      at_ = std::min(text_.find('\n', at_), text_.size());
    } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '*') {
      const Position start = here();
      const std::size_t close = text_.find("*/", at_ + 2);
      if (close == std::string_view::npos) fail(start, "unterminated comment");
      for (std::size_t i = at_; i < close; ++i) {
        if (text_[i] == '\n') {
          ++line_;
          line_start_ = i + 1;
        }
      }
      at_ = close + 2;
    } else {
      return;
    }
  }
}

Token Lexer::make(TokenKind kind, std::size_t start, Position pos) const {
  return Token{kind, text_.substr(start, at_ - start), pos};
}

Token Lexer::next() {
  skip_space_and_comments();
  const Position pos = here();
  if (at_ >= text_.size()) return Token{TokenKind::end, {}, pos};
  const std::size_t start = at_;
  const char c = text_[at_];
  const auto word_follows = [&] { return at_ < text_.size() && is_word_char(text_[at_]); };

  if (is_letter(c) || c == '_' || c == '$' || c == '%') {
    ++at_;
    while (word_follows()) ++at_;
    if ((c == '%' || c == '$') && at_ - start == 1) fail(pos, std::string("unexpected character '") + c + "'");
    // Special registers with components: %tid.x, %ctaid.y.
    while (c == '%' && at_ + 1 < text_.size() && text_[at_] == '.' && is_letter(text_[at_ + 1])) {
      ++at_;
      while (word_follows()) ++at_;
    }
    return make(TokenKind::identifier, start, pos);
  }
  if (c == '.') {
    ++at_;
    if (!word_follows()) fail(pos, "unexpected character '.'");
    while (word_follows()) ++at_;
    // Qualified modifiers: .shared::cta, .L2::cache_hint, .mbarrier::complete_tx::bytes.
    while (at_ + 2 < text_.size() && text_[at_] == ':' && text_[at_ + 1] == ':' && is_word_char(text_[at_ + 2])) {
      at_ += 2;
      while (word_follows()) ++at_;
    }
    return make(TokenKind::directive, start, pos);
  }
  if (is_digit(c)) return lex_number(pos);
  if (c == '"') return lex_string(pos);
  if (is_punctuation(c)) {
    ++at_;
    return make(TokenKind::punctuation, start, pos);
  }
  fail(pos, "unexpected character " + quote_for_message(text_.substr(at_, 1)));
}

Token Lexer::lex_number(Position pos) {
  const std::size_t start = at_;
  const auto digit_follows = [&](std::size_t i) { return i < text_.size() && is_digit(text_[i]); };
  const auto malformed = [&]() -> Token {
    while (at_ < text_.size() && (is_word_char(text_[at_]) || text_[at_] == '.')) ++at_;
    fail(pos, "malformed number " + quote_for_message(text_.substr(start, at_ - start)));
  };

  bool is_float = false;
  const char prefix = at_ + 1 < text_.size() && text_[at_] == '0' ? static_cast<char>(text_[at_ + 1] | 0x20) : '\0';
  if (prefix == 'x' || prefix == 'b' || prefix == 'f' || prefix == 'd') {
    at_ += 2;
    while (at_ < text_.size() && (is_letter(text_[at_]) || is_digit(text_[at_]))) ++at_;
    is_float = prefix == 'f' || prefix == 'd';
  } else {
    while (digit_follows(at_)) ++at_;
    if (at_ < text_.size() && text_[at_] == '.' && digit_follows(at_ + 1)) {
      is_float = true;
      ++at_;
      while (digit_follows(at_)) ++at_;
    }
    if (at_ < text_.size() && (text_[at_] | 0x20) == 'e') {
      const std::size_t sign = at_ + 1 < text_.size() && (text_[at_ + 1] == '+' || text_[at_ + 1] == '-') ? 1 : 0;
      if (digit_follows(at_ + 1 + sign)) {
        is_float = true;
        at_ += 1 + sign;
        while (digit_follows(at_)) ++at_;
      }
    }
    if (!is_float && at_ < text_.size() && text_[at_] == 'U') ++at_;
  }
  if (at_ < text_.size() && (is_word_char(text_[at_]) || text_[at_] == '.')) return malformed();
  const Token token = make(is_float ? TokenKind::floating : TokenKind::integer, start, pos);
  if (is_float) {
    if (!floating_value(token.text)) return malformed();
  } else {
    std::uint64_t value = 0;
    const std::errc error = parse_integer(token.text, value);
    if (error == std::errc::result_out_of_range) fail(pos, "integer constant too large: " + quote_for_message(token.text));
    if (error != std::errc()) return malformed();
  }
  return token;
}

Token Lexer::lex_string(Position pos) {
  const std::size_t start = at_;
  ++at_;
  while (at_ < text_.size() && text_[at_] != '"' && text_[at_] != '\n') {
    at_ += text_[at_] == '\\' && at_ + 1 < text_.size() && text_[at_ + 1] != '\n' ? 2 : 1;
  }
  if (at_ >= text_.size() || text_[at_] != '"') fail(pos, "unterminated string");
  ++at_;
  return make(TokenKind::string, start, pos);
}

}  // namespace warpsim::ptx

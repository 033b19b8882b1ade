// Splitting PTX text into tokens, on demand, each with its 1-based line and column (a tab counts
// as one column). Tokens are views into the text, so the text must outlive the lexer.
// Comments, `@@DWARF` lines (old PTX debug output) and white space never become tokens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

enum class TokenKind : std::uint8_t {
  identifier,  // ld, %r1, %tid.x, $L__BB0_2, _Z3fooPf, _ (a special register keeps its `.x`)
  directive,   // .global, .v4, .2d, .shared::cta: one dot and a word (with `::word` parts);
               // `.ptr.global` is two tokens
  integer,     // 42, 0x1F, 0xFFFFFFFFU, 017, 0b101 (no sign: `-` is punctuation)
  floating,    // 1.5, 1e-3, 0f3F800000, 0d3FF0000000000000
  string,      // "text" with its quotes
  punctuation, // one character: , ; : ( ) { } [ ] < > + - ! @ | = * / ~ & ^ ?
  end,         // end of the text
};

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;
  Position pos;

  bool is(char c) const { return kind == TokenKind::punctuation && text[0] == c; }
  bool is_directive(std::string_view name) const { return kind == TokenKind::directive && text == name; }
};

class Lexer {
 public:
  // Throws InputError at the first byte that makes the text binary (NUL and other control bytes).
  Lexer(std::string_view text, const std::string& file);

  // The next token; `end` forever once the text is used up. Throws InputError for a character
  // that starts no token, a malformed number, an unterminated string or block comment.
  Token next();

  const std::string& file() const { return file_; }

 private:
  [[noreturn]] void fail(Position pos, const std::string& what) const;
  void skip_space_and_comments();
  Position here() const { return {line_, static_cast<int>(at_ - line_start_) + 1}; }
  Token make(TokenKind kind, std::size_t start, Position pos) const;
  Token lex_number(Position pos);
  Token lex_string(Position pos);

  std::string_view text_;
  std::string file_;
  std::size_t at_ = 0;          // offset of the next unread byte
  std::size_t line_start_ = 0;  // offset of the first byte of the current line
  int line_ = 1;
};

// Values of number tokens: the lexer accepts only text for which these have a value.
std::optional<std::uint64_t> integer_value(std::string_view text);  // none when malformed or above 2^64-1
std::optional<double> floating_value(std::string_view text);        // none when malformed or out of range

}  // namespace warpsim::ptx

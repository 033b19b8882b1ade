// Integer expressions over axis names, for a suite's launch components and kernel parameters
// (docs/formats.md, "Expressions"): integers, + - * / % (C's truncating division), unary minus,
// parentheses, ceil_div(a, b), min(a, b, ...), max(a, b, ...), pow2(k), log2(x). Parsed once to a
// tree, evaluated at every point with 64-bit checked arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sim::expression {

// A mistake at `offset` characters into the text that was parsed (a syntax error, or a value
// that cannot be computed: overflow, division by zero, log2 of a non-positive number).
class Error : public std::runtime_error {
 public:
  Error(std::size_t offset, const std::string& what) : std::runtime_error(what), offset_(offset) {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

inline constexpr int kMaxNesting = 64;  // parentheses, calls and unary minus: the parser recurses

class Expression {
 public:
  // Parses one expression; throws Error at the offending character.
  explicit Expression(std::string_view text);
  // "a, b, c": expressions separated by commas outside parentheses, each keeping its offset in
  // `text` for errors. Throws Error.
  static std::vector<Expression> parse_list(std::string_view text);

  const std::string& text() const { return text_; }
  std::size_t offset() const { return offset_; }  // where text() starts in the text parse_list read
  // The names it reads, in order of first appearance.
  const std::vector<std::string>& variables() const { return variables_; }
  // Whether it is one name alone ("N"), which keeps the meanings a plain axis name has.
  bool is_name() const { return nodes_.size() == 1 && !variables_.empty(); }
  // `values[i]` is the value of variables()[i]. Throws Error at the operator that fails, with an
  // offset counted like offset().
  std::int64_t evaluate(std::span<const std::int64_t> values) const;

 private:
  enum class Kind { number, variable, negate, add, subtract, multiply, divide, remainder, ceil_div, min, max, pow2, log2 };
  struct Node {
    Kind kind;
    std::int64_t value;  // number: the value; variable: index into variables_; min, max: operand count
    std::size_t offset;  // in the parsed text, for errors
  };
  class Parser;

  Expression() = default;

  std::string text_;
  std::size_t offset_ = 0;
  std::vector<std::string> variables_;
  std::vector<Node> nodes_;  // post-order: each node's operands come before it, the root last
};

}  // namespace warpsim::sim::expression

#include "warpsim/expression/expression.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>

namespace warpsim::sim::expression {
namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string describe_char(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "character " + std::to_string(static_cast<unsigned char>(c));
}

}  // namespace

// Recursive descent over the grammar in docs/formats.md; nodes are appended in post-order, so
// that evaluate() needs no recursion however long a chain of operators is.
class Expression::Parser {
 public:
  Parser(std::string_view text, Expression& out) : text_(text), out_(out) {}

  // Parses from `start` to the end, or to a comma outside parentheses when `in_list`; returns
  // where it stopped (the comma or the end).
  std::size_t parse(std::size_t start, bool in_list) {
    pos_ = start;
    skip_space();
    const std::size_t first = pos_;
    sum();
    if (pos_ < text_.size() && !(in_list && text_[pos_] == ',')) {
      fail(pos_, text_[pos_] == ')' ? std::string("unbalanced ')'") : "unexpected " + describe_char(text_[pos_]));
    }
    std::size_t last = pos_;
    while (last > first && std::isspace(static_cast<unsigned char>(text_[last - 1]))) --last;
    out_.text_ = std::string(text_.substr(first, last - first));
    out_.offset_ = first;
    return pos_;
  }

 private:
  [[noreturn]] static void fail(std::size_t at, const std::string& what) { throw Error(at, what); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    skip_space();
    return true;
  }
  void push(Kind kind, std::size_t at, std::int64_t value = 0) { out_.nodes_.push_back(Node{kind, value, at}); }
  void nest(std::size_t at) {
    if (++depth_ > kMaxNesting) fail(at, "expression nested more than " + std::to_string(kMaxNesting) + " deep");
  }

  // sum := product (('+' | '-') product)*
  void sum() {
    product();
    for (;;) {
      const std::size_t at = pos_;
      if (take('+')) push((product(), Kind::add), at);
      else if (take('-')) push((product(), Kind::subtract), at);
      else return;
    }
  }
  // product := unary (('*' | '/' | '%') unary)*
  void product() {
    unary();
    for (;;) {
      const std::size_t at = pos_;
      if (take('*')) push((unary(), Kind::multiply), at);
      else if (take('/')) push((unary(), Kind::divide), at);
      else if (take('%')) push((unary(), Kind::remainder), at);
      else return;
    }
  }
  // unary := '-' unary | primary
  void unary() {
    const std::size_t at = pos_;
    if (!take('-')) return primary();
    nest(at);
    unary();
    --depth_;
    push(Kind::negate, at);
  }
  // primary := INTEGER | NAME | NAME '(' sum (',' sum)* ')' | '(' sum ')'
  void primary() {
    const std::size_t at = pos_;
    if (take('(')) {
      nest(at);
      sum();
      if (!take(')')) fail(at, "unbalanced '(': no ')' closes it");
      --depth_;
      return;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) return number();
    if (pos_ >= text_.size() || !is_name_start(text_[pos_])) {
      fail(pos_, pos_ < text_.size() ? "expected a number, an axis name or '(' at " + describe_char(text_[pos_])
                                     : std::string("expected a number, an axis name or '(' at the end"));
    }
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    const std::string name(text_.substr(at, pos_ - at));
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') return call(name, at);
    auto& names = out_.variables_;
    const auto found = std::find(names.begin(), names.end(), name);
    push(Kind::variable, at, found - names.begin());
    if (found == names.end()) names.push_back(name);
  }
  void number() {
    const std::size_t at = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text_.data() + at, text_.data() + pos_, value);
    if (error != std::errc{}) fail(at, "number " + std::string(text_.substr(at, pos_ - at)) + " does not fit in 64 bits");
    skip_space();
    push(Kind::number, at, value);
  }
  void call(const std::string& name, std::size_t at) {
    struct Function { const char* name; Kind kind; int min_arguments, max_arguments; };
    static constexpr Function kFunctions[] = {{"ceil_div", Kind::ceil_div, 2, 2}, {"min", Kind::min, 2, INT32_MAX},
                                              {"max", Kind::max, 2, INT32_MAX}, {"pow2", Kind::pow2, 1, 1},
                                              {"log2", Kind::log2, 1, 1}};
    const auto* f = std::find_if(std::begin(kFunctions), std::end(kFunctions), [&](const Function& g) { return name == g.name; });
    if (f == std::end(kFunctions)) fail(at, "unknown function '" + name + "' (expected ceil_div, min, max, pow2, log2)");
    nest(at);
    take('(');
    int arguments = 0;
    do {
      sum();
      ++arguments;
    } while (take(','));
    if (!take(')')) fail(at, "unbalanced '(': no ')' closes the call of " + name);
    --depth_;
    if (arguments < f->min_arguments || arguments > f->max_arguments) {
      const std::string wanted = f->min_arguments == f->max_arguments ? std::to_string(f->min_arguments)
                                                                      : "at least 2";
      fail(at, name + " takes " + wanted + " arguments, not " + std::to_string(arguments));
    }
    push(f->kind, at, arguments);
  }

  std::string_view text_;
  Expression& out_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

Expression::Expression(std::string_view text) { Parser(text, *this).parse(0, false); }

std::vector<Expression> Expression::parse_list(std::string_view text) {
  std::vector<Expression> list;
  std::size_t pos = 0;
  do {
    Expression e;
    pos = Parser(text, e).parse(pos, true) + 1;  // past the comma
    list.push_back(std::move(e));
  } while (pos <= text.size());
  return list;
}

std::int64_t Expression::evaluate(std::span<const std::int64_t> values) const {
  std::vector<std::int64_t> stack;
  stack.reserve(nodes_.size());
  const auto pop = [&] {
    const std::int64_t top = stack.back();
    stack.pop_back();
    return top;
  };
  for (const Node& node : nodes_) {
    const auto fail = [&](const std::string& what) -> std::int64_t { throw Error(node.offset, what); };
    std::int64_t r = 0;
    switch (node.kind) {
      case Kind::number: r = node.value; break;
      case Kind::variable: r = values[static_cast<std::size_t>(node.value)]; break;
      case Kind::negate: {
        if (__builtin_sub_overflow(std::int64_t{0}, pop(), &r)) fail("64-bit overflow");
        break;
      }
      case Kind::min:
      case Kind::max: {
        r = pop();
        for (std::int64_t i = 1; i < node.value; ++i) r = node.kind == Kind::min ? std::min(r, pop()) : std::max(r, pop());
        break;
      }
      case Kind::pow2: {
        const std::int64_t k = pop();
        r = k >= 0 && k <= 62 ? std::int64_t{1} << k : fail("pow2(" + std::to_string(k) + "): needs 0 <= k <= 62");
        break;
      }
      case Kind::log2: {
        const std::int64_t x = pop();
        r = x > 0 ? std::bit_width(static_cast<std::uint64_t>(x)) - 1 : fail("log2 of " + std::to_string(x) + ", not a positive number");
        break;
      }
      default: {
        const std::int64_t b = pop();
        const std::int64_t a = pop();
        const bool quotient = node.kind == Kind::divide || node.kind == Kind::remainder || node.kind == Kind::ceil_div;
        if (quotient && b == 0) fail(node.kind == Kind::remainder ? "modulo by zero" : "division by zero");
        bool overflowed = quotient && a == INT64_MIN && b == -1 && node.kind != Kind::remainder;
        if (overflowed) fail("64-bit overflow");
        switch (node.kind) {
          case Kind::add: overflowed = __builtin_add_overflow(a, b, &r); break;
          case Kind::subtract: overflowed = __builtin_sub_overflow(a, b, &r); break;
          case Kind::multiply: overflowed = __builtin_mul_overflow(a, b, &r); break;
          case Kind::divide: r = a / b; break;
          case Kind::remainder: r = b == -1 ? 0 : a % b; break;  // INT64_MIN % -1 is undefined in C++
          default: r = a / b + (a % b != 0 && (a % b > 0) == (b > 0) ? 1 : 0); break;  // ceil_div
        }
        if (overflowed) fail("64-bit overflow");
      }
    }
    stack.push_back(r);
  }
  return stack.back();
}

}  // namespace warpsim::sim::expression

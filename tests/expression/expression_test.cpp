// The expression library of suites (sim/expression): every operator and function, precedence,
// the offsets of syntax errors and of errors at a point.
#include "warpsim/expression/expression.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::sim::expression {
namespace {

std::int64_t value(const std::string& text, std::vector<std::int64_t> values = {}) {
  return Expression(text).evaluate(values);
}

// The offset and message of the error that parsing (or evaluating at `values`) throws.
std::pair<std::size_t, std::string> error(const std::string& text, std::vector<std::int64_t> values = {}) {
  try {
    (void)Expression(text).evaluate(values);
  } catch (const Error& e) {
    return {e.offset(), e.what()};
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(Expression, Operators) {
  EXPECT_EQ(value("7+3"), 10);
  EXPECT_EQ(value("7-10"), -3);
  EXPECT_EQ(value("6*7"), 42);
  EXPECT_EQ(value("-(3)"), -3);
  EXPECT_EQ(value("--3"), 3);
  EXPECT_EQ(value(" 12 "), 12);
}

TEST(Expression, DivisionAndModuloTruncateTowardZeroLikeC) {
  EXPECT_EQ(value("7/2"), 3);
  EXPECT_EQ(value("-7/2"), -3);
  EXPECT_EQ(value("7/-2"), -3);
  EXPECT_EQ(value("-7/-2"), 3);
  EXPECT_EQ(value("7%3"), 1);
  EXPECT_EQ(value("-7%3"), -1);
  EXPECT_EQ(value("7%-3"), 1);
  EXPECT_EQ(value("N%-1", {INT64_MIN}), 0);
}

TEST(Expression, Functions) {
  EXPECT_EQ(value("ceil_div(7, 2)"), 4);
  EXPECT_EQ(value("ceil_div(8,2)"), 4);
  EXPECT_EQ(value("ceil_div(-7,2)"), -3);
  EXPECT_EQ(value("ceil_div(7,-2)"), -3);
  EXPECT_EQ(value("ceil_div(-7,-2)"), 4);
  EXPECT_EQ(value("ceil_div(0,5)"), 0);
  EXPECT_EQ(value("min(3, 1, 2)"), 1);
  EXPECT_EQ(value("max(3,1,2)"), 3);
  EXPECT_EQ(value("min(-4,4)"), -4);
  EXPECT_EQ(value("pow2(0)"), 1);
  EXPECT_EQ(value("pow2(10)"), 1024);
  EXPECT_EQ(value("pow2(62)"), std::int64_t{1} << 62);
  EXPECT_EQ(value("log2(1)"), 0);
  EXPECT_EQ(value("log2(1023)"), 9);
  EXPECT_EQ(value("log2(1024)"), 10);
  EXPECT_EQ(value("log2(N)", {INT64_MAX}), 62);
}

TEST(Expression, Precedence) {
  EXPECT_EQ(value("1+2*3"), 7);
  EXPECT_EQ(value("(1+2)*3"), 9);
  EXPECT_EQ(value("10-4-3"), 3);     // left to right
  EXPECT_EQ(value("64/4/2"), 8);
  EXPECT_EQ(value("7-5%3"), 5);
  EXPECT_EQ(value("2*-3"), -6);
  EXPECT_EQ(value("-2*-3+1"), 7);
  EXPECT_EQ(value("-(2+3)*2"), -10);
  EXPECT_EQ(value("pow2(1+2)*2"), 16);
}

TEST(Expression, AxisNames) {
  const Expression e("ceil_div(N, T) * ceil_div(N,T) + N_2");
  EXPECT_EQ(e.variables(), (std::vector<std::string>{"N", "T", "N_2"}));
  EXPECT_EQ(e.evaluate(std::vector<std::int64_t>{100, 16, 1}), 50);
  EXPECT_FALSE(e.is_name());
  EXPECT_TRUE(Expression(" N ").is_name());
  EXPECT_FALSE(Expression("16").is_name());
  EXPECT_EQ(Expression("min").variables(), std::vector<std::string>{"min"});  // a name, not a call
}

TEST(Expression, ListsSplitAtCommasOutsideParentheses) {
  const std::vector<Expression> list = Expression::parse_list("ceil_div(N,16), T ,1");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].text(), "ceil_div(N,16)");
  EXPECT_EQ(list[0].offset(), 0u);
  EXPECT_EQ(list[1].text(), "T");
  EXPECT_EQ(list[1].offset(), 16u);
  EXPECT_EQ(list[2].text(), "1");
  EXPECT_EQ(list[2].offset(), 19u);
  try {
    Expression::parse_list("1,(2");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 2u);
    EXPECT_EQ(std::string(e.what()), "unbalanced '(': no ')' closes it");
  }
}

TEST(Expression, SyntaxErrorsAtTheirCharacter) {
  using E = std::pair<std::size_t, std::string>;
  EXPECT_EQ(error(""), E(0, "expected a number, an axis name or '(' at the end"));
  EXPECT_EQ(error("N+"), E(2, "expected a number, an axis name or '(' at the end"));
  EXPECT_EQ(error("(N+1"), E(0, "unbalanced '(': no ')' closes it"));
  EXPECT_EQ(error("N+1)"), E(3, "unbalanced ')'"));
  EXPECT_EQ(error("1 $ 2"), E(2, "unexpected '$'"));
  EXPECT_EQ(error("N 2"), E(2, "unexpected '2'"));
  EXPECT_EQ(error("1,2"), E(1, "unexpected ','"));
  EXPECT_EQ(error("* 2"), E(0, "expected a number, an axis name or '(' at '*'"));
  EXPECT_EQ(error("sqrt(4)"), E(0, "unknown function 'sqrt' (expected ceil_div, min, max, pow2, log2)"));
  EXPECT_EQ(error("1 + ceil_div(1)"), E(4, "ceil_div takes 2 arguments, not 1"));
  EXPECT_EQ(error("min(1)"), E(0, "min takes at least 2 arguments, not 1"));
  EXPECT_EQ(error("log2(1, 2)"), E(0, "log2 takes 1 arguments, not 2"));
  EXPECT_EQ(error("max(1,"), E(6, "expected a number, an axis name or '(' at the end"));
  EXPECT_EQ(error("pow2(3"), E(0, "unbalanced '(': no ')' closes the call of pow2"));
  EXPECT_EQ(error("9223372036854775808"), E(0, "number 9223372036854775808 does not fit in 64 bits"));
  EXPECT_EQ(value("9223372036854775807"), INT64_MAX);
}

TEST(Expression, NestingIsBounded) {
  EXPECT_EQ(value(std::string(64, '(') + "5" + std::string(64, ')')), 5);
  EXPECT_EQ(error(std::string(65, '(') + "5" + std::string(65, ')')), std::make_pair(std::size_t{64}, std::string("expression nested more than 64 deep")));
  EXPECT_EQ(error(std::string(65, '-') + "5").second, "expression nested more than 64 deep");
  // A long chain is a loop in the parser and in evaluate(), not a recursion.
  std::string sum = "1";
  for (int i = 1; i < 100000; ++i) sum += "+1";
  EXPECT_EQ(value(sum), 100000);
}

TEST(Expression, ErrorsAtAPointNameTheOperator) {
  using E = std::pair<std::size_t, std::string>;
  EXPECT_EQ(error("N/(N-4)", {4}), E(1, "division by zero"));
  EXPECT_EQ(value("N/(N-4)", {6}), 3);
  EXPECT_EQ(error("1 + N%0", {4}), E(5, "modulo by zero"));
  EXPECT_EQ(error("ceil_div(N, 0)", {4}), E(0, "division by zero"));
  EXPECT_EQ(error("N*N", {std::int64_t{1} << 32}), E(1, "64-bit overflow"));
  EXPECT_EQ(error("N+1", {INT64_MAX}), E(1, "64-bit overflow"));
  EXPECT_EQ(error("N-1", {INT64_MIN}), E(1, "64-bit overflow"));
  EXPECT_EQ(error("-N", {INT64_MIN}), E(0, "64-bit overflow"));
  EXPECT_EQ(error("N/-1", {INT64_MIN}), E(1, "64-bit overflow"));
  EXPECT_EQ(error("ceil_div(N,-1)", {INT64_MIN}), E(0, "64-bit overflow"));
  EXPECT_EQ(error("pow2(63)"), E(0, "pow2(63): needs 0 <= k <= 62"));
  EXPECT_EQ(error("pow2(-1)"), E(0, "pow2(-1): needs 0 <= k <= 62"));
  EXPECT_EQ(error("log2(0)"), E(0, "log2 of 0, not a positive number"));
  EXPECT_EQ(error("2*log2(N)", {-8}), E(2, "log2 of -8, not a positive number"));
}

}  // namespace
}  // namespace warpsim::sim::expression

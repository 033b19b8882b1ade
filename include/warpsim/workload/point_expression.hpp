// An expression of a suite (a launch component, a kernel parameter) evaluated at points, with
// its errors located in the suite's file: at the character where parsing failed, or at the
// operator that failed at a point (division by zero, overflow).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/expression/expression.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

// `at` moved `offset` characters right along its line (unchanged when it has no line).
SourceLocation advanced(SourceLocation at, std::size_t offset);

class PointExpression {
 public:
  // `text` starts at `at` (no line: not from a file, e.g. a flag); `what` names it in messages
  // ("grid"). Throws InputError at the mistake.
  PointExpression(const std::string& text, SourceLocation at, std::string what);
  // "X,Y,Z": one expression per comma outside parentheses.
  static std::vector<PointExpression> parse_list(const std::string& text, const SourceLocation& at, const std::string& what);

  const std::string& text() const { return expression_.text(); }
  SourceLocation location() const { return advanced(at_, expression_.offset()); }
  const std::vector<std::string>& axes() const { return expression_.variables(); }
  bool is_axis_name() const { return expression_.is_name(); }
  // Throws InputError naming the axes the point lacks, or located at the failing operator.
  std::int64_t evaluate(const Point& point) const;

 private:
  PointExpression(expression::Expression expression, SourceLocation at, std::string what)
      : expression_(std::move(expression)), at_(std::move(at)), what_(std::move(what)) {}
  [[noreturn]] void fail(const expression::Error& e) const;

  expression::Expression expression_;
  SourceLocation at_;  // where the parsed text starts (for a list, the whole list)
  std::string what_;
};

}  // namespace warpsim::sim::workload

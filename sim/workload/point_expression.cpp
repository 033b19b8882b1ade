#include "warpsim/workload/point_expression.hpp"

namespace warpsim::sim::workload {

SourceLocation advanced(SourceLocation at, std::size_t offset) {
  if (at.line > 0) at.column += static_cast<int>(offset);
  return at;
}

namespace {

[[noreturn]] void fail_parse(const std::string& text, const SourceLocation& at, const std::string& what,
                             const expression::Error& e) {
  throw InputError(advanced(at, e.offset()), what + " " + quote_for_message(text) + ": " + e.what());
}

expression::Expression parse(const std::string& text, const SourceLocation& at, const std::string& what) {
  try {
    return expression::Expression(text);
  } catch (const expression::Error& e) {
    fail_parse(text, at, what, e);
  }
}

}  // namespace

PointExpression::PointExpression(const std::string& text, SourceLocation at, std::string what)
    : expression_(parse(text, at, what)), at_(std::move(at)), what_(std::move(what)) {}

std::vector<PointExpression> PointExpression::parse_list(const std::string& text, const SourceLocation& at,
                                                         const std::string& what) {
  std::vector<PointExpression> list;
  try {
    for (expression::Expression& e : expression::Expression::parse_list(text)) list.push_back(PointExpression(std::move(e), at, what));
  } catch (const expression::Error& e) {
    fail_parse(text, at, what, e);
  }
  return list;
}

std::int64_t PointExpression::evaluate(const Point& point) const {
  const std::vector<std::string>& names = expression_.variables();
  std::int64_t values[8];  // a launch component reads one or two axes: no allocation for those
  std::vector<std::int64_t> more(names.size() > 8 ? names.size() : 0);
  std::int64_t* into = more.empty() ? values : more.data();
  for (std::size_t i = 0; i < names.size(); ++i) into[i] = point_value(point, names[i]);
  try {
    return expression_.evaluate({into, names.size()});
  } catch (const expression::Error& e) {
    fail(e);
  }
}

void PointExpression::fail(const expression::Error& e) const {
  throw InputError(advanced(at_, e.offset()), what_ + " " + quote_for_message(expression_.text()) + ": " + e.what());
}

}  // namespace warpsim::sim::workload

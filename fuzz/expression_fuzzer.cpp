// libFuzzer harness: a suite's launch or params text -> Expression::parse_list, then evaluate
// every expression with its axes at a few values, extremes included. expression::Error is the
// expected answer to bad text or a value that cannot be computed; any other exception, crash,
// sanitizer report (signed overflow, deep recursion) or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "warpsim/expression/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace ex = warpsim::sim::expression;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const ex::Expression& e : ex::Expression::parse_list(text)) {
      for (const std::int64_t value : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, std::int64_t{7}, INT64_MAX, INT64_MIN}) {
        const std::vector<std::int64_t> values(e.variables().size(), value);
        try {
          (void)e.evaluate(values);
        } catch (const ex::Error&) {
          // Overflow, division by zero, log2 of a non-positive number: the normal answer.
        }
      }
    }
  } catch (const ex::Error&) {
    // A syntax error, at an offset: the normal answer.
  }
  return 0;
}

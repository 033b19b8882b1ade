// warpsim::parse_dim3, parse_cycles, parse_count, parse_counts, parse_names: option values as the
// commands spell them, one reading for the CLI and the bindings.
#include <stdexcept>

#include "views.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/isa/parameter_text.hpp"
#include "warpsim/isa/text_list.hpp"
#include "warpsim/isa/time.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim {

Dim3 parse_dim3(const std::string& text, const std::string& what) {
  const sim::grid::Dimensions d = sim::grid::parse_dimension_list(text, what);
  return Dim3{d.x, d.y, d.z};
}

double parse_cycles(const std::string& text, const std::string& what) {
  try {
    return isa::to_cycles(isa::parse_cycles(text));
  } catch (const std::invalid_argument& e) {
    throw InputError(what + " " + quote_for_message(text) + ": " + e.what());
  }
}

std::int64_t parse_count(const std::string& text, const std::string& what) { return isa::parse_count(text, what); }

std::map<std::string, std::int64_t> parse_counts(const Parameters& params) {
  const isa::ParameterValues values = isa::parse_parameter_values(params);
  return {values.begin(), values.end()};
}

std::vector<std::string> parse_names(const std::string& text, const std::string& what) { return split_names(text, what); }

}  // namespace warpsim

#include "sim/workload/workload_model.hpp"

#include "isa/input_error.hpp"

namespace warpsim::sim::workload {

std::int64_t point_value(const Point& point, std::string_view name) {
  for (const auto& [axis, value] : point) {
    if (axis == name) return value;
  }
  throw InputError("no value for " + quote_for_message(name) + " at the point " +
                   (point.empty() ? std::string("(no axes)") : describe_point(point)) + ": add an axis " + std::string(name));
}

std::string describe_point(const Point& point) {
  std::string text;
  for (const auto& [axis, value] : point) text += (text.empty() ? "" : " ") + axis + "=" + std::to_string(value);
  return text;
}

}  // namespace warpsim::sim::workload

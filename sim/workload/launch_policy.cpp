#include "sim/workload/launch_policy.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "isa/text_list.hpp"
#include "isa/input_error.hpp"

namespace warpsim::sim::workload {
namespace {


bool is_whole_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::int64_t component_value(const std::string& text, const Point& point, const std::string& what) {
  if (is_whole_number(text)) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) throw InputError(what + " " + text + " is too large");
    return value;
  }
  return point_value(point, text);
}

grid::Dimensions dimensions(const std::string& text, const Point& point, const std::string& what) {
  const std::vector<std::string> parts = split_commas(text);
  if (parts.size() > 3) throw InputError(what + " " + quote_for_message(text) + " has more than 3 dimensions");
  std::int64_t values[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    values[i] = component_value(parts[i], point, what);
    if (values[i] < 1) throw InputError(what + " " + quote_for_message(text) + " gives " + std::to_string(values[i]) + ", not a positive size");
  }
  grid::Dimensions d{values[0], values[1], values[2]};
  std::int64_t product = 0;
  if (__builtin_mul_overflow(d.x, d.y, &product) || __builtin_mul_overflow(product, d.z, &product)) {
    throw InputError(what + " " + quote_for_message(text) + " overflows");
  }
  return d;
}

}  // namespace

void LaunchPolicy::validate() const {
  const bool fixed = !grid.empty();
  if (fixed && !threads.empty()) throw InputError("launch: give 'threads' (with an optional 'block') or 'grid' and 'block', not both");
  if (fixed && block.empty()) throw InputError("launch: 'grid' needs 'block'");
  if (!fixed && threads.empty()) throw InputError("launch: give 'threads' (Algorithm 3), 'threads' and 'block', or 'grid' and 'block'");
  for (const std::string* text : {&threads, &grid, &block}) {
    if (text->empty()) continue;
    for (const std::string& part : split_commas(*text)) {
      const bool name = !part.empty() && !std::isdigit(static_cast<unsigned char>(part[0])) &&
                        std::all_of(part.begin(), part.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      if (!is_whole_number(part) && !name) throw InputError("launch: " + quote_for_message(*text) + " is not a list of whole numbers and axis names");
    }
  }
  if (!threads.empty() && split_commas(threads).size() != 1) throw InputError("launch: 'threads' is one number or axis, not a shape");
}

std::vector<std::string> LaunchPolicy::axes() const {
  std::vector<std::string> names;
  for (const std::string* text : {&threads, &grid, &block}) {
    if (text->empty()) continue;
    for (const std::string& part : split_commas(*text)) {
      if (!is_whole_number(part) && std::find(names.begin(), names.end(), part) == names.end()) names.push_back(part);
    }
  }
  return names;
}

LaunchShape LaunchPolicy::resolve(const gpus::Profile& gpu, const Point& point) const {
  if (!grid.empty()) {
    LaunchShape shape{dimensions(grid, point, "grid"), dimensions(block, point, "block"), 0};
    if (__builtin_mul_overflow(shape.grid.count(), shape.block.count(), &shape.threads)) throw InputError("grid x block overflows");
    return shape;
  }
  const std::int64_t total = component_value(threads, point, "threads");
  if (total < 1) throw InputError("threads = " + std::to_string(total) + ": a launch needs at least one thread");
  if (block.empty()) {
    const grid::Launch launch = grid::suggest_launch(gpu, total);
    return {{launch.blocks, 1, 1}, {launch.threads_per_block, 1, 1}, total};
  }
  const grid::Dimensions shape = dimensions(block, point, "block");
  return {{(total + shape.count() - 1) / shape.count(), 1, 1}, shape, total};
}

}  // namespace warpsim::sim::workload

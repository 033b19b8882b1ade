#include "warpsim/workload/launch_policy.hpp"

#include <algorithm>

namespace warpsim::sim::workload {
namespace {

std::vector<PointExpression> components(const std::string& text, const SourceLocation& at, const std::string& what) {
  if (text.empty()) return {};
  std::vector<PointExpression> parts = PointExpression::parse_list(text, at, what);
  if (parts.size() > 3) throw InputError(at, what + " " + quote_for_message(text) + " has more than 3 dimensions");
  return parts;
}

std::int64_t positive(const PointExpression& part, const Point& point, const std::string& what) {
  const std::int64_t value = part.evaluate(point);
  if (value < 1) throw InputError(what + " " + quote_for_message(part.text()) + " gives " + std::to_string(value) + ", not a positive size");
  return value;
}

grid::Dimensions dimensions(const std::vector<PointExpression>& parts, const Point& point, const std::string& what) {
  std::int64_t values[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) values[i] = positive(parts[i], point, what);
  grid::Dimensions d{values[0], values[1], values[2]};
  std::int64_t product = 0;
  if (__builtin_mul_overflow(d.x, d.y, &product) || __builtin_mul_overflow(product, d.z, &product)) {
    throw InputError(what + " " + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + " overflows");
  }
  return d;
}

}  // namespace

LaunchFormula::LaunchFormula(const LaunchPolicy& policy)
    : threads_(components(policy.threads, policy.threads_at, "threads")),
      grid_(components(policy.grid, policy.grid_at, "grid")),
      block_(components(policy.block, policy.block_at, "block")) {
  const bool fixed = !grid_.empty();
  if (fixed && !threads_.empty()) throw InputError("launch: give 'threads' (with an optional 'block') or 'grid' and 'block', not both");
  if (fixed && block_.empty()) throw InputError("launch: 'grid' needs 'block'");
  if (!fixed && threads_.empty()) throw InputError("launch: give 'threads' (Algorithm 3), 'threads' and 'block', or 'grid' and 'block'");
  if (threads_.size() > 1) throw InputError("launch: 'threads' is one number or expression, not a shape");
  for (const PointExpression* part : expressions()) {
    for (const std::string& axis : part->axes()) {
      if (std::find(axes_.begin(), axes_.end(), axis) == axes_.end()) axes_.push_back(axis);
    }
  }
}

std::vector<const PointExpression*> LaunchFormula::expressions() const {
  std::vector<const PointExpression*> all;
  for (const auto* parts : {&threads_, &grid_, &block_}) {
    for (const PointExpression& part : *parts) all.push_back(&part);
  }
  return all;
}

LaunchShape LaunchFormula::resolve(const gpus::Profile& gpu, const Point& point) const {
  if (!grid_.empty()) {
    LaunchShape shape{dimensions(grid_, point, "grid"), dimensions(block_, point, "block"), 0};
    if (__builtin_mul_overflow(shape.grid.count(), shape.block.count(), &shape.threads)) throw InputError("grid x block overflows");
    return shape;
  }
  const std::int64_t total = threads_[0].evaluate(point);
  if (total < 1) throw InputError("threads = " + std::to_string(total) + ": a launch needs at least one thread");
  if (block_.empty()) {
    const grid::Launch launch = grid::suggest_launch(gpu, total);
    return {{launch.blocks, 1, 1}, {launch.threads_per_block, 1, 1}, total};
  }
  const grid::Dimensions shape = dimensions(block_, point, "block");
  return {{(total + shape.count() - 1) / shape.count(), 1, 1}, shape, total};
}

}  // namespace warpsim::sim::workload

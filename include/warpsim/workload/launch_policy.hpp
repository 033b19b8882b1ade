// How a suite or a calibration launches a workload at a point (docs/formats.md, suites):
//   threads = "N"                  Algorithm 3 for N threads (the paper's heuristic)
//   threads = "N", block = "256"   N threads in blocks of 256: ceil(N / 256) blocks
//   grid = "64", block = "128"     a fixed launch; PTX kernels may give "X,Y,Z" shapes
// Each component is an expression over the point's axes ("ceil_div(N, 16)"); a whole number
// or an axis name is the simplest one.
#pragma once

#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/workload/point_expression.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

struct LaunchShape {
  grid::Dimensions grid;
  grid::Dimensions block;
  std::int64_t threads = 0;  // threads asked for: `threads`, or grid x block for a fixed launch
  grid::Launch flat() const { return {grid.count(), block.count()}; }
};

struct LaunchPolicy {
  std::string threads;  // total threads, for Algorithm 3 or with `block`
  std::string grid;     // blocks: "B" or "X,Y,Z"
  std::string block;    // threads per block: "T" or "X,Y,Z"
  // Where each text starts in a suite (past the opening quote), so that errors point into it;
  // no line when it came from a flag.
  SourceLocation threads_at{}, grid_at{}, block_at{};
};

// A fixed launch: `grid` blocks of `block` threads, each "N" or "X,Y,Z" (or expressions).
inline LaunchPolicy fixed_launch(std::string grid, std::string block) {
  LaunchPolicy policy;
  policy.grid = std::move(grid);
  policy.block = std::move(block);
  return policy;
}

// A LaunchPolicy parsed once, for a model to resolve at every point.
class LaunchFormula {
 public:
  // Checks the combination (threads; threads + block; grid + block) and parses each component.
  // Throws InputError, located in the component's text where it has a location.
  explicit LaunchFormula(const LaunchPolicy& policy);
  // The axis names the components read, in order of appearance.
  const std::vector<std::string>& axes() const { return axes_; }
  // Every component, threads then grid then block.
  std::vector<const PointExpression*> expressions() const;
  // Throws InputError for a missing axis, a failing expression, a non-positive size or an overflow.
  LaunchShape resolve(const gpus::Profile& gpu, const Point& point) const;

 private:
  std::vector<PointExpression> threads_, grid_, block_;  // empty when not given
  std::vector<std::string> axes_;
};

}  // namespace warpsim::sim::workload

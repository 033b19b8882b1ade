// How a suite or a calibration launches a workload at a point (docs/formats.md, suites):
//   threads = "N"                  Algorithm 3 for N threads (the paper's heuristic)
//   threads = "N", block = "256"   N threads in blocks of 256: ceil(N / 256) blocks
//   grid = "64", block = "128"     a fixed launch; PTX kernels may give "X,Y,Z" shapes
// Each component is a whole number or the name of an axis of the point.
#pragma once

#include <string>
#include <vector>

#include "gpus/profile.hpp"
#include "sim/grid/launch.hpp"
#include "sim/workload/workload_model.hpp"

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

  // Checks the combination (threads; threads + block; grid + block). Throws InputError.
  void validate() const;
  // The axis names the policy reads, in order of appearance.
  std::vector<std::string> axes() const;
  // Throws InputError for a missing axis, a non-positive size or an overflow.
  LaunchShape resolve(const gpus::Profile& gpu, const Point& point) const;
};

}  // namespace warpsim::sim::workload

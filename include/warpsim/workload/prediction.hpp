// What a workload's prediction reports at one point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/grid.hpp"

namespace warpsim::sim::workload {

struct Prediction {
  std::int64_t elements = 0;       // 1D size transformed: N, or N * (N + K - 2) in 2D
  std::int64_t total_threads = 0;  // threads asked of Algorithm 3 per launch
  grid::Launch launch;             // per launch
  std::int64_t launches = 0;
  grid::GridTiming per_launch;     // T_k of one launch
  gpus::Calibration calibration;
  double time_us = 0;              // launches * T_k
  std::vector<std::string> warnings;  // the PTX frontend's for this point, as message lines
};

}  // namespace warpsim::sim::workload

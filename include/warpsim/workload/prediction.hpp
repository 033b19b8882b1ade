// What a workload's prediction reports at one point.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/isa/program.hpp"

#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/sass_stream.hpp"

namespace warpsim::ptx {
struct LoweredKernel;
}

namespace warpsim::sim::workload {

// What a PTX workload's prediction timed, for the reports of `simulate`.
struct PtxTimed {
  std::shared_ptr<const ptx::LoweredKernel> kernel;  // as lowered (with the default load and store cycles)
  std::vector<isa::Program> retimed;                 // its programs with d1 and d2; empty: unchanged
  std::optional<std::int64_t> registers_per_thread;  // memory model: what occupancy used
  std::string registers_source;                      // "--regs", "ptxas -arch=sm_75", "default"
  std::shared_ptr<const SassStream> sass;            // the pipes model's stream (listing null: PTX order); null for other models
  const std::vector<isa::Program>* programs_or_null() const { return retimed.empty() ? nullptr : &retimed; }
};

struct Prediction {
  std::int64_t elements = 0;       // 1D size transformed: N, or N * (N + K - 2) in 2D
  std::int64_t total_threads = 0;  // threads asked of Algorithm 3 per launch
  grid::Launch launch;             // per launch
  std::int64_t launches = 0;
  grid::GridTiming per_launch;     // T_k of one launch
  gpus::Calibration calibration;
  double time_us = 0;              // launches * T_k (back_to_back_us: following launches' own t_p)
  std::vector<std::string> warnings;  // the PTX frontend's for this point, as message lines
  std::shared_ptr<const PtxTimed> ptx;  // PTX workloads only
};

}  // namespace warpsim::sim::workload

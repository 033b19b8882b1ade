// Which timing model a prediction uses (docs/model.md): the paper's (Algorithms 1-3 exactly; every
// load costs t_m and its d_i) or the memory-aware one (the default: annotated accesses priced from
// the profile, barriers, occupancy from registers and shared memory). A program without memory
// annotations times the same under both.
#pragma once

#include <optional>
#include <string>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"

namespace warpsim::sim::workload {

enum class TimingModel { paper, memory };

// "paper" or "memory"; InputError otherwise.
TimingModel parse_timing_model(const std::string& text);
const char* to_string(TimingModel model);

// Under the memory-aware model, what a calibration leaves out: t_p from the profile's
// launch_overhead_us, t_m the default front-end time per transaction. The paper's model adds
// nothing (a missing t_p or t_m stays an error).
gpus::CalibrationChoice with_model_defaults(const gpus::Profile& gpu, gpus::CalibrationChoice choice, TimingModel model);

// Registers per thread assumed when neither --regs, a suite's `regs` nor ptxas gives them.
inline constexpr std::int64_t kDefaultRegistersPerThread = 32;

// Under the memory-aware model, the launch with its resident blocks per SM limited by registers
// and shared memory as well (sim/occupancy, cuda_occupancy.h's rules); unchanged under the paper's.
grid::Launch with_occupancy(const gpus::Profile& gpu, grid::Launch launch, TimingModel model,
                            std::int64_t registers_per_thread, std::int64_t shared_bytes);

// The engine options for one launch: under the memory-aware model, the launch's MemoryTiming and
// barrier layout added to `base`. Holds the timing the options point to: keep it alive while they are used.
class LaunchEngine {
 public:
  LaunchEngine(const gpus::Profile& gpu, const grid::Launch& launch, TimingModel model, isa::Millicycles tm,
               const core::CoreOptions& base = {});
  LaunchEngine(const LaunchEngine&) = delete;
  LaunchEngine& operator=(const LaunchEngine&) = delete;
  const core::CoreOptions& options() const { return options_; }

 private:
  std::optional<core::MemoryTiming> memory_;
  core::CoreOptions options_;
};

}  // namespace warpsim::sim::workload

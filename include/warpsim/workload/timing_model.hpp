// What the timing model (warpsim::Model, isa/model.hpp) changes besides the core-package timing
// (workload/model_spec.hpp): the calibration's defaults and the launch's occupancy.
#pragma once

#include <optional>
#include <string>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/isa/model.hpp"

namespace warpsim::sim::workload {

// Under the memory-aware model, what a calibration leaves out: t_p from the profile's
// launch_overhead_us, t_m the default front-end time per transaction. The paper's model adds
// nothing (a missing t_p or t_m stays an error).
gpus::CalibrationChoice with_model_defaults(const gpus::Profile& gpu, gpus::CalibrationChoice choice, Model model);

// T of `launches` launches of one kernel back to back in one stream, each taking `launch_us` with
// its t_p `tp_us`: under the memory and pipes models, every launch after the first adds the
// profile's launch_overhead_back_to_back_us (measured; docs/profiles.md) instead of t_p, where the
// profile has it; otherwise (and under the paper's model) launches * launch_us.
double back_to_back_us(const gpus::Profile& gpu, Model model, std::int64_t launches, double launch_us, double tp_us);

// Registers per thread assumed when neither --regs, a suite's `regs` nor ptxas gives them.
inline constexpr std::int64_t kDefaultRegistersPerThread = 32;

// Under the memory-aware model, the launch with its resident blocks per SM limited by registers
// and shared memory as well (sim/occupancy, cuda_occupancy.h's rules); unchanged under the paper's.
// `shared_bytes` is the kernel's static shared memory, `dynamic_shared_bytes` the launch's.
grid::Launch with_occupancy(const gpus::Profile& gpu, grid::Launch launch, Model model,
                            std::int64_t registers_per_thread, std::int64_t shared_bytes,
                            std::int64_t dynamic_shared_bytes = 0);

}  // namespace warpsim::sim::workload

// The timing of a sampled launch (docs/ptx.md, "Sampling"): its mean over several arrangements
// of the sampled blocks, with the 95% prediction interval for the real launch.
#pragma once

#include "warpsim/grid/grid.hpp"
#include "warpsim/ptx/lowering.hpp"

namespace warpsim::sim::workload {

// `planned` as time_grid_mixed takes it; `core_time` prices one core package of warp programs
// (ids into the lowered kernel's programs), and is called from several threads at once (the
// arrangements are timed in parallel). Sets GridTiming::low_us and high_us.
grid::GridTiming time_sampled_launch(const gpus::Profile& gpu, const grid::Launch& planned, double tp_us,
                                     const ptx::Sampling& sampling, const grid::MixedCoreTime& core_time);

}  // namespace warpsim::sim::workload

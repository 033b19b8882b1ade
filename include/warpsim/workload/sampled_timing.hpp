// The timing of a sampled launch (docs/ptx.md, "Sampling"): its mean over several arrangements
// of the sampled blocks, with the 95% prediction interval for the real launch.
#pragma once

#include <cstdint>
#include <vector>

#include "warpsim/grid/grid.hpp"
#include "warpsim/ptx/lowering.hpp"

namespace warpsim::sim::workload {

// `planned` as time_grid_mixed takes it; `core_time` prices one core package of warp programs
// (ids into the lowered kernel's programs), and is called from several threads at once (the
// arrangements are timed in parallel). Sets GridTiming::low_us and high_us; for a launch of one
// wave the upper end also allows for unseen blocks costlier than any sampled (unseen_block_ratio).
grid::GridTiming time_sampled_launch(const gpus::Profile& gpu, const grid::Launch& planned, double tp_us,
                                     const ptx::Sampling& sampling, const grid::MixedCoreTime& core_time);

// How much costlier than the costliest of `sampled` (each sampled block's time alone on an SM)
// the costliest of `unseen` more blocks may be, at 97.5%: with a normal fit of the sampled times
// (mean m, deviation s), (m + z s) / max where Phi(z)^unseen = 0.975; at least 1, and 1 when
// fewer than two blocks were sampled, none is unseen or all sampled times are equal. A normal
// tail suits costs that are sums of many small parts (a light tail); a heavier tail than the
// normal's would be under-covered.
double unseen_block_ratio(const std::vector<double>& sampled, std::int64_t unseen);

}  // namespace warpsim::sim::workload

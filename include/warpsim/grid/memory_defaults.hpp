// The memory-aware model's constants for one launch on one GPU, from the profile's figures
// (docs/model.md, "Memory-aware timing"; each figure's source is in the profile).
#pragma once

#include "warpsim/gpus/profile.hpp"
#include "warpsim/core/memory_timing.hpp"
#include "warpsim/grid/grid.hpp"

namespace warpsim::sim::grid {

// The front end's default t_m under the memory-aware model: the SM's L1/shared pipeline serves one
// 128-byte line (or one shared-memory pass) per cycle, shared by its N_cp core packages.
isa::Millicycles default_issue_per_transaction(const gpus::Profile& gpu);

// The DRAM bandwidth the model gives the GPU, GB/s: the achievable figure (a stream kernel's,
// measured and cited in the profile; at most the peak) where there is one, else the theoretical
// peak. Throws InputError when neither is given.
double dram_bandwidth_gbs(const gpus::Profile& gpu);

// Per-access prices for `launch` (planned as `plan`): latencies from the profile, DRAM bandwidth
// split evenly over the SMs that have blocks and their core packages, and the L2 shared evenly by
// the blocks resident at once (for the hit rate of reused data, core::cache_hit_rate). Throws
// InputError naming a missing profile figure.
core::MemoryTiming memory_timing(const gpus::Profile& gpu, const Launch& launch, const GridPlan& plan,
                                 isa::Millicycles issue_per_transaction);

}  // namespace warpsim::sim::grid

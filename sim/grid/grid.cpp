#include "sim/grid/grid.hpp"

#include <algorithm>

#include "isa/input_error.hpp"

namespace warpsim::sim::grid {
namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }
__extension__ typedef __int128 Wide;  // GCC/Clang 128-bit integer, for exact products
}  // namespace

GridPlan plan_grid(const gpus::Profile& gpu, const Launch& launch) {
  validate_launch(gpu, launch);
  GridPlan plan;
  plan.blocks_per_sm = ceil_div(launch.blocks, gpu.sm_count);
  plan.warps_per_block = ceil_div(launch.threads_per_block, 32);
  plan.core_packages_per_sm = gpu.core_packages_per_sm();
  plan.active_blocks_per_sm = std::min({plan.blocks_per_sm, gpu.max_warps_per_sm / plan.warps_per_block,
                                        gpu.max_blocks_per_sm});
  if (plan.active_blocks_per_sm < 1) throw InputError("no block of this launch fits on an SM");
  plan.warps_per_core_package =
      ceil_div(plan.active_blocks_per_sm * plan.warps_per_block, plan.core_packages_per_sm);
  plan.full_runs = plan.blocks_per_sm / plan.active_blocks_per_sm;
  plan.remaining_blocks = plan.blocks_per_sm % plan.active_blocks_per_sm;
  plan.remaining_warps_per_core_package =
      ceil_div(plan.remaining_blocks * plan.warps_per_block, plan.core_packages_per_sm);
  plan.remaining_runs = plan.remaining_blocks > 0 ? 1 : 0;
  return plan;
}

GridTiming time_grid(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                     const CoreTime& core_time) {
  GridTiming timing;
  timing.plan = plan_grid(gpu, launch);
  timing.full_run_cycles = core_time(timing.plan.warps_per_core_package);
  if (timing.plan.remaining_runs > 0) {
    timing.remaining_run_cycles = core_time(timing.plan.remaining_warps_per_core_package);
  }
  // Exact in 128 bits; full_runs < 2^31 and run times < 2^63.
  const Wide total = static_cast<Wide>(timing.plan.full_runs) * timing.full_run_cycles +
                         static_cast<Wide>(timing.plan.remaining_runs) * timing.remaining_run_cycles;
  timing.cycles = static_cast<double>(total) / static_cast<double>(isa::kMillicyclesPerCycle);
  timing.tp_us = tp_us;
  timing.time_us = tp_us + timing.cycles / gpu.clock_mhz;
  return timing;
}

}  // namespace warpsim::sim::grid

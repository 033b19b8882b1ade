#include "warpsim/grid/grid.hpp"

#include <algorithm>
#include <cstdint>

#include "grid_cycles.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/memory_timing.hpp"

namespace warpsim::sim::grid {

GridPlan plan_grid(const gpus::Profile& gpu, const Launch& launch) {
  GridPlan plan;
  plan_grid(gpu, launch, plan);
  return plan;
}

void plan_grid(const gpus::Profile& gpu, const Launch& launch, GridPlan& plan) {
  validate_launch(gpu, launch);
  plan.blocks_per_sm = ceil_div(launch.blocks, gpu.sm_count);
  plan.warps_per_block = ceil_div(launch.threads_per_block, 32);
  plan.core_packages_per_sm = launch.core_packages_per_sm > 0 ? launch.core_packages_per_sm : gpu.core_packages_per_sm();
  // min(N_sb, floor(L_w/sm / N_wb), L_b/sm); when N_sb * N_wb <= L_w/sm the first term is at most
  // the second, and no division is needed.
  std::int64_t warps = 0;
  const bool all_fit = !__builtin_mul_overflow(plan.blocks_per_sm, plan.warps_per_block, &warps) && warps <= gpu.max_warps_per_sm;
  const std::int64_t fit_by_warps = all_fit ? plan.blocks_per_sm : gpu.max_warps_per_sm / plan.warps_per_block;
  plan.active_blocks_per_sm = std::min(fit_by_warps, gpu.max_blocks_per_sm);
  if (launch.resident_blocks_limit > 0) plan.active_blocks_per_sm = std::min(plan.active_blocks_per_sm, launch.resident_blocks_limit);
  if (plan.active_blocks_per_sm < 1) throw InputError("no block of this launch fits on an SM");
  plan.warps_per_core_package =
      ceil_div(plan.active_blocks_per_sm * plan.warps_per_block, plan.core_packages_per_sm);
  if (plan.active_blocks_per_sm == plan.blocks_per_sm) {  // one run (the quotient and remainder without dividing)
    plan.full_runs = 1;
    plan.remaining_blocks = 0;
  } else {
    plan.full_runs = plan.blocks_per_sm / plan.active_blocks_per_sm;
    plan.remaining_blocks = plan.blocks_per_sm % plan.active_blocks_per_sm;
  }
  plan.remaining_warps_per_core_package =
      ceil_div(plan.remaining_blocks * plan.warps_per_block, plan.core_packages_per_sm);
  plan.remaining_runs = plan.remaining_blocks > 0 ? 1 : 0;
}

GridTiming time_grid(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                     const CoreTime& core_time) {
  GridTiming timing;
  time_grid(gpu, launch, tp_us, core_time, timing);
  return timing;
}

void total_time(const gpus::Profile& gpu, double tp_us, GridTiming& timing) {
  // Exact in 128 bits; full_runs < 2^31 and run times < 2^63.
  const Wide total = static_cast<Wide>(timing.plan.full_runs) * timing.full_run_cycles +
                     static_cast<Wide>(timing.plan.remaining_runs) * timing.remaining_run_cycles;
  timing.cycles = to_cycles(total);
  set_time(gpu, tp_us, timing);
}

}  // namespace warpsim::sim::grid

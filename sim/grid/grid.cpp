#include "warpsim/grid/grid.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/memory_timing.hpp"

namespace warpsim::sim::grid {
namespace {
__extension__ typedef __int128 Wide;  // GCC/Clang 128-bit integer, for exact products

// Millicycles to cycles. A total within 64 bits (always, in practice) converts without the
// library call that a 128-bit conversion needs; the result is the same double.
double to_cycles(Wide millicycles) {
  const bool narrow = millicycles <= INT64_MAX && millicycles >= INT64_MIN;
  const double value = narrow ? static_cast<double>(static_cast<std::int64_t>(millicycles)) : static_cast<double>(millicycles);
  return value / static_cast<double>(isa::kMillicyclesPerCycle);
}
}  // namespace

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

namespace {

// T_k = t_p + cycles / F, once the cycles are known.
void set_time(const gpus::Profile& gpu, double tp_us, GridTiming& timing) {
  timing.tp_us = tp_us;
  timing.time_us = tp_us + timing.cycles / gpu.clock_mhz;
}

}  // namespace

void total_time(const gpus::Profile& gpu, double tp_us, GridTiming& timing) {
  // Exact in 128 bits; full_runs < 2^31 and run times < 2^63.
  const Wide total = static_cast<Wide>(timing.plan.full_runs) * timing.full_run_cycles +
                     static_cast<Wide>(timing.plan.remaining_runs) * timing.remaining_run_cycles;
  timing.cycles = to_cycles(total);
  set_time(gpu, tp_us, timing);
}

GridTiming time_grid_mixed(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                           std::optional<std::uint32_t> uniform, const ProgramOfWarp& program_of,
                           const MixedCoreTime& core_time) {
  const GridPlan plan = plan_grid(gpu, launch);
  if (uniform) {
    return time_grid(gpu, launch, tp_us, [&](std::int64_t count) {
      const std::vector<std::uint32_t> same(static_cast<std::size_t>(count), *uniform);
      return core_time(same, 0);
    });
  }
  // Packages with the same programs time the same when their warps fall into blocks alike (the
  // partition, not the blocks' numbers, matters to barriers): the key is both.
  const auto block_partition = [&](std::int64_t package, std::size_t warps) {
    const core::BarrierLayout layout{plan.core_packages_per_sm, plan.warps_per_block, package};
    std::vector<bool> same_block_as_previous(warps);
    for (std::size_t k = 1; k < warps; ++k) {
      same_block_as_previous[k] = layout.block_of(static_cast<std::int64_t>(k)) == layout.block_of(static_cast<std::int64_t>(k) - 1);
    }
    return same_block_as_previous;
  };
  std::map<std::pair<std::vector<bool>, std::vector<std::uint32_t>>, isa::Millicycles> memo;
  std::map<std::pair<std::int64_t, std::size_t>, std::vector<bool>> partitions;  // by package and warp count
  const auto core_package_time = [&](std::int64_t package, const std::vector<std::uint32_t>& ids) {
    auto [known, added] = partitions.try_emplace({package, ids.size()});
    if (added) known->second = block_partition(package, ids.size());
    auto key = std::pair(known->second, ids);
    const auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    const isa::Millicycles t = core_time(ids, package);
    memo.emplace(std::move(key), t);
    return t;
  };
  GridTiming timing;
  timing.plan = plan;
  Wide slowest_sm = 0;
  const std::int64_t sms = std::min(gpu.sm_count, launch.blocks);
  std::vector<std::vector<std::uint32_t>> packages(static_cast<std::size_t>(plan.core_packages_per_sm));
  // Most runs repeat the one before (the same programs in the same packages): their time is known.
  std::vector<std::vector<std::uint32_t>> previous;
  isa::Millicycles previous_run = -1;
  for (std::int64_t sm = 0; sm < sms; ++sm) {
    const std::int64_t blocks_here = (launch.blocks - sm + gpu.sm_count - 1) / gpu.sm_count;
    Wide total = 0;
    for (std::int64_t first = 0; first < blocks_here; first += plan.active_blocks_per_sm) {
      for (auto& p : packages) p.clear();
      const std::int64_t last = std::min(blocks_here, first + plan.active_blocks_per_sm);
      std::size_t dealt = 0;
      for (std::int64_t j = first; j < last; ++j) {
        const std::int64_t block = j * gpu.sm_count + sm;
        for (std::int64_t w = 0; w < plan.warps_per_block; ++w) {
          packages[dealt++ % packages.size()].push_back(program_of(block, w));
        }
      }
      isa::Millicycles run = 0;
      if (previous_run >= 0 && packages == previous) {
        run = previous_run;
      } else {
        for (std::size_t p = 0; p < packages.size(); ++p) {
          if (!packages[p].empty()) run = std::max(run, core_package_time(static_cast<std::int64_t>(p), packages[p]));
        }
        previous = packages;
        previous_run = run;
      }
      isa::Millicycles& longest = last - first == plan.active_blocks_per_sm ? timing.full_run_cycles : timing.remaining_run_cycles;
      longest = std::max(longest, run);
      total += run;
    }
    slowest_sm = std::max(slowest_sm, total);
  }
  timing.cycles = to_cycles(slowest_sm);
  set_time(gpu, tp_us, timing);
  return timing;
}

}  // namespace warpsim::sim::grid

#include "warpsim/grid/grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "warpsim/isa/input_error.hpp"
#include "support/test_gpu.hpp"

namespace warpsim::sim::grid {
namespace {

using testing_support::small_gpu;

// A stand-in for T_c: 1000 cycles per warp, so each run's share is visible in the total.
isa::Millicycles thousand_cycles_per_warp(std::int64_t warps) { return warps * 1'000'000; }

// GPU: 2 SMs, 64 cores (N_cp = 2), L_b = 4, L_w = 16, F = 1000 MHz. Launch 11 x 100:
//   N_sb = ceil(11/2) = 6, N_wb = ceil(100/32) = 4, N_ab = min(6, floor(16/4) = 4, 4) = 4,
//   warps/CP = ceil(4*4/2) = 8, N_r = floor(6/4) = 1, R = 6 mod 4 = 2, Rbar warps/CP = ceil(2*4/2) = 4.
//   T_k = t_p + (1 * 8000 + 1 * 4000) / 1000 = 3 + 12 us.
TEST(GridAlgorithm1, RemainderRun) {
  const GridTiming timing = time_grid(small_gpu(), {11, 100}, 3.0, thousand_cycles_per_warp);
  const GridPlan& p = timing.plan;
  EXPECT_EQ(p.blocks_per_sm, 6);
  EXPECT_EQ(p.warps_per_block, 4);
  EXPECT_EQ(p.core_packages_per_sm, 2);
  EXPECT_EQ(p.active_blocks_per_sm, 4);
  EXPECT_EQ(p.warps_per_core_package, 8);
  EXPECT_EQ(p.full_runs, 1);
  EXPECT_EQ(p.remaining_blocks, 2);
  EXPECT_EQ(p.remaining_warps_per_core_package, 4);
  EXPECT_EQ(p.remaining_runs, 1);
  EXPECT_EQ(timing.full_run_cycles, 8'000'000);
  EXPECT_EQ(timing.remaining_run_cycles, 4'000'000);
  EXPECT_DOUBLE_EQ(timing.cycles, 12'000);
  EXPECT_DOUBLE_EQ(timing.time_us, 15.0);
}

// Erratum case: 20 blocks -> N_sb = 10, N_ab = 4, so N_r = floor(10/4) = 2 (the paper's line 19,
// N_ab/N_ab, would give 1) and one remaining run of R = 2 blocks (line 20, a fraction, would
// give 2/4). T_k = 0 + (2 * 8000 + 1 * 4000) / 1000 = 20 us.
TEST(GridAlgorithm1, ErrataFullRunsAndOneRemainingRun) {
  const GridTiming timing = time_grid(small_gpu(), {20, 100}, 0.0, thousand_cycles_per_warp);
  EXPECT_EQ(timing.plan.full_runs, 2);
  EXPECT_EQ(timing.plan.remaining_blocks, 2);
  EXPECT_EQ(timing.plan.remaining_runs, 1);
  EXPECT_DOUBLE_EQ(timing.cycles, 20'000);
  EXPECT_DOUBLE_EQ(timing.time_us, 20.0);
}

// 16 blocks: N_sb = 8 = 2 * N_ab, no remaining run, and T_c is never asked for 0 warps.
TEST(GridAlgorithm1, NoRemainderNoRemainingRun) {
  std::vector<std::int64_t> asked;
  const GridTiming timing = time_grid(small_gpu(), {16, 100}, 1.5, [&](std::int64_t warps) {
    asked.push_back(warps);
    return thousand_cycles_per_warp(warps);
  });
  EXPECT_EQ(asked, std::vector<std::int64_t>{8});
  EXPECT_EQ(timing.plan.full_runs, 2);
  EXPECT_EQ(timing.plan.remaining_runs, 0);
  EXPECT_DOUBLE_EQ(timing.time_us, 1.5 + 16.0);
}

// Blocks limited by L_b: 1-warp blocks, N_sb = 40 on 1 SM, N_ab = min(40, 16, 4) = 4,
// N_cp = 192/32 = 6 (integer division), warps/CP = ceil(4/6) = 1, N_r = 10, R = 0.
TEST(GridAlgorithm1, BlockLimitAndIntegerCorePackages) {
  const GridTiming timing = time_grid(small_gpu(1, 200), {40, 32}, 0.0, thousand_cycles_per_warp);
  EXPECT_EQ(timing.plan.core_packages_per_sm, 6);
  EXPECT_EQ(timing.plan.active_blocks_per_sm, 4);
  EXPECT_EQ(timing.plan.warps_per_core_package, 1);
  EXPECT_EQ(timing.plan.full_runs, 10);
  EXPECT_DOUBLE_EQ(timing.cycles, 10'000);
}

// Fewer blocks than SMs: N_sb = 1 and partial warps round up: 33 threads are 2 warps.
TEST(GridAlgorithm1, FewBlocksAndPartialWarps) {
  const GridPlan plan = plan_grid(small_gpu(8), {3, 33});
  EXPECT_EQ(plan.blocks_per_sm, 1);
  EXPECT_EQ(plan.warps_per_block, 2);
  EXPECT_EQ(plan.active_blocks_per_sm, 1);
  EXPECT_EQ(plan.warps_per_core_package, 1);
  EXPECT_EQ(plan.full_runs, 1);
}

TEST(GridAlgorithm1, InvalidLaunchesAreErrorsNotDivisions) {
  const gpus::Profile gpu = small_gpu();
  EXPECT_THROW(plan_grid(gpu, {0, 32}), InputError);
  EXPECT_THROW(plan_grid(gpu, {1, 0}), InputError);
  EXPECT_THROW(plan_grid(gpu, {-5, 32}), InputError);
  EXPECT_THROW(plan_grid(gpu, {kMaxBlocks + 1, 32}), InputError);
  EXPECT_THROW(plan_grid(gpu, {1, 1025}), InputError);  // above max threads per block
  EXPECT_THROW(plan_grid(gpu, {1, 544}), InputError);   // 17 warps > L_w = 16: N_ab would be 0
  EXPECT_NO_THROW(plan_grid(gpu, {kMaxBlocks, 512}));
}

TEST(GridAlgorithm1, LargestGridStaysExact) {
  const GridTiming timing = time_grid(small_gpu(), {kMaxBlocks, 32}, 0.0, [](std::int64_t) {
    return isa::Millicycles{1'000'000'000'000};  // 10^9 cycles per run
  });
  // N_sb = 2^30, N_ab = 4: 2^28 full runs of 10^9 cycles.
  EXPECT_EQ(timing.plan.full_runs, std::int64_t{1} << 28);
  EXPECT_DOUBLE_EQ(timing.cycles, 268435456.0 * 1e9);
}

TEST(GridAlgorithm1, CeilDivShiftsForPowersOfTwoAndDividesOtherwise) {
  for (const std::int64_t b : {1, 2, 3, 4, 6, 32, 46, 1024, 1 << 30}) {
    for (const std::int64_t a : {std::int64_t{0}, std::int64_t{1}, b - 1, b, b + 1, 7 * b + 3, kMaxBlocks}) {
      EXPECT_EQ(ceil_div(a, b), a / b + (a % b != 0 ? 1 : 0)) << a << " / " << b;
    }
  }
}

// Algorithm 1's plan written the plain way (every min and quotient by division), against
// plan_grid's shortcuts, on random GPUs and launches.
TEST(GridAlgorithm1, PlanEqualsThePlainFormulasOnRandomGpusAndLaunches) {
  std::mt19937 rng(7);
  const auto pick = [&](std::int64_t low, std::int64_t high) { return std::uniform_int_distribution<std::int64_t>(low, high)(rng); };
  int planned = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    gpus::Profile gpu = small_gpu();
    gpu.sm_count = pick(1, 200);
    gpu.cores_per_sm = 32 * pick(1, 8);
    gpu.max_warps_per_sm = pick(1, 64);
    gpu.max_blocks_per_sm = pick(1, 32);
    gpu.max_threads_per_block = 32 * pick(1, 64);
    const Launch launch{trial % 7 == 0 ? pick(1, kMaxBlocks) : pick(1, 5000), pick(1, gpu.max_threads_per_block)};
    const std::int64_t warps_per_block = (launch.threads_per_block + 31) / 32;
    if (warps_per_block > gpu.max_warps_per_sm) {
      EXPECT_THROW(plan_grid(gpu, launch), InputError);
      continue;
    }
    const GridPlan plan = plan_grid(gpu, launch);
    const std::int64_t blocks_per_sm = (launch.blocks + gpu.sm_count - 1) / gpu.sm_count;
    const std::int64_t packages = gpu.cores_per_sm / 32;
    const std::int64_t active = std::min({blocks_per_sm, gpu.max_warps_per_sm / warps_per_block, gpu.max_blocks_per_sm});
    const std::int64_t remaining = blocks_per_sm % active;
    EXPECT_EQ(plan.blocks_per_sm, blocks_per_sm);
    EXPECT_EQ(plan.warps_per_block, warps_per_block);
    EXPECT_EQ(plan.active_blocks_per_sm, active);
    EXPECT_EQ(plan.warps_per_core_package, (active * warps_per_block + packages - 1) / packages);
    EXPECT_EQ(plan.full_runs, blocks_per_sm / active);
    EXPECT_EQ(plan.remaining_blocks, remaining);
    EXPECT_EQ(plan.remaining_warps_per_core_package, (remaining * warps_per_block + packages - 1) / packages);
    EXPECT_EQ(plan.remaining_runs, remaining > 0 ? 1 : 0);
    ++planned;
  }
  EXPECT_GT(planned, 15000);
}

TEST(LaunchDimensions, ParsesProductsAndRejectsJunk) {
  EXPECT_EQ(parse_dimensions("128", "--grid"), 128);
  EXPECT_EQ(parse_dimensions("4,2,3", "--grid"), 24);
  for (const char* bad : {"", "0", "-1", "1,,2", "1,2,3,4", "x", "1.5", "99999999999,99999999999"}) {
    EXPECT_THROW(parse_dimensions(bad, "--grid"), InputError) << bad;
  }
}

}  // namespace
}  // namespace warpsim::sim::grid

// time_grid_mixed's run sampling (grid::RunSampling): past the budget, a seeded sample of the
// distinct runs stands for the rest, and the exact time lies within the stated 95% interval.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "support/test_gpu.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/isa/splitmix.hpp"

namespace warpsim::sim::grid {
namespace {

// 8 SMs of 4 core packages, 8 blocks of 3 warps a run: 2,000 blocks are 31 full runs and one of
// 2 blocks per SM, 24 warps dealt to 4 packages of 6.
const gpus::Profile kGpu = testing_support::small_gpu(8, 128, 8, 32);
const Launch kLaunch{2000, 96};
constexpr std::int64_t kOpsPerProgram = 1000;

// A core package's time: its programs' own costs plus an interaction term that depends on the
// whole package, so that no two distinct packages are alike (as the warps of different programs
// in one package interleave in their own way).
isa::Millicycles package_time(std::span<const std::uint32_t> ids, std::int64_t package) {
  isa::Millicycles own = 0;
  std::uint64_t h = static_cast<std::uint64_t>(package);
  for (const std::uint32_t id : ids) {
    own += 1'000'000 + 40'000 * static_cast<isa::Millicycles>(id);
    h = isa::splitmix64(h ^ id);
  }
  return own + static_cast<isa::Millicycles>(h % 200'000);
}

// Each block runs one of 12 programs drawn from its number; `heavy_sm`, when set, gives that
// SM's blocks programs 12-15, the costliest, so that one SM is the slowest by its own runs.
ProgramOfWarp programs(std::int64_t heavy_sm = -1) {
  return [heavy_sm](std::int64_t block, std::int64_t warp) {
    const auto pick = isa::splitmix64(static_cast<std::uint64_t>(block * 3 + warp));
    if (block % kGpu.sm_count == heavy_sm) return static_cast<std::uint32_t>(12 + pick % 4);
    return static_cast<std::uint32_t>(pick % 12);
  };
}

RunSampling sampling(std::int64_t budget, std::uint64_t seed) {
  return {budget, seed, [](std::uint32_t) { return kOpsPerProgram; }};
}

// How many of `seeds` seeded samples put the exact time within their interval (or simulated every
// run, exactly).
int covered(const ProgramOfWarp& program_of, int seeds, std::int64_t budget = 1'000'000) {
  const GridTiming exact = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, program_of, package_time);
  int inside = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const GridTiming t =
        time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, program_of, package_time, sampling(budget, static_cast<std::uint64_t>(seed)));
    if (!t.run_sample) {  // every run simulated: exactly
      EXPECT_EQ(t.cycles, exact.cycles);
      ++inside;
      continue;
    }
    EXPECT_LT(2 * t.run_sample->simulated_packages, t.run_sample->packages);
    EXPECT_NEAR(t.time_us, exact.time_us, 0.02 * exact.time_us) << "seed " << seed;
    EXPECT_LE(t.low_us, t.time_us);
    EXPECT_GE(t.high_us, t.time_us);
    if (t.low_us <= exact.time_us && exact.time_us <= t.high_us) ++inside;
  }
  return inside;
}

TEST(RunSampling, TheExactTimeLiesWithinTheIntervalInAtLeast95PercentOfSeeds) {
  EXPECT_GE(covered(programs(), 40), 38);
  // And the sample is used: every run is not simulated for most seeds.
  int sampled = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    sampled += time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time, sampling(1'000'000, seed)).run_sample ? 1 : 0;
  }
  EXPECT_GE(sampled, 36);
}

TEST(RunSampling, TheFewestDrawsCoverItToo) {
  // A budget of one op: only the fewest draws of each stratum (Student's t with few degrees).
  EXPECT_GE(covered(programs(), 40, 1), 38);
}

TEST(RunSampling, AnSmSlowerByItsOwnRunsIsSimulatedInFull) {
  // The runs not drawn take the launch's mean, which would misprice the heavy SM's: the drawn
  // runs show the SMs differ, and every run is simulated.
  EXPECT_EQ(covered(programs(3), 40), 40);
  int sampled = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    sampled += time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(3), package_time, sampling(1'000'000, seed)).run_sample ? 1 : 0;
  }
  EXPECT_LE(sampled, 2);
}

TEST(RunSampling, WithinTheBudgetOrWithoutOneEveryRunIsSimulated) {
  const GridTiming exact = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time);
  EXPECT_FALSE(exact.run_sample.has_value());
  EXPECT_EQ(exact.low_us, 0);
  const GridTiming ample = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time, sampling(std::int64_t{1} << 40, 1));
  EXPECT_FALSE(ample.run_sample.has_value());
  EXPECT_EQ(ample.cycles, exact.cycles);
  EXPECT_EQ(ample.full_run_cycles, exact.full_run_cycles);
}

TEST(RunSampling, ASampleThatWouldNeedHalfThePackagesIsNotTaken) {
  // Two programs by block parity: a handful of distinct runs, which the fewest draws cover.
  const ProgramOfWarp two = [](std::int64_t block, std::int64_t) { return static_cast<std::uint32_t>(block % 2); };
  const GridTiming exact = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, two, package_time);
  const GridTiming t = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, two, package_time, sampling(1, 1));
  EXPECT_FALSE(t.run_sample.has_value());
  EXPECT_EQ(t.cycles, exact.cycles);
}

TEST(RunSampling, TheSampleIsTheSeeds) {
  const GridTiming a = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time, sampling(1'000'000, 7));
  const GridTiming b = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time, sampling(1'000'000, 7));
  const GridTiming c = time_grid_mixed(kGpu, kLaunch, 0, std::nullopt, programs(), package_time, sampling(1'000'000, 8));
  ASSERT_TRUE(a.run_sample && c.run_sample);
  EXPECT_EQ(a.time_us, b.time_us);
  EXPECT_EQ(a.high_us, b.high_us);
  EXPECT_NE(a.time_us, c.time_us);
  EXPECT_EQ(a.run_sample->seed, 7u);
  EXPECT_EQ(a.run_sample->budget, 1'000'000);
  EXPECT_GT(a.run_sample->projected_ops, 1'000'000);
  EXPECT_EQ(a.run_sample->projected_ops % kOpsPerProgram, 0);
}

}  // namespace
}  // namespace warpsim::sim::grid

#include "warpsim/workload/named_workload_model.hpp"
#include "warpsim/workload/named_workload.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/workload/kp_workload_model.hpp"
#include "warpsim/workload/launch_policy.hpp"

namespace warpsim::sim::workload {
namespace {

// Under the memory model (for these programs without annotations, Algorithms 1-3 with the paper's
// N_cp = cores / 32): the derivations below are its arithmetic, not the default pipes model's.
Prediction run(const char* workload, const char* gpu, std::int64_t K, std::int64_t N) {
  ModelOverrides memory;
  memory.model = Model::memory;
  CoreTimeCache cache;
  return NamedWorkloadModel(find_workload(workload)).predict(gpus::load_profile(gpu), {{"K", K}, {"N", N}}, memory, cache);
}

// RTX 2080 (F 1545, N_sm 68, N_cp 2), matrix t_p 5.2 us, t_m 1.1. N = 64: rule 2 gives 2 blocks
// of 32, so one warp per core package. One warp of Listing 7 with K = 8: calc 33; each
// iteration issues load 120 and load 160 back to back (front ends 1.1 each), waits for the
// second (1.1 + 160 after the first issue) and calcs 17: 178.1 per iteration; then the store's
// front end (1.1) and its 100-cycle transaction: 33 + 8 * 178.1 + 100 = 1557.8 cycles.
// T = 5.2 + 1557.8 / 1545 us.
TEST(DwtWorkloads, MatrixOnOneWarp) {
  const Prediction p = run("dwt_matrix", "rtx2080", 8, 64);
  EXPECT_EQ(p.launch, (grid::Launch{2, 32}));
  EXPECT_EQ(p.launches, 1);
  EXPECT_EQ(p.per_launch.plan.warps_per_core_package, 1);
  EXPECT_EQ(p.per_launch.full_run_cycles, 1'557'800);
  EXPECT_DOUBLE_EQ(p.time_us, 5.2 + 1557.8 / 1545);
}

// GTX 1070 (F 1760, N_sm 10, N_cp 4, L_b 32, L_w 64), t_p 6.3, t_m 18.5; K = 8, N = 2^20:
// rule 4 gives 1024 blocks of 1024, N_sb = 103, N_wb = 32, N_ab = min(103, 2, 32) = 2,
// 16 warps per core package, N_r = 51, R = 1 (8 warps per core package).
// With 16 (or 8) warps no warp ever waits: a round is far longer than a load (<= 178.5).
// Per warp: round 1 calc 33 + two front ends 37 = 70; rounds 2..8 calc 17 + 37 = 54; round 9
// calc 17 + store front end 18.5 = 35.5; 483.5 per warp. T_c(16) = 16 * 483.5 - 18.5 + 100 =
// 7817.5, T_c(8) = 8 * 483.5 - 18.5 + 100 = 3949.5. Cycles = 51 * 7817.5 + 3949.5 = 402642.
TEST(DwtWorkloads, MatrixFullAndRemainingRuns) {
  const Prediction p = run("dwt_matrix", "gtx1070", 8, 1 << 20);
  EXPECT_EQ(p.launch, (grid::Launch{1024, 1024}));
  EXPECT_EQ(p.per_launch.plan.blocks_per_sm, 103);
  EXPECT_EQ(p.per_launch.plan.active_blocks_per_sm, 2);
  EXPECT_EQ(p.per_launch.plan.warps_per_core_package, 16);
  EXPECT_EQ(p.per_launch.plan.full_runs, 51);
  EXPECT_EQ(p.per_launch.plan.remaining_blocks, 1);
  EXPECT_EQ(p.per_launch.plan.remaining_warps_per_core_package, 8);
  EXPECT_EQ(p.per_launch.full_run_cycles, 7'817'500);
  EXPECT_EQ(p.per_launch.remaining_run_cycles, 3'949'500);
  EXPECT_DOUBLE_EQ(p.per_launch.cycles, 402642.0);
  EXPECT_DOUBLE_EQ(p.time_us, 6.3 + 402642.0 / 1760);
}

// RTX 2060 (F 1200, N_sm 30), lattice t_p 5.0, t_m 12.5; K = 8, N = 2^10: 512 threads,
// 512 < 32 * 30 so rule 2: 16 blocks of 32, one warp per core package. One warp of Listing 9:
// calc 30; loads at 30, 42.5, 55, 67.5 complete at 42.5 (10 < t_m), 55, 175, 187.5; yield at 80;
// wait to 187.5, calc 18 to 205.5, stores at 205.5 (done 305.5) and 218 (done 318); T_c = 318.
// K/2 + 1 = 5 launches: T = 5 * (5.0 + 318 / 1200) us.
TEST(DwtWorkloads, LatticeLaunchesKOverTwoPlusOne) {
  const Prediction p = run("dwt_lattice", "rtx2060", 8, 1024);
  EXPECT_EQ(p.total_threads, 512);
  EXPECT_EQ(p.launch, (grid::Launch{16, 32}));
  EXPECT_EQ(p.launches, 5);
  EXPECT_EQ(p.per_launch.full_run_cycles, 318'000);
  EXPECT_DOUBLE_EQ(p.time_us, 5 * (5.0 + 318.0 / 1200));
}

// Back to back (issue 46): the H100 profile measures a following launch's t_p (4.518 us, the kit's
// back_to_back) apart from the first's (launch_overhead_us 5.25). Under the memory and pipes models
// the lattice's K/2 + 1 launches pay 5.25 once and 4.518 after: T = L T_k - (L - 1)(5.25 - 4.518);
// the paper's model (and a profile without the figure, the RTX 2060 above) keeps L T_k.
TEST(DwtWorkloads, BackToBackLaunchesPayTheFollowingOverhead) {
  const Prediction p = run("dwt_lattice", "h100", 8, 1 << 20);
  ASSERT_EQ(p.launches, 5);
  ASSERT_DOUBLE_EQ(p.calibration.tp_us, 5.25);
  EXPECT_DOUBLE_EQ(p.time_us, p.per_launch.time_us + 4 * (p.per_launch.time_us - 5.25 + 4.518));
  EXPECT_LT(p.time_us, 5 * p.per_launch.time_us);
  ModelOverrides paper;
  paper.model = Model::paper;
  paper.tp_us = 5.25;
  paper.tm = 1'000;
  CoreTimeCache cache;
  const Prediction q = NamedWorkloadModel(find_workload("dwt_lattice")).predict(gpus::load_profile("h100"), {{"K", 8}, {"N", 1 << 20}}, paper, cache);
  EXPECT_DOUBLE_EQ(q.time_us, 5 * q.per_launch.time_us);
}

// 2D matrix on the RTX 2080, K = 8, N = 64: 64 * (64 + 6) = 4480 elements, rule 3: 68 blocks of
// ceil(4480 / 68) = 66 threads = 3 warps, so ceil(3 / 2) = 2 warps per core package.
// Two warps, t_m 1.1: w0 issues its loads at 33 and 34.1 (done 194.1), w1 at 68.2 and 69.3
// (done 229.3). From then on each warp waits for its own loads every round: each round starts
// 178.1 (calc 17 + 1.1 + 160) after the last, w0 at 194.1 + 178.1 (r - 2), w1 at 229.3 + ...
// Round 9: w1 starts at 1476, calcs to 1493, its store completes at 1593 = T_c.
// Two passes: T = 2 * (5.2 + 1593 / 1545).
TEST(DwtWorkloads, TwoDimensionalIsTwoPassesOverPaddedRows) {
  const Prediction p = run("dwt2d_matrix", "rtx2080", 8, 64);
  EXPECT_EQ(p.elements, 4480);
  EXPECT_EQ(p.launch, (grid::Launch{68, 66}));
  EXPECT_EQ(p.launches, 2);
  EXPECT_EQ(p.per_launch.plan.warps_per_core_package, 2);
  EXPECT_EQ(p.per_launch.full_run_cycles, 1'593'000);
  EXPECT_DOUBLE_EQ(p.time_us, 2 * (5.2 + 1593.0 / 1545));
}

// T_2D(N, K) = 2 * T_1D(N * (N + K - 2), K), for both algorithms.
TEST(DwtWorkloads, TwoDimensionalEqualsTwiceOneDimensionalOfPaddedSize) {
  for (const auto& [two_d, one_d] : {std::pair{"dwt2d_matrix", "dwt_matrix"}, std::pair{"dwt2d_lattice", "dwt_lattice"}}) {
    for (const std::int64_t N : {32, 100, 1024}) {
      EXPECT_DOUBLE_EQ(run(two_d, "gtx860m", 10, N).time_us, 2 * run(one_d, "gtx860m", 10, N * (N + 8)).time_us)
          << two_d << " N=" << N;
    }
  }
}

TEST(DwtWorkloads, ExplicitCalibrationBeatsTheProfile) {
  const gpus::Profile gpu = gpus::load_profile("rtx2080");
  const Prediction p = predict(find_workload("dwt_matrix"), gpu, {8, 64}, {.tp_us = 0.0, .tm = 1'100});
  EXPECT_DOUBLE_EQ(p.time_us, 1557.8 / 1545);
}

TEST(DwtWorkloads, InvalidPointsAreInputErrors) {
  EXPECT_THROW(run("dwt_matrix", "rtx2080", 7, 64), InputError);   // odd filter
  EXPECT_THROW(run("dwt_matrix", "rtx2080", 0, 64), InputError);
  EXPECT_THROW(run("dwt_matrix", "rtx2080", 8, 0), InputError);
  EXPECT_THROW(run("dwt_lattice", "rtx2080", 8, 63), InputError);  // pairs need an even size
  EXPECT_THROW(run("dwt2d_matrix", "rtx2080", 8, std::int64_t{1} << 40), InputError);  // too many blocks
  EXPECT_THROW(run("dwt2d_matrix", "rtx2080", 8, std::int64_t{1} << 62), InputError);  // overflow
  EXPECT_THROW(find_workload("fft"), InputError);
  ModelOverrides paper;
  paper.model = Model::paper;
  CoreTimeCache cache;
  EXPECT_THROW(NamedWorkloadModel(find_workload("dwt_matrix")).predict(gpus::load_profile("h100"), {{"K", 8}, {"N", 64}}, paper, cache),
               InputError);  // no calibration
  // The memory-aware model's defaults: t_p = the profile's launch overhead, t_m = N_cp cycles.
  const Prediction defaults = run("dwt_matrix", "h100", 8, 64);
  EXPECT_EQ(defaults.calibration.tp_us, 5.25);
  EXPECT_EQ(defaults.calibration.tm, 4'000);
}

// Caches key on the program's content plus the ModelSpec's fingerprint (issue 32): one T_c cache
// shared by predictions under other specs -- another model, a GPU whose memory figures differ,
// another launch (another DRAM share) -- serves each exactly what a fresh cache computes.
TEST(CoreTimeCacheKeys, NoPointIsServedAnotherSpecsTime) {
  const isa::Program program = isa::parse_kp(
      "kernel strided\ntm 4\nrepeat 64\n  load 60 global sectors=16 lines=16\n  bar\n  calc 4\nend\n", "strided.kp");
  const gpus::Profile h100 = gpus::load_profile("h100");
  gpus::Profile slower = h100;
  slower.figures["dram_latency_cycles"] *= 2;
  slower.figures["memory_bandwidth_gbs"] /= 2;
  const auto model_for = [&](const char* block) {
    return KpWorkloadModel("strided", program, fixed_launch("G", block));
  };
  CoreTimeCache shared;
  int compared = 0;
  for (const Model m : {Model::memory, Model::paper, Model::memory}) {
    for (const gpus::Profile* gpu : std::vector<const gpus::Profile*>{&h100, &slower}) {
      for (const char* block : {"128", "256"}) {
        for (const std::int64_t blocks : {132, 1000}) {
          ModelOverrides overrides;
          overrides.model = m;
          overrides.tp_us = 5.0;
          const Point point{{"G", blocks}};
          const KpWorkloadModel model = model_for(block);
          CoreTimeCache fresh;
          const double expected = model.predict(*gpu, point, overrides, fresh).per_launch.cycles;
          EXPECT_EQ(model.predict(*gpu, point, overrides, shared).per_launch.cycles, expected)
              << to_string(m) << " on " << gpu->figures.at("dram_latency_cycles") << ", " << blocks << " x " << block;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(shared.hits(), 0) << "the third pass must be answered from the cache";
  EXPECT_EQ(compared, 24);
  // The figures matter: the slower GPU's time differs, so a cache keyed without them would fail above.
  ModelOverrides memory;
  memory.tp_us = 5.0;
  CoreTimeCache a, b;
  EXPECT_NE(model_for("256").predict(h100, {{"G", 1000}}, memory, a).per_launch.cycles,
            model_for("256").predict(slower, {{"G", 1000}}, memory, b).per_launch.cycles);
}

}  // namespace
}  // namespace warpsim::sim::workload

// Explain's findings (api/explain_findings.cpp; docs/explain.md, "Findings") on the kernels of
// tests/advice/kernels/, each with one known cause and its fix written out: the top finding names
// the cause at its CUDA line, and its speed-up (the launch re-simulated with the cause removed)
// equals the fixed kernel's simulated speed-up within the stated tolerance. A kernel at its
// roofline gets no finding. And `explain --baseline`: the two kernels side by side.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/advice/kernels/";

// What the re-simulation leaves out: a fix changes more than the one cause (the fixed kernel's
// other instructions move a little; the atomics' fix spreads the updates over 4096 bins, where the
// finding removes every collision). 10% covers every pair here; the register steps are exact.
constexpr double kTolerance = 0.10;

SimulateRequest launch(const std::string& file, const std::string& kernel, const std::string& gpu, Dim3 grid, Dim3 block,
                       Parameters params) {
  SimulateRequest r;
  r.program = kKernels + file;
  r.ptx.kernel = kernel;
  r.gpu = gpu;
  r.grid = grid;
  r.block = block;
  r.params = std::move(params);
  r.model = Model::pipes;
  r.ptxas = "none";     // the same stream and registers on every machine: the PTX in PTX order
  r.nvdisasm = "none";
  return r;
}

SimulateResult explained(SimulateRequest r) {
  r.explain = true;
  return simulate(r);
}

const Finding& top(const SimulateResult& r) {
  EXPECT_FALSE(r.explanation->findings.empty()) << r.kernel;
  return r.explanation->findings.front();
}

// The fixed kernel (or launch) against the finding: its simulated speed-up within the tolerance.
void expect_fix_matches(const Finding& finding, const SimulateResult& problem, const SimulateRequest& fixed) {
  const double actual = problem.time_us / simulate(fixed).time_us;
  EXPECT_NEAR(finding.speedup / actual, 1.0, kTolerance) << finding.kind << ": finding " << finding.speedup << "x, fixed kernel " << actual << "x";
  EXPECT_GE(finding.speedup, 1.05);
  EXPECT_DOUBLE_EQ(finding.speedup, problem.time_us / finding.time_us);
}

// A kernel with one cause, and its fix: another entry of the same file, or another launch.
struct Pair {
  const char* file;
  const char* kernel;
  const char* gpu;
  Dim3 grid, block;
  Parameters params;
  const char* kind;  // the top finding's
  int cuda_line;     // its line in the .cu (0: the launch)
  const char* fixed_kernel;
  Dim3 fixed_grid, fixed_block;

  SimulateRequest problem() const { return launch(file, kernel, gpu, grid, block, params); }
  SimulateRequest fixed() const { return launch(file, fixed_kernel, gpu, fixed_grid, fixed_block, params); }
};

const Pair kBankConflicts{"advice_bank_conflict.sm_80.ptx", "transpose_conflicted", "a100", {64, 64, 1}, {32, 8, 1}, {{"2", "2048"}},
                          "bank_conflicts", 21, "transpose_padded", {64, 64, 1}, {32, 8, 1}};
const Pair kUncoalesced{"advice_uncoalesced.sm_80.ptx", "aos_field", "a100", {16384, 1, 1}, {256, 1, 1}, {{"2", "4194304"}},
                        "uncoalesced", 11, "soa_field", {16384, 1, 1}, {256, 1, 1}};
const Pair kDivergence{"advice_divergence.sm_80.ptx", "divergent_halves", "a100", {1024, 1, 1}, {256, 1, 1}, {{"1", "262144"}},
                       "branch_divergence", 12, "warp_uniform_halves", {1024, 1, 1}, {256, 1, 1}};
const Pair kFp64{"advice_fp64.sm_80.ptx", "poly_double", "rtx4090", {4096, 1, 1}, {256, 1, 1}, {{"2", "1048576"}},
                 "fp64", 16, "poly_float", {4096, 1, 1}, {256, 1, 1}};

class FixedKernel : public testing::TestWithParam<Pair> {};

// The top finding names the cause at its line, and its speed-up is the fixed kernel's.
TEST_P(FixedKernel, TopFindingIsTheCauseWithTheFixesSpeedUp) {
  const Pair& pair = GetParam();
  const SimulateResult r = explained(pair.problem());
  const Finding& f = top(r);
  EXPECT_EQ(f.kind, pair.kind);
  EXPECT_EQ(f.source_line, pair.cuda_line);
  if (pair.cuda_line > 0) {
    EXPECT_FALSE(f.source_text.empty());
  }
  expect_fix_matches(f, r, pair.fixed());
}

INSTANTIATE_TEST_SUITE_P(
    AdviceKernels, FixedKernel,
    testing::Values(kBankConflicts, kUncoalesced, kDivergence, kFp64,
                    Pair{"advice_shared_heavy.sm_80.ptx", "shared_heavy", "a100", {32768, 1, 1}, {128, 1, 1}, {{"2", "4194304"}},
                         "occupancy_shared_memory", 0, "shared_light", {32768, 1, 1}, {128, 1, 1}},
                    Pair{"advice_small_blocks.sm_80.ptx", "small_block_work", "a100", {32768, 1, 1}, {32, 1, 1}, {{"2", "1048576"}},
                         "occupancy_block_size", 0, "small_block_work", {4096, 1, 1}, {256, 1, 1}},
                    Pair{"advice_tail.sm_80.ptx", "tail_blocks", "a100", {1037, 1, 1}, {256, 1, 1}, {{"2", "265472"}},
                         "tail_effect", 0, "tail_strided", {864, 1, 1}, {256, 1, 1}},
                    // atomicAdd is inlined from the toolkit's header: the kernel's line that called it
                    Pair{"advice_atomic_collide.sm_80.ptx", "count_one_bin", "a100", {4096, 1, 1}, {256, 1, 1}, {{"1", "1048576"}},
                         "atomic_contention", 9, "count_spread", {4096, 1, 1}, {256, 1, 1}},
                    Pair{"advice_few_warps.sm_80.ptx", "chain_few", "a100", {8, 1, 1}, {64, 1, 1}, {{"2", "32768"}},
                         "too_few_warps", 0, "chain_many", {512, 1, 1}, {64, 1, 1}},
                    // Strided, but each sector re-read from the cache: coalescing saves the front end, not DRAM.
                    Pair{"advice_matvec.sm_80.ptx", "matvec_rows", "a100", {256, 1, 1}, {256, 1, 1}, {{"3", "65536"}},
                         "uncoalesced", 13, "matvec_columns", {256, 1, 1}, {256, 1, 1}},
                    // Shared atomics on one word: contention, not a bank conflict to pad away.
                    Pair{"advice_shared_atomic.sm_80.ptx", "count_shared_one_bin", "a100", {4096, 1, 1}, {256, 1, 1}, {{"1", "1048576"}},
                         "atomic_contention", 13, "count_shared_lane_bins", {4096, 1, 1}, {256, 1, 1}}),
    [](const testing::TestParamInfo<Pair>& param) { return std::string(param.param.kernel); });

TEST(Findings, BankConflictDegreeOfAColumnRead) {
  const Finding f = top(explained(kBankConflicts.problem()));
  const auto degree = std::find_if(f.evidence.begin(), f.evidence.end(), [](const auto& e) { return e.first == "conflict_degree"; });
  ASSERT_NE(degree, f.evidence.end());
  EXPECT_DOUBLE_EQ(degree->second, 32);  // a column of a 32x32 float tile: every lane in one bank
  EXPECT_NE(f.source_text.find("tile[threadIdx.x][threadIdx.y + j]"), std::string::npos);
}

TEST(Findings, SectorsOfTheStridedLoadAlone) {
  const Finding f = top(explained(kUncoalesced.problem()));
  EXPECT_DOUBLE_EQ(f.evidence.at(0).second, 32);  // sectors per request: 32 lanes 32 bytes apart (the store beside it is coalesced)
  EXPECT_DOUBLE_EQ(f.evidence.at(1).second, 4);   // 128 bytes, coalesced
}

TEST(Findings, DivergenceTheSameWhenEveryWarpIsEmulated) {
  const SimulateResult r = explained(kDivergence.problem());
  EXPECT_DOUBLE_EQ(top(r).evidence.at(1).second, 0.5);  // half the lanes idle under the branch
  SimulateRequest all = kDivergence.problem();
  all.ptx.emulate_all = true;  // the class emulation records the same idle lanes as every warp's
  EXPECT_DOUBLE_EQ(top(explained(all)).speedup, top(r).speedup);
}

TEST(Findings, RegistersAtEachOccupancyStepEqualTheKernelAtThoseRegisters) {
  SimulateRequest problem = launch("advice_register_heavy.sm_80.ptx", "register_heavy", "a100", {1024, 1, 1}, {256, 1, 1}, {{"2", "262144"}});
  problem.registers = 168;  // what ptxas 13.0 gives it for sm_80 (tests/advice/kernels/README.md)
  const SimulateResult r = explained(problem);
  const Finding& f = top(r);
  ASSERT_EQ(f.kind, "occupancy_registers");
  EXPECT_EQ(f.evidence.at(0).second, 168);
  // The same kernel with its registers capped at the step the finding chose: the same time, exactly.
  SimulateRequest capped = problem;
  capped.registers = static_cast<std::int64_t>(f.evidence.at(1).second);
  EXPECT_DOUBLE_EQ(f.time_us, simulate(capped).time_us);
  // And the fixed kernel (__launch_bounds__(256, 2): 128 registers) is one of the steps re-simulated.
  SimulateRequest fixed = problem;
  fixed.ptx.kernel = "register_capped";
  fixed.registers = 128;
  EXPECT_GE(f.speedup, r.time_us / simulate(fixed).time_us * (1 - kTolerance));
}

TEST(Findings, LocalArrayIsALowerBoundOfTheRegisterVersion) {
  // The fix (indices known at compile time) also drops the index arithmetic, which the finding
  // keeps: its speed-up is the local traffic's alone, so at most the fixed kernel's.
  const SimulateRequest problem = launch("advice_local_memory.sm_80.ptx", "local_array", "a100", {1024, 1, 1}, {256, 1, 1}, {{"1", "262144"}});
  const SimulateResult r = explained(problem);
  const Finding& f = top(r);
  EXPECT_EQ(f.kind, "local_memory");
  EXPECT_EQ(f.source_line, 21);
  SimulateRequest fixed = problem;
  fixed.ptx.kernel = "register_array";
  EXPECT_GE(f.speedup, 2.0);
  EXPECT_LE(f.speedup, r.time_us / simulate(fixed).time_us);
}

TEST(Findings, NoFp64FindingWhereFp64IsFast) {
  SimulateRequest a100 = kFp64.problem();
  a100.gpu = "a100";  // FP64 at half FP32's rate: not a low rate
  const SimulateResult r = explained(a100);  // held: a range-for over a temporary's member would outlive it
  for (const Finding& other : r.explanation->findings) EXPECT_NE(other.kind, "fp64");
}

TEST(Findings, NoneOnAKernelAtItsRoofline) {
  const SimulateResult r =
      explained(launch("advice_at_roofline.sm_80.ptx", "stream_triad", "a100", {65536, 1, 1}, {256, 1, 1}, {{"4", "16777216"}}));
  EXPECT_EQ(r.explanation->limiter, "DRAM bandwidth");
  for (const Finding& f : r.explanation->findings) EXPECT_LT(f.speedup, 1.25) << f.kind;
}

TEST(Findings, SortedAndNoneUnderTheThreshold) {
  const SimulateResult r = explained(kBankConflicts.problem());
  const std::vector<Finding>& found = r.explanation->findings;
  EXPECT_TRUE(std::is_sorted(found.begin(), found.end(), [](const Finding& a, const Finding& b) { return a.speedup > b.speedup; }));
  for (const Finding& f : found) EXPECT_GE(f.speedup, 1.05);
}

TEST(Baseline, PaddedAgainstConflictedSideBySide) {
  BaselineRequest request;
  request.after = launch("advice_bank_conflict.sm_80.ptx", "transpose_padded", "a100", {64, 64, 1}, {32, 8, 1}, {{"2", "2048"}});
  request.before = request.after;
  request.before.ptx.kernel = "transpose_conflicted";
  const BaselineComparison c = compare_with_baseline(request);
  EXPECT_EQ(c.before.time_us, simulate(request.before).time_us);
  EXPECT_EQ(c.after.time_us, simulate(request.after).time_us);
  EXPECT_DOUBLE_EQ(c.speedup, c.before.time_us / c.after.time_us);
  ASSERT_FALSE(c.lines.empty());
  // The tile read moved most (matched by its code, comment aside, in both kernels).
  EXPECT_NE(c.lines.front().text.find("out[(y + j) * n + x] = tile[threadIdx.x]"), std::string::npos);
  EXPECT_GT(c.lines.front().before_us, c.lines.front().after_us);
  const auto shared = std::find_if(c.resources.begin(), c.resources.end(), [](const ResourceChange& rc) { return rc.resource == "shared"; });
  ASSERT_NE(shared, c.resources.end());
  EXPECT_GT(shared->before, shared->after);
  EXPECT_NE(c.moved_most.find("faster"), std::string::npos);
}

TEST(Baseline, RefusesAnotherLaunch) {
  BaselineRequest request;
  request.after = launch("advice_small_blocks.sm_80.ptx", "small_block_work", "a100", {4096, 1, 1}, {256, 1, 1}, {{"2", "1048576"}});
  request.before = request.after;
  request.before.program = kKernels + "advice_tail.sm_80.ptx";
  request.before.ptx.kernel = "tail_blocks";
  request.before.grid = {1037, 1, 1};
  EXPECT_THROW(compare_with_baseline(request), InputError);
}

}  // namespace

// How the lowering samples the reuse of global accesses (frontends/ptx/reuse_sampler.hpp): LRU
// stack distances by hand, and the reuse of kernels whose access patterns are known.
#include <gtest/gtest.h>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/ptx/reuse_sampler.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

LoweredKernel lower(const std::string& file, Dim3 grid, Dim3 block, ParameterEntries params, bool emulate_all = false) {
  LoweringOptions options;
  options.grid = grid;
  options.block = block;
  options.parameters = std::move(params);
  options.emulate_all = emulate_all;
  return lower_kernel(load_ptx_file(kSource + "/" + file), options);
}

std::vector<isa::CacheReuse> global_reuse(const LoweredKernel& k) {
  std::vector<isa::CacheReuse> out;
  for (const WarpProgram& p : k.programs) {
    for (const isa::Op& op : p.program.ops()) {
      if (isa::is_memory(op.kind) && op.space == isa::MemorySpace::global) out.push_back(op.reuse);
    }
  }
  return out;
}

TEST(ReuseSampler, StackDistancesCountDistinctSectorsInBetween) {
  // a b c a b b d a: a again after {b, c}, b after {c, a}, b at once, a after {b, d}.
  EXPECT_EQ(stack_distances({1, 2, 3, 1, 2, 2, 4, 1}), (std::vector<std::int64_t>{-1, -1, -1, 2, 2, 0, -1, 2}));
  EXPECT_EQ(stack_distances({}), std::vector<std::int64_t>{});
  EXPECT_EQ(stack_distances({7, 7, 7}), (std::vector<std::int64_t>{-1, 0, 0}));
}

TEST(ReuseSampler, StreamingKernelReadsNothingTwice) {
  // C = A + B, one element a thread: every sector is new.
  const LoweredKernel k = lower("workloads/measured/ptx/vectorAdd-T16.ptx", {64, 1, 1}, {256, 1, 1}, {{"3", "16384"}});
  const std::vector<isa::CacheReuse> reuse = global_reuse(k);
  ASSERT_EQ(reuse.size(), 3u);
  for (const isa::CacheReuse& r : reuse) EXPECT_EQ(r, isa::CacheReuse{});
}

TEST(ReuseSampler, MatrixMultiplyRereadsRowsAndColumns) {
  // C = A·B from global memory, 16 x 16 blocks: a warp (two rows of 16 threads) reads A[row][k],
  // one float of its two rows, whose sector serves 8 values of k, and B[k][16 columns], which the
  // block's 8 warps all read: at least 7 of 8 sectors were touched before.
  const LoweredKernel k = lower("workloads/measured/ptx/matMul_gpu-T16.ptx", {16, 16, 1}, {16, 16, 1}, {{"3", "256"}});
  const std::vector<isa::CacheReuse> reuse = global_reuse(k);
  ASSERT_FALSE(reuse.empty());
  int loads_reused = 0;
  for (const isa::CacheReuse& r : reuse) {
    if (r.permille >= 875) ++loads_reused;
    EXPECT_LE(r.distance_bytes, 1024);  // a few sectors per block in between: short-range reuse
  }
  EXPECT_GE(loads_reused, static_cast<int>(reuse.size()) - 1);  // all but the store of C
}

TEST(ReuseSampler, FastPathAndEmulateAllCarryTheSameReuse) {
  const ParameterEntries n{{"3", "96"}};
  const LoweredKernel fast = lower("workloads/measured/ptx/matMul_gpu_uncoalesced-T16.ptx", {6, 6, 1}, {16, 16, 1}, n);
  const LoweredKernel every = lower("workloads/measured/ptx/matMul_gpu_uncoalesced-T16.ptx", {6, 6, 1}, {16, 16, 1}, n, true);
  ASSERT_EQ(fast.programs.size(), every.programs.size());
  for (std::size_t i = 0; i < fast.programs.size(); ++i) {
    EXPECT_TRUE(fast.programs[i].program.same_meaning(every.programs[i].program)) << i;
  }
  EXPECT_NE(global_reuse(fast), std::vector<isa::CacheReuse>(global_reuse(fast).size()));
}

}  // namespace
}  // namespace warpsim::ptx

// Occupancy worked by hand from the rules of docs/model.md#occupancy (not by running the code).
#include <gtest/gtest.h>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/occupancy/occupancy.hpp"

namespace {

using warpsim::InputError;
using namespace warpsim::sim::occupancy;

Occupancy on(const char* gpu, std::int64_t threads, std::int64_t registers, std::int64_t static_smem = 0,
             std::int64_t dynamic_smem = 0) {
  return active_blocks(warpsim::gpus::load_profile(gpu), {threads, registers, static_smem, dynamic_smem});
}

TEST(Occupancy, A100RegisterLimited) {
  // 256 threads = 8 warps; 64 x 32 = 2048 registers per warp (a multiple of 256); 65536 / 4
  // sub-partitions = 16384 -> 8 warps each, 32 per SM -> 4 blocks. Warps: 64 / 8 = 8.
  // Shared memory: 0 + 1024 reserved -> 164 KiB / 1 KiB = 164 blocks.
  const Occupancy o = on("a100", 256, 64);
  EXPECT_EQ(o.active_blocks_per_sm, 4);
  EXPECT_EQ(o.limited_by, Limit::registers);
  EXPECT_EQ(o.by_warps, 8);
  EXPECT_EQ(o.by_blocks, 32);
  EXPECT_EQ(o.by_registers, 4);
  EXPECT_EQ(o.by_shared_memory, 164);
  EXPECT_EQ(o.registers_per_block, 16384);
  EXPECT_EQ(o.shared_memory_per_block, 1024);
  EXPECT_EQ(o.active_warps_per_sm(), 32);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.5);
}

TEST(Occupancy, A100FortyKiBStaticSharedMemory) {
  // 40960 + 1024 reserved = 41984 bytes (a multiple of 128); 164 KiB = 167936 = 4 x 41984.
  const Occupancy o = on("a100", 128, 32, 40 * 1024);
  EXPECT_EQ(o.active_blocks_per_sm, 4);
  EXPECT_EQ(o.limited_by, Limit::shared_memory);
  EXPECT_EQ(o.shared_memory_per_block, 41984);
  EXPECT_EQ(o.shared_memory_per_sm, 167936);
  EXPECT_EQ(o.by_registers, 16);  // 1024 per warp: 16 per sub-partition, 64 warps / 4
}

TEST(Occupancy, Rtx3090DynamicSharedMemory) {
  // 49152 dynamic + 1024 = 50176; the 100 KiB configuration holds 102400 / 50176 = 2.
  const Occupancy o = on("rtx3090", 256, 32, 0, 48 * 1024);
  EXPECT_EQ(o.active_blocks_per_sm, 2);
  EXPECT_EQ(o.limited_by, Limit::shared_memory);
  EXPECT_EQ(o.by_warps, 6);  // 48 warps / 8
  EXPECT_EQ(o.by_blocks, 16);
}

TEST(Occupancy, T4WarpLimitedWithoutSharedMemory) {
  // 1024 threads = 32 warps = all of Turing's 32; no shared memory and no reservation before CC 8.
  const Occupancy o = on("t4", 1024, 32);
  EXPECT_EQ(o.active_blocks_per_sm, 1);
  EXPECT_EQ(o.limited_by, Limit::warps);
  EXPECT_EQ(o.by_registers, 2);
  EXPECT_EQ(o.by_shared_memory, std::nullopt);
  EXPECT_EQ(o.shared_memory_per_sm, 64 * 1024);  // Turing's default carve-out
}

TEST(Occupancy, TiesListEveryLimitAndNameTheFirst) {
  // 64 threads = 2 warps: 64 / 2 = 32 by warps = 32 blocks; 32 registers: 1024 per warp, 64 warps / 2 = 32.
  const Occupancy o = on("a100", 64, 32);
  EXPECT_EQ(o.active_blocks_per_sm, 32);
  EXPECT_EQ(o.limited_by, Limit::warps);
  EXPECT_EQ(o.limiting_factors, (std::vector<Limit>{Limit::warps, Limit::blocks, Limit::registers}));
}

TEST(Occupancy, FermiRoundsSomeRegisterCountsTo128) {
  // GT 720M, CC 2.1 (registers per SM from the CC table: 32768, 2 sub-partitions). 21 x 32 = 672
  // rounds to 768 (unit 128 for 21); 16384 / 768 = 21 warps per sub-partition, 42 per SM; 8 warps
  // per block -> 5. Warps 48 / 8 = 6, blocks 8.
  const Occupancy o = on("gt720m", 256, 21);
  EXPECT_EQ(o.active_blocks_per_sm, 5);
  EXPECT_EQ(o.limited_by, Limit::registers);
  EXPECT_EQ(o.registers_per_block, 8 * 768);
}

TEST(Occupancy, KeplerRegistersRoundedToTheUnit) {
  // K1000M, CC 3.0: 63 x 32 = 2016 -> 2048 per warp; 16384 / 2048 = 8 per sub-partition, 32 per SM;
  // 6 warps per block -> 5 (warps: 64 / 6 = 10).
  const Occupancy o = on("k1000m", 192, 63);
  EXPECT_EQ(o.active_blocks_per_sm, 5);
  EXPECT_EQ(o.limited_by, Limit::registers);
}

TEST(Occupancy, VoltaCarveOut) {
  // V100: 32 KiB static, granularity 256, no reservation; the 96 KiB configuration holds 3.
  const Occupancy o = on("v100", 128, 16, 32 * 1024);
  EXPECT_EQ(o.active_blocks_per_sm, 3);
  EXPECT_EQ(o.limited_by, Limit::shared_memory);
  EXPECT_EQ(o.shared_memory_per_sm, 96 * 1024);
}

TEST(Occupancy, LargestBlockOfSharedMemoryFitsOnce) {
  // A100: 163 KiB + 1 KiB reserved = 164 KiB, the whole configuration.
  const Occupancy o = on("a100", 32, 8, 163 * 1024);
  EXPECT_EQ(o.active_blocks_per_sm, 1);
  EXPECT_EQ(o.limited_by, Limit::shared_memory);
}

TEST(Occupancy, ImpossibleKernelsAreInputErrors) {
  EXPECT_THROW(on("a100", 1025, 32), InputError);
  EXPECT_THROW(on("a100", 0, 32), InputError);
  EXPECT_THROW(on("a100", 32, 256), InputError);
  EXPECT_THROW(on("a100", 32, -1), InputError);
  EXPECT_THROW(on("a100", 32, 8, -1), InputError);
  EXPECT_THROW(on("k1000m", 32, 64), InputError);  // CC 3.0: 63 registers per thread at most
  // 65 x 32 = 2080 -> 2304 per warp, x 32 warps = 73728 > 65536 registers per block.
  EXPECT_THROW(on("a100", 1024, 65), InputError);
  EXPECT_THROW(on("a100", 32, 8, 163 * 1024 + 1), InputError);
  EXPECT_THROW(on("a100", 32, 8, 100 * 1024, 64 * 1024), InputError);
  EXPECT_THROW(on("a100", 32, 8, INT64_MAX, INT64_MAX), InputError);
}

TEST(Occupancy, UnknownComputeCapabilityIsAnInputError) {
  warpsim::gpus::Profile gpu = warpsim::gpus::load_profile("a100");
  gpu.compute_capability = "4.0";
  EXPECT_THROW(active_blocks(gpu, {128, 32}), InputError);
}

}  // namespace

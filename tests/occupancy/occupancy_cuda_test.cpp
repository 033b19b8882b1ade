// warpsim's occupancy against NVIDIA's cudaOccMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h,
// header-only host C++), on thousands of random kernels per compute capability: the same active
// blocks, the same limit values and allocations, the same limiting factors, and an InputError
// exactly where cudaOcc finds that no block fits. Skipped when CMake found no cuda_occupancy.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/occupancy/architecture.hpp"
#include "warpsim/occupancy/occupancy.hpp"

#ifdef WARPSIM_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>
#endif

namespace {

using namespace warpsim::sim::occupancy;

constexpr int kConfigurationsPerGpu = 3000;

#ifdef WARPSIM_HAVE_CUDA_OCCUPANCY

cudaOccDeviceProp device_properties(const warpsim::gpus::Profile& gpu, const Architecture& arch) {
  const DeviceLimits d = device_limits(gpu);
  cudaOccDeviceProp p;
  p.computeMajor = arch.major;
  p.computeMinor = arch.minor;
  p.maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  p.maxThreadsPerMultiprocessor = static_cast<int>(d.max_warps_per_sm * d.warp_size);
  p.regsPerBlock = static_cast<int>(d.max_registers_per_block);
  p.regsPerMultiprocessor = static_cast<int>(d.registers_per_sm);
  p.warpSize = static_cast<int>(d.warp_size);
  p.sharedMemPerBlock = static_cast<size_t>(std::min<std::int64_t>(48 * 1024, d.max_shared_memory_per_block));
  p.sharedMemPerMultiprocessor = static_cast<size_t>(d.shared_memory_per_sm);
  p.numSms = static_cast<int>(std::max<std::int64_t>(gpu.sm_count, 1));
  p.sharedMemPerBlockOptin = static_cast<size_t>(d.max_shared_memory_per_block);
  p.reservedSharedMemPerBlock = static_cast<size_t>(arch.reserved_shared_memory_per_block);
  return p;
}

// A profile with only the required figures: everything else from the CC table.
warpsim::gpus::Profile synthetic(const Architecture& arch) {
  warpsim::gpus::Profile gpu;
  gpu.id = "synthetic-" + arch.compute_capability();
  gpu.compute_capability = arch.compute_capability();
  gpu.sm_count = 1;
  gpu.warp_size = 32;
  gpu.max_threads_per_block = 1024;
  gpu.max_warps_per_sm = arch.max_threads_per_sm / 32;
  gpu.max_blocks_per_sm = arch.max_blocks_per_sm;
  return gpu;
}

struct Tally {
  int compared = 0;    // cudaOcc gave at least one block
  int impossible = 0;  // cudaOcc gave none: warpsim must throw
};

// Random kernels biased to the interesting places: round and odd block sizes, registers near the
// per-block limit, shared memory from none to just above the per-block maximum.
KernelResources random_kernel(std::mt19937_64& random, const DeviceLimits& d) {
  auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(random); };
  KernelResources k;
  const std::int64_t shape = uniform(0, 3);
  k.threads_per_block = shape == 0 ? 32 * uniform(1, d.max_threads_per_block / 32)
                        : shape == 1 ? std::int64_t{1} << uniform(0, 10)
                                     : uniform(1, d.max_threads_per_block);
  k.registers_per_thread = uniform(0, 3) == 0 ? uniform(0, 32) : uniform(0, d.max_registers_per_thread);
  const std::int64_t smem_limit = d.max_shared_memory_per_block + 2048;
  switch (uniform(0, 4)) {
    case 0: break;
    case 1: k.static_smem_bytes = uniform(0, 4096); break;
    case 2: k.dynamic_smem_bytes = uniform(0, smem_limit); break;
    default:
      k.static_smem_bytes = uniform(0, smem_limit / 2);
      k.dynamic_smem_bytes = uniform(0, smem_limit / 2);
  }
  return k;
}

Tally compare(const warpsim::gpus::Profile& gpu, std::uint64_t seed) {
  const Architecture& arch = architecture(gpu.compute_capability, gpu.id);
  const DeviceLimits d = device_limits(gpu);
  const cudaOccDeviceProp properties = device_properties(gpu, arch);
  const cudaOccDeviceState state;  // default carve-out, no cache preference
  std::mt19937_64 random(seed);
  Tally tally;
  for (int i = 0; i < kConfigurationsPerGpu; ++i) {
    const KernelResources k = random_kernel(random, d);
    cudaOccFuncAttributes attributes;
    attributes.maxThreadsPerBlock = INT_MAX;
    attributes.numRegs = static_cast<int>(k.registers_per_thread);
    attributes.sharedSizeBytes = static_cast<size_t>(k.static_smem_bytes);
    attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
    attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;  // the kernel opted in to what it uses
    attributes.maxDynamicSharedSizeBytes = static_cast<size_t>(k.dynamic_smem_bytes);
    attributes.numBlockBarriers = 1;
    cudaOccResult expected{};
    const cudaOccError status = cudaOccMaxActiveBlocksPerMultiprocessor(
        &expected, &properties, &attributes, &state, static_cast<int>(k.threads_per_block), static_cast<size_t>(k.dynamic_smem_bytes));
    const std::string where = gpu.id + ": " + std::to_string(k.threads_per_block) + " threads, " +
                              std::to_string(k.registers_per_thread) + " registers, static " +
                              std::to_string(k.static_smem_bytes) + ", dynamic " + std::to_string(k.dynamic_smem_bytes);
    if (status != CUDA_OCC_SUCCESS || expected.activeBlocksPerMultiprocessor == 0) {
      EXPECT_THROW(active_blocks(gpu, k), warpsim::InputError) << where << " (cudaOcc status " << status << ")";
      ++tally.impossible;
      continue;
    }
    Occupancy got;
    try {
      got = active_blocks(gpu, k);
    } catch (const warpsim::InputError& e) {
      ADD_FAILURE() << where << ": threw " << e.what() << ", cudaOcc gives " << expected.activeBlocksPerMultiprocessor;
      continue;
    }
    ++tally.compared;
    EXPECT_EQ(got.active_blocks_per_sm, expected.activeBlocksPerMultiprocessor) << where;
    EXPECT_EQ(got.by_warps, expected.blockLimitWarps) << where;
    EXPECT_EQ(got.by_blocks, expected.blockLimitBlocks) << where;
    EXPECT_EQ(got.by_registers.value_or(INT_MAX), expected.blockLimitRegs) << where;
    EXPECT_EQ(got.by_shared_memory.value_or(INT_MAX), expected.blockLimitSharedMem) << where;
    EXPECT_EQ(got.registers_per_block, expected.allocatedRegistersPerBlock) << where;
    EXPECT_EQ(got.shared_memory_per_block, static_cast<std::int64_t>(expected.allocatedSharedMemPerBlock)) << where;
    unsigned factors = 0;
    for (const Limit limit : got.limiting_factors) {
      factors |= limit == Limit::warps ? OCC_LIMIT_WARPS
                 : limit == Limit::blocks ? OCC_LIMIT_BLOCKS
                 : limit == Limit::registers ? OCC_LIMIT_REGISTERS
                                             : OCC_LIMIT_SHARED_MEMORY;
    }
    EXPECT_EQ(factors, expected.limitingFactors & (OCC_LIMIT_WARPS | OCC_LIMIT_BLOCKS | OCC_LIMIT_REGISTERS | OCC_LIMIT_SHARED_MEMORY)) << where;
  }
  return tally;
}

// cuda_occupancy.h of CUDA 12-13 starts at CC 3.0; Fermi's rules come from older editions.
bool cuda_occupancy_knows(const Architecture& arch) { return arch.major >= 3; }

TEST(OccupancyAgainstCudaOcc, EveryComputeCapabilityOnSyntheticProfiles) {
  for (const Architecture& arch : architectures()) {
    if (!cuda_occupancy_knows(arch)) continue;
    const Tally tally = compare(synthetic(arch), 1000 + static_cast<std::uint64_t>(arch.major * 10 + arch.minor));
    std::printf("CC %s: %d configurations compared, %d impossible ones refused\n", arch.compute_capability().c_str(),
                tally.compared, tally.impossible);
    EXPECT_GE(tally.compared, 500) << "CC " << arch.compute_capability();
  }
}

TEST(OccupancyAgainstCudaOcc, EveryBuiltInProfile) {
  for (const std::string& id : warpsim::gpus::builtin_profile_ids()) {
    const warpsim::gpus::Profile gpu = warpsim::gpus::load_profile(id);
    const Architecture& arch = architecture(gpu.compute_capability, id);
    if (!cuda_occupancy_knows(arch)) {
      std::printf("%s: CC %s, not in this cuda_occupancy.h: not compared\n", id.c_str(), gpu.compute_capability.c_str());
      continue;
    }
    EXPECT_EQ(gpu.max_blocks_per_sm, arch.max_blocks_per_sm) << id << ": max_blocks_per_sm differs from its CC's";
    const Tally tally = compare(gpu, std::hash<std::string>{}(id));
    std::printf("%s (CC %s): %d configurations compared, %d impossible ones refused\n", id.c_str(),
                gpu.compute_capability.c_str(), tally.compared, tally.impossible);
    EXPECT_GE(tally.compared, 500) << id;
  }
}

#else

TEST(OccupancyAgainstCudaOcc, EveryComputeCapabilityOnSyntheticProfiles) {
  GTEST_SKIP() << "cuda_occupancy.h not found (install the CUDA toolkit or set CUDA_PATH): nothing to compare with";
}

#endif

}  // namespace

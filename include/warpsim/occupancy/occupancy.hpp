// Occupancy: how many blocks of a kernel an SM holds at once, limited by warps, blocks, registers
// and shared memory. Equal to cudaOccMaxActiveBlocksPerMultiprocessor of NVIDIA's
// cuda_occupancy.h with the default carve-out, for a kernel that opted in to the shared memory it
// uses (docs/model.md#occupancy).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "warpsim/gpus/profile.hpp"

namespace warpsim::sim::occupancy {

struct KernelResources {
  std::int64_t threads_per_block = 0;
  std::int64_t registers_per_thread = 0;
  std::int64_t static_smem_bytes = 0;
  std::int64_t dynamic_smem_bytes = 0;
};

// In order of precedence: limited_by names the first that reaches the minimum, so that raising
// a later one alone cannot raise occupancy.
enum class Limit { warps, blocks, registers, shared_memory };
const char* to_string(Limit limit);

struct Occupancy {
  std::int64_t active_blocks_per_sm = 0;
  Limit limited_by = Limit::warps;
  std::vector<Limit> limiting_factors;  // every limit equal to active_blocks_per_sm, in Limit order

  std::int64_t by_warps = 0;
  std::int64_t by_blocks = 0;
  std::optional<std::int64_t> by_registers;      // nullopt: no registers used, no limit
  std::optional<std::int64_t> by_shared_memory;  // nullopt: no shared memory used, no limit

  std::int64_t warps_per_block = 0;
  std::int64_t max_warps_per_sm = 0;
  std::int64_t registers_per_block = 0;      // allocated: per warp rounded up, times warps
  std::int64_t shared_memory_per_block = 0;  // allocated bytes: static + dynamic + reserved, rounded up
  std::int64_t shared_memory_per_sm = 0;     // bytes of the shared-memory configuration (carve-out) used

  std::int64_t active_warps_per_sm() const { return active_blocks_per_sm * warps_per_block; }
  double fraction() const { return static_cast<double>(active_warps_per_sm()) / static_cast<double>(max_warps_per_sm); }
};

// The GPU's figures the rules read, each from the profile or, where it lacks one, the default of
// its compute capability (architecture.hpp). InputError for a capability without rules.
struct DeviceLimits {
  std::int64_t warp_size = 0;
  std::int64_t max_threads_per_block = 0;
  std::int64_t max_warps_per_sm = 0;
  std::int64_t max_blocks_per_sm = 0;
  std::int64_t registers_per_sm = 0;
  std::int64_t max_registers_per_block = 0;
  std::int64_t max_registers_per_thread = 0;
  std::int64_t shared_memory_per_sm = 0;         // bytes
  std::int64_t max_shared_memory_per_block = 0;  // bytes, with opt-in, without the reservation
};
DeviceLimits device_limits(const gpus::Profile& gpu);

// Active blocks per SM. Throws InputError for a kernel that cannot run at all: a block above the
// GPU's maximum, registers per thread or per block above the maximum, shared memory above the
// per-block maximum, negative sizes.
Occupancy active_blocks(const gpus::Profile& gpu, const KernelResources& kernel);

}  // namespace warpsim::sim::occupancy

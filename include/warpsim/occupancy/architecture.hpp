// What the occupancy rules fix per compute capability: allocation granularities, register
// sub-partitions, the per-block shared-memory reservation and the shared-memory configurations
// (carve-outs) an SM supports, plus the per-CC defaults of the per-GPU figures, used where a
// profile leaves a figure out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace warpsim::sim::occupancy {

struct Architecture {
  int major = 0;
  int minor = 0;
  // Rules (cuda_occupancy.h of CUDA 13.0; CC 2.x from the CUDA 7.x-8.0 editions, which still had it).
  std::int64_t register_allocation_unit = 0;        // registers per warp round up to this (cudaOccRegAllocationGranularity)
  std::int64_t register_sub_partitions = 0;          // cudaOccSubPartitionsPerMultiprocessor
  std::int64_t also_check_sub_partitions = 0;        // CC 6.0: a block must also fit GP10x's 4 (0: none)
  std::int64_t shared_memory_granularity = 0;        // bytes (cudaOccSMemAllocationGranularity)
  std::int64_t reserved_shared_memory_per_block = 0; // bytes the driver adds to every block (CC >= 8)
  // Shared-memory sizes per SM an SM can be configured to, KiB, ascending (cudaOccAlignUpShmemSizeVoltaPlus);
  // empty before Volta, where the size per SM is fixed at the profile's figure.
  std::span<const std::int64_t> carveouts_kib;
  // Registers per thread whose warps round up to twice the unit (Fermi, CC 2.x).
  std::span<const std::int64_t> coarse_register_counts;
  // Per-CC defaults of per-GPU figures (CUDA C++ Programming Guide, 'Technical Specifications per
  // Compute Capability'; cudaOccMaxBlocksPerMultiprocessor).
  std::int64_t max_blocks_per_sm = 0;
  std::int64_t max_threads_per_sm = 0;
  std::int64_t registers_per_sm = 0;
  std::int64_t max_registers_per_block = 0;
  std::int64_t max_registers_per_thread = 0;
  std::int64_t shared_memory_per_sm_kib = 0;          // largest configuration
  std::int64_t max_shared_memory_per_block_kib = 0;   // with opt-in above 48 KiB (CC >= 7)

  std::string compute_capability() const { return std::to_string(major) + "." + std::to_string(minor); }
  // Registers one warp is given for `registers_per_thread` each: rounded up to the unit, or to
  // twice the unit for the coarse counts.
  std::int64_t registers_per_warp(std::int64_t registers_per_thread, std::int64_t warp_size) const;
};

// The rules of compute capability "M.m"; InputError naming the supported ones otherwise.
// `context` says whose capability it is ("profile 'x'").
const Architecture& architecture(std::string_view compute_capability, const std::string& context);

// Every compute capability of the table, ascending.
std::span<const Architecture> architectures();

}  // namespace warpsim::sim::occupancy

#include "warpsim/occupancy/occupancy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/occupancy/architecture.hpp"

namespace warpsim::sim::occupancy {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t unit) { return (value + unit - 1) / unit * unit; }

std::int64_t ceil_div(std::int64_t value, std::int64_t divisor) { return (value + divisor - 1) / divisor; }

std::string gpu_name(const gpus::Profile& gpu) { return quote_for_message(gpu.id) + " (CC " + gpu.compute_capability + ")"; }

// A whole-number figure of the profile, else the capability's default.
std::int64_t figure_or(const gpus::Profile& gpu, const char* key, std::int64_t fallback, double scale = 1) {
  const auto it = gpu.figures.find(key);
  return it == gpu.figures.end() ? fallback : std::llround(it->second * scale);
}

// The size the SM's shared memory is configured to for `bytes`: the smallest supported
// configuration of at least that size (CC >= 7; cudaOccAlignUpShmemSizeVoltaPlus).
std::int64_t configuration_for(const Architecture& arch, std::int64_t bytes, const gpus::Profile& gpu) {
  for (const std::int64_t kib : arch.carveouts_kib) {
    if (kib * 1024 >= bytes) return kib * 1024;
  }
  throw InputError("GPU " + gpu_name(gpu) + ": " + std::to_string(bytes) +
                   " bytes of shared memory per SM is more than its largest configuration, " +
                   std::to_string(arch.carveouts_kib.back()) + " KiB");
}

void require_non_negative(std::int64_t value, const char* what) {
  if (value < 0) throw InputError(std::string(what) + " cannot be negative (" + std::to_string(value) + ")");
}

// Registers: per warp rounded up to the allocation unit; warps per sub-partition, times the
// sub-partitions, over the block's warps (cudaOccMaxBlocksPerSMRegsLimit). Throws when a block
// exceeds the per-block maximum, counting its warps rounded up to the sub-partitions too (the
// hardware check).
std::optional<std::int64_t> register_limit(const Architecture& arch, const DeviceLimits& d, const KernelResources& k,
                                           std::int64_t warps, std::int64_t partitions, const gpus::Profile& gpu) {
  const std::int64_t per_warp = arch.registers_per_warp(k.registers_per_thread, d.warp_size);
  const std::int64_t assumed = per_warp * round_up(warps, partitions);
  if (assumed > d.max_registers_per_block) {
    throw InputError("a block of " + std::to_string(k.threads_per_block) + " threads at " +
                     std::to_string(k.registers_per_thread) + " registers each needs " + std::to_string(assumed) +
                     " registers (" + std::to_string(per_warp) + " per warp, " + std::to_string(warps) +
                     " warps rounded up to a multiple of " + std::to_string(partitions) + "), more than the " +
                     std::to_string(d.max_registers_per_block) + " a block may use on " + gpu_name(gpu));
  }
  if (per_warp == 0) return std::nullopt;
  return (d.registers_per_sm / partitions / per_warp) * partitions / warps;
}

std::optional<std::int64_t> shared_memory_limit(const Architecture& arch, const DeviceLimits& d, Occupancy& o,
                                                const KernelResources& k, const gpus::Profile& gpu) {
  const std::int64_t limit = d.max_shared_memory_per_block + arch.reserved_shared_memory_per_block;
  const std::int64_t used = k.static_smem_bytes + k.dynamic_smem_bytes + arch.reserved_shared_memory_per_block;
  o.shared_memory_per_block = round_up(used, arch.shared_memory_granularity);
  if (o.shared_memory_per_block > limit) {
    throw InputError("a block needs " + std::to_string(o.shared_memory_per_block) + " bytes of shared memory (static " +
                     std::to_string(k.static_smem_bytes) + " + dynamic " + std::to_string(k.dynamic_smem_bytes) +
                     (arch.reserved_shared_memory_per_block ? " + " + std::to_string(arch.reserved_shared_memory_per_block) + " reserved" : "") +
                     ", rounded up to " + std::to_string(arch.shared_memory_granularity) + "), more than the " +
                     std::to_string(limit) + " a block may use on " + gpu_name(gpu));
  }
  // The default carve-out: the configuration of the profile's shared memory per SM, or, when a
  // block needs more, the smallest configuration that holds one block (CC >= 7).
  const bool configurable = !arch.carveouts_kib.empty();
  const std::int64_t preferred = configurable ? configuration_for(arch, d.shared_memory_per_sm, gpu) : d.shared_memory_per_sm;
  o.shared_memory_per_sm = preferred >= o.shared_memory_per_block || !configurable
                               ? preferred
                               : configuration_for(arch, o.shared_memory_per_block, gpu);
  if (o.shared_memory_per_block == 0) return std::nullopt;
  return o.shared_memory_per_sm / o.shared_memory_per_block;
}

}  // namespace

const char* to_string(Limit limit) {
  switch (limit) {
    case Limit::warps: return "warps";
    case Limit::blocks: return "blocks";
    case Limit::registers: return "registers";
    case Limit::shared_memory: return "shared_memory";
  }
  return "?";
}

DeviceLimits device_limits(const gpus::Profile& gpu) {
  const Architecture& arch = architecture(gpu.compute_capability, "GPU " + quote_for_message(gpu.id));
  DeviceLimits d;
  d.warp_size = gpu.warp_size;
  d.max_threads_per_block = gpu.max_threads_per_block;
  d.max_warps_per_sm = gpu.max_warps_per_sm;
  d.max_blocks_per_sm = gpu.max_blocks_per_sm;
  d.registers_per_sm = figure_or(gpu, "registers_per_sm", arch.registers_per_sm);
  d.max_registers_per_block = figure_or(gpu, "max_registers_per_block", arch.max_registers_per_block);
  d.max_registers_per_thread = figure_or(gpu, "max_registers_per_thread", arch.max_registers_per_thread);
  d.shared_memory_per_sm = figure_or(gpu, "shared_memory_per_sm_kib", arch.shared_memory_per_sm_kib * 1024, 1024);
  d.max_shared_memory_per_block =
      figure_or(gpu, "max_shared_memory_per_block_kib", arch.max_shared_memory_per_block_kib * 1024, 1024);
  return d;
}

Occupancy active_blocks(const gpus::Profile& gpu, const KernelResources& k) {
  const Architecture& arch = architecture(gpu.compute_capability, "GPU " + quote_for_message(gpu.id));
  const DeviceLimits d = device_limits(gpu);
  if (k.threads_per_block < 1) throw InputError("a block needs at least one thread");
  require_non_negative(k.registers_per_thread, "registers per thread");
  require_non_negative(k.static_smem_bytes, "static shared memory");
  require_non_negative(k.dynamic_smem_bytes, "dynamic shared memory");
  if (k.threads_per_block > d.max_threads_per_block) {
    throw InputError("a block of " + std::to_string(k.threads_per_block) + " threads is more than the " +
                     std::to_string(d.max_threads_per_block) + " a block may have on " + gpu_name(gpu));
  }
  if (k.registers_per_thread > d.max_registers_per_thread) {
    throw InputError(std::to_string(k.registers_per_thread) + " registers per thread is more than the " +
                     std::to_string(d.max_registers_per_thread) + " a thread may use on " + gpu_name(gpu));
  }
  const std::int64_t bytes_limit = d.max_shared_memory_per_block + arch.reserved_shared_memory_per_block;
  if (k.static_smem_bytes > bytes_limit || k.dynamic_smem_bytes > bytes_limit) {  // before their sum can overflow
    throw InputError("shared memory of " + std::to_string(std::max(k.static_smem_bytes, k.dynamic_smem_bytes)) +
                     " bytes is more than the " + std::to_string(d.max_shared_memory_per_block) +
                     " a block may use on " + gpu_name(gpu));
  }
  Occupancy o;
  o.warps_per_block = ceil_div(k.threads_per_block, d.warp_size);
  o.max_warps_per_sm = d.max_warps_per_sm;
  o.by_warps = d.max_warps_per_sm / o.warps_per_block;
  o.by_blocks = d.max_blocks_per_sm;
  o.registers_per_block = arch.registers_per_warp(k.registers_per_thread, d.warp_size) * o.warps_per_block;
  o.by_registers = register_limit(arch, d, k, o.warps_per_block, arch.register_sub_partitions, gpu);
  // CC 6.0 (GP100, 2 sub-partitions): a block must also fit GP10x's 4 (cudaOccMaxActiveBlocksPerMultiprocessor).
  if (arch.also_check_sub_partitions && register_limit(arch, d, k, o.warps_per_block, arch.also_check_sub_partitions, gpu) == 0) {
    o.by_registers = 0;
  }
  o.by_shared_memory = shared_memory_limit(arch, d, o, k, gpu);

  const std::pair<Limit, std::int64_t> limits[] = {
      {Limit::warps, o.by_warps},
      {Limit::blocks, o.by_blocks},
      {Limit::registers, o.by_registers.value_or(INT64_MAX)},
      {Limit::shared_memory, o.by_shared_memory.value_or(INT64_MAX)},
  };
  o.active_blocks_per_sm = INT64_MAX;
  for (const auto& [limit, value] : limits) o.active_blocks_per_sm = std::min(o.active_blocks_per_sm, value);
  for (const auto& [limit, value] : limits) {
    if (value == o.active_blocks_per_sm) o.limiting_factors.push_back(limit);
  }
  o.limited_by = o.limiting_factors.front();
  if (o.active_blocks_per_sm == 0) {
    throw InputError("no block fits on an SM of " + gpu_name(gpu) + ": its " + to_string(o.limited_by) +
                     " admit none (" + std::to_string(o.warps_per_block) + " warps, " +
                     std::to_string(o.registers_per_block) + " registers, " +
                     std::to_string(o.shared_memory_per_block) + " bytes of shared memory per block)");
  }
  return o;
}

}  // namespace warpsim::sim::occupancy

#include "warpsim/grid/memory_defaults.hpp"

#include <algorithm>
#include <cmath>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::grid {
namespace {

double figure(const gpus::Profile& gpu, const char* key) {
  const auto it = gpu.figures.find(key);
  if (it == gpu.figures.end()) {
    throw InputError(gpu.source + ": the memory-aware model needs '" + key + "' in profile " + gpu.id +
                     " (docs/profiles.md), or use --model paper");
  }
  return it->second;
}

isa::Millicycles cycles(double value) { return static_cast<isa::Millicycles>(std::llround(value * 1000)); }

}  // namespace

double dram_bandwidth_gbs(const gpus::Profile& gpu) {
  const auto achievable = gpu.figures.find("achievable_bandwidth_gbs");
  if (achievable == gpu.figures.end()) return figure(gpu, "memory_bandwidth_gbs");
  // A peak changed below it in code (the profile reader refuses it in a file) bounds it.
  const auto peak = gpu.figures.find("memory_bandwidth_gbs");
  return peak == gpu.figures.end() ? achievable->second : std::min(achievable->second, peak->second);
}

isa::Millicycles default_issue_per_transaction(const gpus::Profile& gpu) { return gpu.core_packages_per_sm() * 1000; }

core::MemoryTiming memory_timing(const gpus::Profile& gpu, const Launch& launch, const GridPlan& plan,
                                 isa::Millicycles issue_per_transaction) {
  core::MemoryTiming t;
  t.issue_per_transaction = issue_per_transaction;
  t.global_latency = cycles(figure(gpu, "dram_latency_cycles"));
  t.cache_latency = cycles(figure(gpu, "l2_latency_cycles"));
  const std::int64_t resident_blocks = std::min<std::int64_t>(launch.blocks, std::int64_t{gpu.sm_count} * plan.active_blocks_per_sm);
  t.cache_bytes_per_block = figure(gpu, "l2_cache_kib") * 1024 / static_cast<double>(std::max<std::int64_t>(1, resident_blocks));
  t.shared_latency = cycles(figure(gpu, "shared_latency_cycles"));
  t.constant_latency = cycles(figure(gpu, "constant_latency_cycles"));
  // GB/s over MHz is bytes per cycle for the whole GPU; each SM with blocks gets an equal share.
  const double bytes_per_cycle = dram_bandwidth_gbs(gpu) * 1e3 / gpu.clock_mhz;
  const auto sms_busy = static_cast<double>(std::min(gpu.sm_count, launch.blocks));
  const double package_bytes_per_cycle = bytes_per_cycle / sms_busy / static_cast<double>(plan.core_packages_per_sm);
  t.dram_per_sector = static_cast<isa::Millicycles>(std::ceil(32.0 / package_bytes_per_cycle * 1000));
  t.atomic_per_update = t.atomic_interval * static_cast<isa::Millicycles>(sms_busy) * plan.core_packages_per_sm;
  // The L2's bytes per cycle, shared alike where the profile measures them.
  if (const auto l2 = gpu.figures.find("l2_bandwidth_bytes_per_cycle"); l2 != gpu.figures.end()) {
    const double package_l2 = l2->second / sms_busy / static_cast<double>(plan.core_packages_per_sm);
    t.l2_per_sector = static_cast<isa::Millicycles>(std::ceil(32.0 / package_l2 * 1000));
  }
  return t;
}

}  // namespace warpsim::sim::grid

#include "warpsim/workload/model_spec.hpp"

#include <bit>

#include "warpsim/grid/grid.hpp"
#include "warpsim/grid/memory_defaults.hpp"

namespace warpsim::sim::workload {

core::CoreOptions ModelSpec::core_options() const {
  core::CoreOptions options;
  options.max_warp_instructions = max_warp_instructions;
  if (memory) {
    options.memory = &*memory;
    options.barriers = barriers;
  }
  return options;
}

std::vector<std::int64_t> ModelSpec::fingerprint() const {
  std::vector<std::int64_t> key{static_cast<std::int64_t>(model), tm, core_packages_per_sm, max_warp_instructions,
                                memory ? 1 : 0};
  if (memory) {
    const core::MemoryTiming& m = *memory;
    const auto cache_bytes_bits = std::bit_cast<std::int64_t>(m.cache_bytes_per_block);  // exactly, not rounded
    key.insert(key.end(), {m.issue_per_transaction, m.global_latency, m.cache_latency, cache_bytes_bits, m.shared_latency,
                           m.constant_latency, m.constant_serialisation, m.dram_per_sector, m.unknown_sectors,
                           barriers.packages, barriers.warps_per_block, barriers.package});
  }
  // Guards the list above: a field added to MemoryTiming or BarrierLayout must be added here too.
  static_assert(sizeof(core::MemoryTiming) == 9 * 8);
  static_assert(sizeof(core::BarrierLayout) == 3 * 8);
  return key;
}

std::int64_t core_packages_per_sm(Model /*model*/, const gpus::Profile& gpu) { return gpu.core_packages_per_sm(); }

ModelSpec make_model_spec(Model model, const gpus::Profile& gpu, const grid::Launch& launch, isa::Millicycles tm,
                          bool annotated, std::int64_t max_warp_instructions) {
  ModelSpec spec;
  spec.model = model;
  spec.tm = tm;
  spec.core_packages_per_sm = core_packages_per_sm(model, gpu);
  spec.max_warp_instructions = max_warp_instructions;
  if (model == Model::memory && annotated) {
    const grid::GridPlan plan = grid::plan_grid(gpu, planned_with(spec, launch));
    spec.memory = grid::memory_timing(gpu, launch, plan, tm);
    spec.barriers = core::BarrierLayout{plan.core_packages_per_sm, plan.warps_per_block};
  }
  return spec;
}

grid::Launch planned_with(const ModelSpec& spec, grid::Launch launch) {
  launch.core_packages_per_sm = spec.core_packages_per_sm;
  return launch;
}

}  // namespace warpsim::sim::workload

#include "warpsim/workload/model_spec.hpp"

#include <bit>
#include <cmath>

#include "warpsim/grid/grid.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/gpus/pipe_table.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::workload {

namespace {

const gpus::PipeTable& pipe_table_of(const gpus::Profile& gpu) {
  if (gpu.compute_capability.empty()) {
    throw InputError(gpu.source + ": the pipes model needs the compute_capability of profile " + gpu.id +
                     " (its architecture table, gpus/pipes/), or use --model memory");
  }
  return gpus::pipe_table(gpu.compute_capability);
}

}  // namespace

core::CoreOptions ModelSpec::core_options() const {
  core::CoreOptions options;
  options.max_warp_instructions = max_warp_instructions;
  if (memory) {
    options.memory = &*memory;
    options.barriers = barriers;
  }
  if (pipes) {
    options.pipes = &*pipes;
    options.barriers = barriers;
  }
  return options;
}

std::vector<std::int64_t> ModelSpec::fingerprint() const {
  // Every field of MemoryTiming, BarrierLayout and PipeTiming goes into the key through a
  // structured binding, which names all of an aggregate's fields or does not compile: a field
  // added to one of them breaks the build here until it is added to the key (a size check would
  // miss a field that fits in padding).
  std::vector<std::int64_t> key{static_cast<std::int64_t>(model), tm, core_packages_per_sm, max_warp_instructions,
                                memory ? 1 : 0};
  const auto add_barriers = [&] {
    const auto& [packages, warps_per_block, package] = barriers;
    key.insert(key.end(), {packages, warps_per_block, package});
  };
  if (memory) {
    const auto& [issue_per_transaction, global_latency, cache_latency, cache_bytes_per_block, shared_latency,
                 constant_latency, constant_serialisation, dram_per_sector, unknown_sectors, atomic_interval,
                 atomic_per_update, l2_per_sector] = *memory;
    const auto cache_bytes_bits = std::bit_cast<std::int64_t>(cache_bytes_per_block);  // exactly, not rounded
    key.insert(key.end(), {issue_per_transaction, global_latency, cache_latency, cache_bytes_bits, shared_latency,
                           constant_latency, constant_serialisation, dram_per_sector, unknown_sectors, atomic_interval,
                           atomic_per_update, l2_per_sector});
    add_barriers();
  }
  key.push_back(pipes ? 1 : 0);
  if (pipes) {
    const auto& [occupancy, latency, issue] = *pipes;
    key.insert(key.end(), occupancy.begin(), occupancy.end());
    key.insert(key.end(), latency.begin(), latency.end());
    key.push_back(issue);
    add_barriers();
  }
  return key;
}

std::int64_t core_packages_per_sm(Model model, const gpus::Profile& gpu) {
  if (model == Model::pipes) return pipe_table_of(gpu).schedulers_per_sm;
  return gpu.core_packages_per_sm();
}

core::PipeTiming pipe_timing(const gpus::Profile& gpu) {
  const gpus::PipeTable& table = pipe_table_of(gpu);
  const auto schedulers = static_cast<double>(table.schedulers_per_sm);
  core::PipeTiming timing;
  // Millicycles one unit of work holds a scheduler's pipe: the lanes it needs over the lanes the
  // scheduler has, rounded up so that no price beats the table's throughput.
  const auto hold = [&](double lanes_needed, double per_sm) {
    return static_cast<isa::Millicycles>(std::ceil(lanes_needed * 1000.0 * schedulers / per_sm - 1e-9));
  };
  const auto fp32 = static_cast<std::size_t>(isa::Pipe::fp32);
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
    const isa::Pipe pipe = isa::pipe_at(p);
    const double per_sm = table.throughput[p];
    timing.latency[p] = std::llround(table.latency[p] * 1000.0);
    if (isa::is_tensor(pipe)) {
      if (per_sm > 0) {
        timing.occupancy[p] = hold(static_cast<double>(isa::kTensorUnitFmas), per_sm);
      } else {  // no tensor unit for this type: its FMAs run on the FP32 pipe, 32 a warp-instruction
        timing.occupancy[p] = hold(static_cast<double>(isa::kTensorUnitFmas), table.throughput[fp32]);
        timing.latency[p] = std::llround(table.latency[fp32] * 1000.0);
      }
    } else {
      // A 16-bit float warp-instruction yields 64 results (a packed pair per lane; a scalar one
      // runs as a pair with one half unused).
      const double results = pipe == isa::Pipe::fp16 ? 64.0 : 32.0;
      timing.occupancy[p] = hold(results, per_sm > 0 ? per_sm : table.throughput[fp32]);
    }
  }
  return timing;
}

ModelSpec make_model_spec(Model model, const gpus::Profile& gpu, const grid::Launch& launch, isa::Millicycles tm,
                          bool annotated, std::int64_t max_warp_instructions) {
  ModelSpec spec;
  spec.model = model;
  spec.tm = tm;
  spec.core_packages_per_sm = core_packages_per_sm(model, gpu);
  spec.max_warp_instructions = max_warp_instructions;
  if ((model == Model::memory && annotated) || (model == Model::pipes && launch.threads_per_block > 0)) {
    const grid::GridPlan plan = grid::plan_grid(gpu, planned_with(spec, launch));
    if (annotated) spec.memory = grid::memory_timing(gpu, launch, plan, tm);
    spec.barriers = core::BarrierLayout{plan.core_packages_per_sm, plan.warps_per_block};
  }
  if (model == Model::pipes) spec.pipes = pipe_timing(gpu);
  return spec;
}

grid::Launch planned_with(const ModelSpec& spec, grid::Launch launch) {
  launch.core_packages_per_sm = spec.core_packages_per_sm;
  return launch;
}

}  // namespace warpsim::sim::workload

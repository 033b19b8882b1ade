// Everything the core-package timing of one launch reads besides the programs, built in exactly
// one place (make_model_spec) from the model, the GPU, the launch, t_m and whether the programs
// carry annotations. Every engine option and every cache key comes from it: caches key on a
// program's timing_identity() plus fingerprint(), so no cache can serve a number computed under
// another model, GPU figure, launch share or limit (docs/architecture.md, "One prediction path").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/isa/model.hpp"

namespace warpsim::sim::workload {

struct ModelSpec {
  Model model = kDefaultModel;
  isa::Millicycles tm = 0;                 // t_m
  std::int64_t core_packages_per_sm = 1;   // N_cp of Algorithm 1 (the launch's plan uses it)
  // The memory-aware model's prices and barrier layout, only where some program is annotated
  // (an access with a space, a barrier): a program without annotations times as the paper's
  // model times it, so the model asks for no memory figure of the profile.
  std::optional<core::MemoryTiming> memory;
  core::BarrierLayout barriers;
  // The pipes model's prices (its core package is one warp scheduler); set exactly under it.
  std::optional<core::PipeTiming> pipes;
  std::int64_t max_warp_instructions = core::kDefaultMaxWarpInstructions;

  // The engine options: they point into this spec, so keep it alive (and unmoved) while they are used.
  core::CoreOptions core_options() const;
  // Every field above, exactly, as integers. (t_p is not here: it only adds to T_k.)
  std::vector<std::int64_t> fingerprint() const;
};

// N_cp under `model`: the paper's cores_per_sm / 32 for the paper's and the memory-aware model;
// the warp schedulers per SM of the GPU's architecture table under the pipes model.
std::int64_t core_packages_per_sm(Model model, const gpus::Profile& gpu);

// The pipes model's prices on `gpu`: its compute capability's table (gpus/pipes/) per scheduler.
// Throws InputError when the profile has no compute capability or no table covers it.
core::PipeTiming pipe_timing(const gpus::Profile& gpu);

// The one builder. `launch` is the launch as it runs (with its occupancy limit); `annotated`,
// whether any program timed under the spec carries memory annotations. Throws InputError for a
// memory figure the profile lacks, only when one is needed.
ModelSpec make_model_spec(Model model, const gpus::Profile& gpu, const grid::Launch& launch, isa::Millicycles tm,
                          bool annotated, std::int64_t max_warp_instructions = core::kDefaultMaxWarpInstructions);

// `launch` planned with the spec's N_cp (what Algorithm 1 is given under the model).
grid::Launch planned_with(const ModelSpec& spec, grid::Launch launch);

}  // namespace warpsim::sim::workload

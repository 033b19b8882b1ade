// warpsim::run_core: T_c of one core package (Algorithm 2), as `warpsim core` reports it.
#include <optional>

#include "ptx_lowering.hpp"
#include "views.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/model_spec.hpp"

namespace warpsim {

CoreResult run_core(const CoreRequest& request) {
  const std::int64_t warps = request.warps;
  if (warps < 1 || warps > sim::core::kMaxWarpsPerCorePackage) {
    throw InputError("--warps " + std::to_string(warps) + ": a core package runs 1 to " +
                     std::to_string(sim::core::kMaxWarpsPerCorePackage) + " warps");
  }
  const isa::Program program = api::load_bound_program(request.program, request.params);
  const Model model = request.model.value_or(request.gpu ? kDefaultModel : Model::memory);
  const bool priced = is_memory_aware(model) && (program.has_memory_annotations() || model == Model::pipes);
  if (model == Model::pipes && !request.gpu) throw InputError("the pipes model prices instructions per GPU: give --gpu ID");
  if (priced && !request.gpu) {
    throw InputError(program.source() + ": the program has memory annotations: give --gpu ID for their prices, or "
                     "--model paper");
  }
  std::optional<gpus::Profile> gpu;
  if (request.gpu) gpu = gpus::load_profile(*request.gpu);
  isa::Millicycles tm = 0;
  if (request.tm) {
    tm = api::exact_cycles(*request.tm, "--tm");
  } else if (program.default_tm()) {
    tm = *program.default_tm();
  } else if (priced) {
    tm = sim::workload::core_packages_per_sm(model, *gpu) * isa::kMillicyclesPerCycle;
  } else {
    throw InputError("no t_m: give --tm CYCLES or a `tm` line in " + program.source());
  }
  // One core package of a GPU whose every SM runs blocks of `block_warps` warps.
  const std::int64_t block_warps = request.block_warps.value_or(warps);
  if (block_warps < 1 || block_warps > warps) throw InputError("--block-warps must be in [1, --warps]");
  std::optional<sim::workload::ModelSpec> spec;
  sim::core::CoreOptions engine_options = api::core_options(request.max_instructions);
  if (priced) {
    const sim::grid::Launch launch{gpu->sm_count, block_warps * 32};
    spec.emplace(sim::workload::make_model_spec(model, *gpu, launch, tm, true, engine_options.max_warp_instructions));
    engine_options = spec->core_options();
    engine_options.barriers = sim::core::BarrierLayout{1, block_warps};  // the one package shown holds whole blocks
  }
  CoreResult result;
  result.kernel = program.name();
  result.warps = warps;
  result.tm = isa::to_cycles(tm);
  result.cycles = isa::to_cycles(sim::core::simulate_core(program, warps, tm, engine_options));
  result.views = api::render_views(std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &program), tm,
                                   program.name() + ", " + std::to_string(warps) + " warps, t_m = " + isa::format_cycles(tm),
                                   engine_options, request.timeline, request.trace);
  return result;
}

nlohmann::ordered_json to_json(const CoreResult& result) {
  nlohmann::ordered_json out;
  out["kernel"] = result.kernel;
  out["warps"] = result.warps;
  out["tm"] = sim::report::cycles_json(api::millicycles(result.tm));
  out["cycles"] = sim::report::cycles_json(api::millicycles(result.cycles));
  return out;
}

std::string to_text(const CoreResult& result) {
  return "T_c = " + isa::format_cycles(api::millicycles(result.cycles)) + " cycles (" + result.kernel + ", " +
         std::to_string(result.warps) + " warps, t_m = " + isa::format_cycles(api::millicycles(result.tm)) + ")\n";
}

}  // namespace warpsim

// warpsim::simulate: T_k of a .kp program or a PTX kernel on a GPU for a launch (Algorithm 1), as
// `warpsim simulate` reports it.
#include <algorithm>

#include "launch_rejected.hpp"
#include "ptx_lowering.hpp"
#include "ptxas_registers.hpp"
#include "views.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"

namespace warpsim {
namespace {

// The figures every simulation reports, from the launch and its timing.
SimulateResult timing_result(const gpus::Profile& gpu, const std::string& kernel, const sim::grid::Launch& launch,
                             const sim::grid::GridTiming& timing, isa::Millicycles tm, sim::workload::TimingModel model) {
  const sim::grid::GridPlan& p = timing.plan;
  SimulateResult r;
  r.gpu = gpu.id;
  r.kernel = kernel;
  r.time_us = timing.time_us;
  r.cycles = timing.cycles;
  r.tp_us = timing.tp_us;
  r.tm = isa::to_cycles(tm);
  r.clock_mhz = gpu.clock_mhz;
  r.blocks = launch.blocks;
  r.threads = launch.threads_per_block;
  r.plan = {p.blocks_per_sm, p.warps_per_block, p.core_packages_per_sm, p.active_blocks_per_sm,
            p.warps_per_core_package, p.full_runs, p.remaining_blocks, p.remaining_warps_per_core_package};
  r.full_run_cycles = isa::to_cycles(timing.full_run_cycles);
  r.remaining_run_cycles = isa::to_cycles(timing.remaining_run_cycles);
  r.model = api::model_of(model);
  return r;
}

// The warps dealt to core package 0 of SM 0 in the first run, each with its program (the views
// show them): Algorithm 1 deals warp w of resident block j to core package (j * N_wb + w) mod N_cp.
std::vector<const isa::Program*> first_core_package(const ptx::LoweredKernel& kernel, const sim::grid::GridPlan& plan,
                                                    std::int64_t sm_count) {
  std::vector<const isa::Program*> programs;
  for (std::int64_t j = 0; j < std::min(plan.blocks_per_sm, plan.active_blocks_per_sm); ++j) {
    for (std::int64_t w = 0; w < plan.warps_per_block; ++w) {
      if ((j * plan.warps_per_block + w) % plan.core_packages_per_sm != 0) continue;
      programs.push_back(&kernel.programs[kernel.warp_programs.program_of(j * sm_count, w)].program);
    }
  }
  return programs;
}

SimulateResult simulate_ptx(const SimulateRequest& request, const gpus::Profile& gpu, const sim::grid::Launch& launch,
                            sim::workload::TimingModel model, const gpus::CalibrationChoice& given,
                            const sim::core::CoreOptions& engine_options) {
  // A launch that cannot run is refused before the lowering, which it would only slow down.
  api::rejecting_launch([&] { sim::grid::validate_launch(gpu, launch); });
  std::vector<std::string> warnings;
  const ptx::LoweredKernel kernel =
      api::lower_ptx(request.program, request.grid, request.block, request.params, request.ptx, request.control, warnings);
  const gpus::Calibration calibration = gpus::resolve_calibration(gpu, kernel.name, given, std::nullopt);
  const bool memory = model == sim::workload::TimingModel::memory;
  const api::Sourced registers = memory ? api::registers_per_thread(request.registers, request.ptxas, gpu, &request.program,
                                                                    kernel.ptx_name, nullptr)
                                        : api::Sourced{};
  const sim::grid::Launch resident = api::rejecting_launch(
      [&] { return sim::workload::with_occupancy(gpu, launch, model, registers.value, kernel.static_shared_bytes); });
  const auto timing =
      sim::workload::time_lowered_kernel(gpu, resident, calibration.tp_us, calibration.tm, kernel, model, {}, engine_options);
  const sim::workload::LaunchEngine engine(gpu, resident, model, calibration.tm, engine_options);
  SimulateResult result = timing_result(gpu, kernel.name, launch, timing, calibration.tm, model);
  const std::vector<const isa::Program*> package = first_core_package(kernel, timing.plan, gpu.sm_count);
  result.views = api::render_views(package, calibration.tm,
                                   kernel.name + " on " + gpu.id + ": core package 0 of SM 0's first run, " +
                                       std::to_string(package.size()) + " warps, t_m = " + isa::format_cycles(calibration.tm),
                                   engine.options(), request.timeline, request.trace);
  PtxReport report;
  if (memory) report.registers_per_thread = registers.value;
  report.registers_source = registers.source;
  report.static_shared_bytes = kernel.static_shared_bytes;
  report.warp_programs = static_cast<std::int64_t>(kernel.programs.size());
  report.unknown_branches = kernel.unknown_branches.count;
  report.emulated_instructions = kernel.emulated_instructions;
  report.emulated_classes = kernel.emulated_classes;
  report.parameters = api::parameters_json(kernel.parameters);
  report.parameters_line = api::parameters_text(kernel.parameters);
  report.assumptions = api::assumptions(kernel, request.program);
  result.ptx = std::move(report);
  result.warnings = std::move(warnings);
  return result;
}

}  // namespace

SimulateResult simulate(const SimulateRequest& request) {
  const gpus::Profile gpu = gpus::load_profile(request.gpu);
  const sim::grid::Launch launch{api::count(request.grid, "--grid"), api::count(request.block, "--block")};
  const sim::workload::TimingModel model = api::timing_model(request.model);
  gpus::CalibrationChoice choice;
  choice.tp_us = request.tp_us;
  if (request.tm) choice.tm = api::exact_cycles(*request.tm, "--tm");
  const gpus::CalibrationChoice given = sim::workload::with_model_defaults(gpu, choice, model);
  const sim::core::CoreOptions engine_options = api::core_options(request.max_instructions);
  if (request.program.ends_with(".ptx")) return simulate_ptx(request, gpu, launch, model, given, engine_options);

  const isa::Program program = api::load_bound_program(request.program, request.params);
  const gpus::Calibration calibration = gpus::resolve_calibration(gpu, program.name(), given, program.default_tm());
  api::rejecting_launch([&] { sim::grid::validate_launch(gpu, launch); });
  const sim::workload::LaunchEngine engine(gpu, launch, model, calibration.tm, engine_options);
  const auto timing = sim::grid::time_grid(gpu, launch, calibration.tp_us, [&](std::int64_t warps) {
    return sim::core::simulate_core(program, warps, calibration.tm, engine.options());
  });
  SimulateResult result = timing_result(gpu, program.name(), launch, timing, calibration.tm, model);
  // The views show one core package of a full run (Algorithm 1's t).
  const std::int64_t warps = timing.plan.warps_per_core_package;
  result.views = api::render_views(std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &program),
                                   calibration.tm,
                                   program.name() + " on " + gpu.id + ": one core package of a full run, " +
                                       std::to_string(warps) + " warps, t_m = " + isa::format_cycles(calibration.tm),
                                   engine.options(), request.timeline, request.trace);
  return result;
}

nlohmann::ordered_json to_json(const SimulateResult& r) {
  using sim::report::cycles_json;
  using sim::report::number_json;
  nlohmann::ordered_json out;
  out["gpu"] = r.gpu;
  out["kernel"] = r.kernel;
  out["time_us"] = r.time_us;
  out["cycles"] = number_json(r.cycles);
  out["tp_us"] = number_json(r.tp_us);
  out["tm"] = cycles_json(api::millicycles(r.tm));
  out["clock_mhz"] = number_json(r.clock_mhz);
  out["blocks"] = r.blocks;
  out["threads"] = r.threads;
  out["blocks_per_sm"] = r.plan.blocks_per_sm;
  out["warps_per_block"] = r.plan.warps_per_block;
  out["core_packages_per_sm"] = r.plan.core_packages_per_sm;
  out["active_blocks_per_sm"] = r.plan.active_blocks_per_sm;
  out["warps_per_core_package"] = r.plan.warps_per_core_package;
  out["full_runs"] = r.plan.full_runs;
  out["full_run_cycles"] = cycles_json(api::millicycles(r.full_run_cycles));
  out["remaining_blocks"] = r.plan.remaining_blocks;
  out["remaining_warps_per_core_package"] = r.plan.remaining_warps_per_core_package;
  out["remaining_run_cycles"] = cycles_json(api::millicycles(r.remaining_run_cycles));
  if (!r.ptx) return out;  // a .kp program: the figures of Algorithm 1 only
  const PtxReport& ptx = *r.ptx;
  out["model"] = sim::workload::to_string(api::timing_model(r.model));
  if (ptx.registers_per_thread) {
    out["registers_per_thread"] = *ptx.registers_per_thread;
    out["registers_source"] = ptx.registers_source;
    out["static_shared_bytes"] = ptx.static_shared_bytes;
  }
  out["warp_programs"] = ptx.warp_programs;
  out["unknown_branches"] = ptx.unknown_branches;
  out["emulated_instructions"] = ptx.emulated_instructions;
  out["emulated_classes"] = ptx.emulated_classes;
  out["parameters"] = ptx.parameters;
  out["assumptions"] = api::assumptions_json(ptx.assumptions);
  return out;
}

std::string to_text(const SimulateResult& r) {
  nlohmann::ordered_json fields = to_json(r);
  fields.erase("parameters");
  fields.erase("assumptions");
  sim::report::TextTable table({"quantity", "value"});
  for (const auto& [key, value] : fields.items()) {
    table.add_row({key, value.is_string() ? value.get<std::string>()
                        : value.is_number_float() ? sim::report::shortest(value.get<double>())
                                                  : value.dump()});
  }
  std::string text = table.render();
  if (!r.ptx) return text;
  text += r.ptx->parameters_line;
  for (const std::string& line : api::assumption_lines(r.ptx->assumptions)) text += "assumption: " + line + '\n';
  return text;
}

}  // namespace warpsim

#include <nlohmann/json.hpp>

#include "sim/cli/cli_support.hpp"
#include "sim/cli/ptxas_registers.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/ptx_support.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::cli {
namespace {

nlohmann::ordered_json timing_json(const gpus::Profile& gpu, const std::string& kernel, const sim::grid::Launch& launch,
                                   const sim::grid::GridTiming& timing, isa::Millicycles tm) {
  using sim::report::cycles_json;
  const sim::grid::GridPlan& plan = timing.plan;
  nlohmann::ordered_json out;
  out["gpu"] = gpu.id;
  out["kernel"] = kernel;
  out["time_us"] = timing.time_us;
  out["cycles"] = sim::report::number_json(timing.cycles);
  out["tp_us"] = sim::report::number_json(timing.tp_us);
  out["tm"] = cycles_json(tm);
  out["clock_mhz"] = sim::report::number_json(gpu.clock_mhz);
  out["blocks"] = launch.blocks;
  out["threads"] = launch.threads_per_block;
  out["blocks_per_sm"] = plan.blocks_per_sm;
  out["warps_per_block"] = plan.warps_per_block;
  out["core_packages_per_sm"] = plan.core_packages_per_sm;
  out["active_blocks_per_sm"] = plan.active_blocks_per_sm;
  out["warps_per_core_package"] = plan.warps_per_core_package;
  out["full_runs"] = plan.full_runs;
  out["full_run_cycles"] = cycles_json(timing.full_run_cycles);
  out["remaining_blocks"] = plan.remaining_blocks;
  out["remaining_warps_per_core_package"] = plan.remaining_warps_per_core_package;
  out["remaining_run_cycles"] = cycles_json(timing.remaining_run_cycles);
  return out;
}

std::string timing_text(const nlohmann::ordered_json& fields) {
  sim::report::TextTable table({"quantity", "value"});
  for (const auto& [key, value] : fields.items()) {
    table.add_row({key, value.is_string() ? value.get<std::string>()
                        : value.is_number_float() ? sim::report::shortest(value.get<double>())
                                                  : value.dump()});
  }
  return table.render();
}

}  // namespace

int run_simulate(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(), "GPU id (see `warpsim gpus`) or path to a profile .toml")
      ("grid", po::value<std::string>()->required(), "blocks: B or X,Y,Z")
      ("block", po::value<std::string>()->required(), "threads per block: T or X,Y,Z")
      ("tp", po::value<std::string>(), "t_p in microseconds (default: the profile's [calibration.<kernel>])")
      ("tm", po::value<std::string>(), "t_m in cycles (default: the profile's calibration, then the program's `tm`)")
      ("format", po::value<std::string>()->default_value("json"), "json|text")
      ("regs", po::value<std::string>(), "PTX, memory-aware model: registers per thread for occupancy (default: ptxas -v "
                                          "when it runs, else 32; the output says which)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "ptxas to run for --regs (searched on PATH), or `none`");
  add_program_options(options);
  add_ptx_options(options);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help(
        "warpsim simulate PROGRAM.kp|KERNEL.ptx --gpu ID --grid B --block T [--tp US] [--tm C] [--param K=V]...",
        "T_k: predicts the kernel's time on the GPU for the launch (Algorithm 1 over Algorithm 2).", options);
  }
  const auto& v = line.values;
  const Format format = parse_format(v["format"].as<std::string>(), {"json", "text"});
  const gpus::Profile gpu = gpus::load_profile(v["gpu"].as<std::string>());
  const sim::grid::Launch launch{sim::grid::parse_dimensions(v["grid"].as<std::string>(), "--grid"),
                                 sim::grid::parse_dimensions(v["block"].as<std::string>(), "--block")};
  const sim::workload::TimingModel model = timing_model(v);
  const gpus::CalibrationChoice given = sim::workload::with_model_defaults(gpu, calibration_choice(v), model);
  const sim::core::CoreOptions engine_options = core_options(v);
  if (is_ptx_path(v["program"].as<std::string>())) {
    const ptx::LoweredKernel kernel = lower_ptx_program(v);
    const gpus::Calibration calibration = gpus::resolve_calibration(gpu, kernel.name, given, std::nullopt);
    const std::string& ptx_path = v["program"].as<std::string>();
    const Sourced registers = model == sim::workload::TimingModel::memory
                                  ? registers_per_thread(v, gpu, &ptx_path, kernel.ptx_name, false)
                                  : Sourced{};
    const sim::grid::Launch resident =
        sim::workload::with_occupancy(gpu, launch, model, registers.value, kernel.static_shared_bytes);
    const auto timing =
        sim::workload::time_lowered_kernel(gpu, resident, calibration.tp_us, calibration.tm, kernel, model, {}, engine_options);
    const sim::workload::LaunchEngine engine(gpu, resident, model, calibration.tm, engine_options);
    // The views show core package 0 of SM 0's first run: the warps dealt to it, each with its program.
    std::vector<const isa::Program*> first_package;
    const sim::grid::GridPlan& plan = timing.plan;
    for (std::int64_t j = 0; j < std::min(plan.blocks_per_sm, plan.active_blocks_per_sm); ++j) {
      for (std::int64_t w = 0; w < plan.warps_per_block; ++w) {
        const std::int64_t dealt = j * plan.warps_per_block + w;
        if (dealt % plan.core_packages_per_sm != 0) continue;
        first_package.push_back(&kernel.programs[kernel.warp_programs.program_of(j * gpu.sm_count, w)].program);
      }
    }
    write_requested_views(v, first_package, calibration.tm,
                          kernel.name + " on " + gpu.id + ": core package 0 of SM 0's first run, " +
                              std::to_string(first_package.size()) + " warps, t_m = " + isa::format_cycles(calibration.tm),
                          engine.options());
    nlohmann::ordered_json fields = timing_json(gpu, kernel.name, launch, timing, calibration.tm);
    fields["model"] = sim::workload::to_string(model);
    if (model == sim::workload::TimingModel::memory) {
      fields["registers_per_thread"] = registers.value;
      fields["registers_source"] = registers.source;
      fields["static_shared_bytes"] = kernel.static_shared_bytes;
    }
    fields["warp_programs"] = kernel.programs.size();
    fields["unknown_branches"] = kernel.unknown_branches.count;
    fields["emulated_instructions"] = kernel.emulated_instructions;
    fields["emulated_classes"] = kernel.emulated_classes;
    const std::string& path = v["program"].as<std::string>();
    if (format == Format::json) {
      fields["parameters"] = parameters_json(kernel.parameters);
      fields["assumptions"] = assumptions_json(kernel, path);
      write_output(fields.dump(2) + '\n');
    } else {
      std::string text = timing_text(fields) + parameters_text(kernel.parameters);
      for (const std::string& assumption : assumption_lines(kernel, path)) text += "assumption: " + assumption + '\n';
      write_output(text);
    }
    return 0;
  }
  const isa::Program program = load_bound_program(v);
  const gpus::Calibration calibration = gpus::resolve_calibration(gpu, program.name(), given, program.default_tm());
  const sim::workload::LaunchEngine engine(gpu, launch, model, calibration.tm, engine_options);
  const auto timing = sim::grid::time_grid(gpu, launch, calibration.tp_us, [&](std::int64_t warps) {
    return sim::core::simulate_core(program, warps, calibration.tm, engine.options());
  });
  // The views show one core package of a full run (Algorithm 1's t).
  write_requested_views(v, program, timing.plan.warps_per_core_package, calibration.tm,
                        program.name() + " on " + gpu.id + ": one core package of a full run, " +
                            std::to_string(timing.plan.warps_per_core_package) + " warps, t_m = " +
                            isa::format_cycles(calibration.tm),
                        engine.options());
  const nlohmann::ordered_json fields = timing_json(gpu, program.name(), launch, timing, calibration.tm);
  write_output(format == Format::json ? fields.dump(2) + '\n' : timing_text(fields));
  return 0;
}

}  // namespace warpsim::cli

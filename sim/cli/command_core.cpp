#include <optional>

#include <nlohmann/json.hpp>

#include "warpsim/isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/workload/timing_model.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::cli {

int run_core(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("warps", po::value<std::string>()->required(), "N_w: warps on the core package")
      ("tm", po::value<std::string>(), "t_m in cycles (default: the program's `tm` line; under the memory-aware model "
                                        "the GPU's default front-end time per transaction)")
      ("gpu", po::value<std::string>(), "GPU profile whose memory figures price annotated accesses (memory-aware model)")
      ("block-warps", po::value<std::string>(), "warps per block on this core package, for barriers (default: all)")
      ("format", po::value<std::string>()->default_value("json"), "json|text");
  add_program_options(options);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim core PROGRAM.kp --warps N [--tm C] [--gpu ID [--block-warps B]] [--model paper|memory] "
                      "[--param K=V]... [--format json|text]",
                      "T_c: simulates one core package running N warps of the program (Algorithm 2).", options);
  }
  const auto& v = line.values;
  const Format format = parse_format(v["format"].as<std::string>(), {"json", "text"});
  const std::int64_t warps = parse_count_flag(v["warps"].as<std::string>(), "--warps");
  if (warps < 1 || warps > sim::core::kMaxWarpsPerCorePackage) {
    throw InputError("--warps " + std::to_string(warps) + ": a core package runs 1 to " +
                     std::to_string(sim::core::kMaxWarpsPerCorePackage) + " warps");
  }
  const isa::Program program = load_bound_program(v);
  const sim::workload::TimingModel model = timing_model(v);
  const bool priced = model == sim::workload::TimingModel::memory && program.has_memory_annotations();
  if (priced && !v.count("gpu")) {
    throw InputError(program.source() + ": the program has memory annotations: give --gpu ID for their prices, or "
                     "--model paper");
  }
  std::optional<gpus::Profile> gpu;
  if (v.count("gpu")) gpu = gpus::load_profile(v["gpu"].as<std::string>());
  isa::Millicycles tm = 0;
  if (v.count("tm")) {
    tm = parse_cycles_flag(v["tm"].as<std::string>(), "--tm");
  } else if (program.default_tm()) {
    tm = *program.default_tm();
  } else if (priced) {
    tm = sim::grid::default_issue_per_transaction(*gpu);
  } else {
    throw InputError("no t_m: give --tm CYCLES or a `tm` line in " + program.source());
  }
  // One core package of a GPU whose every SM runs blocks of `block-warps` warps.
  const std::int64_t block_warps = v.count("block-warps") ? parse_count_flag(v["block-warps"].as<std::string>(), "--block-warps") : warps;
  if (block_warps < 1 || block_warps > warps) throw InputError("--block-warps must be in [1, --warps]");
  std::optional<sim::workload::LaunchEngine> engine;
  sim::core::CoreOptions engine_options = core_options(v);
  if (priced) {
    const sim::grid::Launch launch{gpu->sm_count, block_warps * 32};
    engine.emplace(*gpu, launch, model, tm, engine_options);
    engine_options = engine->options();
    engine_options.barriers = sim::core::BarrierLayout{1, block_warps};
  }
  const isa::Millicycles cycles = sim::core::simulate_core(program, warps, tm, engine_options);
  write_requested_views(v, program, warps, tm,
                        program.name() + ", " + std::to_string(warps) + " warps, t_m = " + isa::format_cycles(tm), engine_options);
  if (format == Format::json) {
    nlohmann::ordered_json out;
    out["kernel"] = program.name();
    out["warps"] = warps;
    out["tm"] = sim::report::cycles_json(tm);
    out["cycles"] = sim::report::cycles_json(cycles);
    write_output(out.dump(2) + '\n');
  } else {
    write_output("T_c = " + isa::format_cycles(cycles) + " cycles (" + program.name() + ", " +
                 std::to_string(warps) + " warps, t_m = " + isa::format_cycles(tm) + ")\n");
  }
  return 0;
}

}  // namespace warpsim::cli

#include "cli_support.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "ptx_options.hpp"

namespace warpsim::cli {

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
  add_cache_option(options);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help(
        "warpsim simulate PROGRAM.kp|KERNEL.ptx|KERNEL.cu --gpu ID --grid B --block T [--tp US] [--tm C] [--param K=V]...",
        "T_k: predicts the kernel's time on the GPU for the launch (Algorithm 1 over Algorithm 2).", options);
  }
  const auto& v = line.values;
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  SimulateRequest request = simulation_request(v);
  request.grid = dimensions_flag(v, "grid");
  request.block = dimensions_flag(v, "block");
  request.timeline = v.count("timeline") > 0;
  request.trace = v.count("trace") > 0;
  const SimulateResult result = [&] {
    ProgressLine progress("lowering", true);  // a PTX lowering that takes a while shows its progress
    request.control = progress_control(progress);
    start_time_limit(v);
    return simulate(request);
  }();
  print_warnings(result.warnings);
  write_views(v, result.views);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

}  // namespace warpsim::cli

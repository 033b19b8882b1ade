#include "cli_support.hpp"
#include "commands.hpp"

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
    return print_help("warpsim core PROGRAM.kp --warps N [--tm C] [--gpu ID [--block-warps B]] [--model pipes|memory|paper] "
                      "[--param K=V]... [--format json|text]",
                      "T_c: simulates one core package running N warps of the program (Algorithm 2). Without --model: pipes with "
                      "--gpu; without --gpu the memory model (the pipes model prices instructions per GPU), which "
                      "times a program without annotations exactly as Algorithm 2.", options);
  }
  const auto& v = line.values;
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  CoreRequest request;
  request.program = v["program"].as<std::string>();
  request.warps = parse_count(v["warps"].as<std::string>(), "--warps");
  request.tm = tm_flag(v);
  request.params = parameters(v);
  if (v.count("gpu")) request.gpu = v["gpu"].as<std::string>();
  if (v.count("block-warps")) request.block_warps = parse_count(v["block-warps"].as<std::string>(), "--block-warps");
  if (!v["model"].defaulted()) request.model = model_flag(v);  // else CoreRequest's: pipes with --gpu, else memory
  request.max_instructions = max_instructions(v);
  request.timeline = v.count("timeline") > 0;
  request.trace = v.count("trace") > 0;
  const CoreResult result = run_core(request);
  write_views(v, result.views);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

}  // namespace warpsim::cli

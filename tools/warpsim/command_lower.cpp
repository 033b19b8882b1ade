#include "commands.hpp"
#include "progress.hpp"
#include "ptx_options.hpp"

namespace warpsim::cli {

int run_lower(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("program", po::value<std::string>()->required(), "kernel in PTX (.ptx), as nvcc -ptx writes it, or CUDA source (.cu: compiled with nvcc -ptx for sm_75)")
      ("grid", po::value<std::string>()->required(), "blocks: B or X,Y,Z")
      ("block", po::value<std::string>()->required(), "threads per block: T or X,Y,Z")
      ("param", po::value<std::vector<std::string>>()->composing(),
       "NAME=VALUE (repeatable): a kernel parameter by position (0=...), by PTX name, or by C++ name where the PTX "
       "keeps it (nvcc -G builds); another name is an error that lists the parameters. VALUE is decimal or 0x hex, "
       "within the parameter's type. Pointers need no value, nor do scalars that no branch, address or call reads")
      ("gpu", po::value<std::string>(),
       "a GPU (profile id or file): price each PTX instruction by the SASS ptxas emits for its architecture, as "
       "simulate's pipes model does (docs/sass.md); without it the PTX's own counts, in PTX order")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "with --gpu: the ptxas to run, or `none`")
      ("nvdisasm", po::value<std::string>()->default_value("nvdisasm"), "with --gpu: the nvdisasm to run, or `none`")
      ("format", po::value<std::string>()->default_value("kp"), "kp|json")
      ("output,o", po::value<std::string>(), "write to FILE instead of stdout");
  add_ptx_options(options);
  add_cache_option(options);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim lower KERNEL.ptx|KERNEL.cu --grid B --block T [--kernel NAME] [--param K=V]... [--gpu ID] [--format kp|json]",
                      "Lowers PTX to kernel programs: emulates every warp of the launch over the real control flow and "
                      "prints each distinct warp program (.kp) with how many warps run it. See docs/ptx.md.",
                      options);
  }
  const auto& v = line.values;
  const std::string format = output_format(v, {{}, "kp", {"kp", "json"}}, "output");
  LowerRequest request;
  request.ptx = v["program"].as<std::string>();
  request.grid = dimensions_flag(v, "grid");
  request.block = dimensions_flag(v, "block");
  request.params = parameters(v);
  request.options = ptx_options(v);
  request.nvcc_flags = nvcc_flags(v);
  if (v.count("gpu")) request.gpu = v["gpu"].as<std::string>();
  request.ptxas = v["ptxas"].as<std::string>();
  request.nvdisasm = v["nvdisasm"].as<std::string>();
  request.use_cache = !v.count("no-cache");
  const LowerResult result = [&] {
    ProgressLine progress("lowering", true);
    request.control = progress_control(progress);
    start_time_limit(v);
    return lower(request);
  }();
  print_warnings(result.warnings);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_kp(result), v.count("output") ? v["output"].as<std::string>() : std::string());
  return 0;
}

}  // namespace warpsim::cli

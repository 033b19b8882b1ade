#include "cli_support.hpp"
#include "commands.hpp"
#include "ptx_options.hpp"

namespace warpsim::cli {

int run_occupancy(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(), "GPU id (see `warpsim gpus`) or path to a profile .toml")
      ("block", po::value<std::string>()->required(), "threads per block: T or X,Y,Z")
      ("regs", po::value<std::string>(),
       "registers per thread (default: ptxas -v on --ptx when ptxas runs, else 32 with a warning)")
      ("smem", po::value<std::string>(), "static shared memory per block, bytes (default: the --ptx kernel's .shared, else 0)")
      ("dynamic-smem", po::value<std::string>()->default_value("0"), "dynamic shared memory per block, bytes (the launch's)")
      ("ptx", po::value<std::string>(), "the kernel's PTX (or CUDA source, .cu: compiled with nvcc -ptx for the GPU): "
                                        "static shared memory from it, registers from ptxas")
      ("nvcc-flags", po::value<std::string>(), kNvccFlagsHelp)
      ("kernel", po::value<std::string>(), "with --ptx: the entry, mangled or short name (default: the only one)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "ptxas to run (searched on PATH), or `none`")
      ("format", po::value<std::string>()->default_value("text"), "text|json");
  add_cache_option(options);
  const CommandLine line = parse_command_line(args, options, {});
  if (line.help) {
    return print_help(
        "warpsim occupancy --gpu ID --block T [--regs R] [--smem BYTES] [--dynamic-smem BYTES] [--ptx FILE [--kernel NAME]]",
        "Active blocks per SM, and which of warps, blocks, registers and shared memory limits them; the\n"
        "rules of cuda_occupancy.h with the default carve-out (docs/model.md#occupancy). A kernel that\n"
        "needs more than 48 KiB of shared memory is taken to have opted in to it.",
        options);
  }
  const auto& v = line.values;
  const bool json = output_format(v, {{}, "text", {"text", "json"}}) == "json";
  OccupancyRequest request;
  request.gpu = v["gpu"].as<std::string>();
  request.block = dimensions_flag(v, "block");
  request.dynamic_smem_bytes = parse_count(v["dynamic-smem"].as<std::string>(), "--dynamic-smem");
  if (v.count("ptx")) request.ptx = v["ptx"].as<std::string>();
  if (v.count("kernel")) request.kernel = v["kernel"].as<std::string>();
  if (v.count("smem")) request.static_smem_bytes = parse_count(v["smem"].as<std::string>(), "--smem");
  if (v.count("regs")) request.registers = parse_count(v["regs"].as<std::string>(), "--regs");
  request.ptxas = v["ptxas"].as<std::string>();
  request.use_cache = !v.count("no-cache");
  request.nvcc_flags = nvcc_flags(v);
  request.warn = [](const std::string& warning) { print_warnings({warning}); };  // before an error of the launch
  const OccupancyResult result = occupancy(request);
  write_output(json ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

}  // namespace warpsim::cli

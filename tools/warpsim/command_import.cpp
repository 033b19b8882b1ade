#include <filesystem>
#include <iostream>

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {

int run_import(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("profile", po::value<std::string>()->required(), "the profiler's CSV output")
      ("from", po::value<std::string>()->required(), "nvprof (--csv --print-gpu-summary or --print-gpu-trace) or nsys "
                                                     "(stats --report cuda_gpu_kern_sum --format csv)")
      ("gpu", po::value<std::string>()->required(), "the gpu column: the profile id the predictions use (e.g. h100)")
      ("workload", po::value<std::string>()->required(), "the workload column (e.g. dwt_matrix)")
      ("param", po::value<std::vector<std::string>>()->composing(), "NAME=VALUE (repeatable): a key column, e.g. K=8, N=1024")
      ("kernel", po::value<std::string>()->default_value(""), "the kernel whose name contains NAME (needed when there are several)")
      ("launches", po::value<std::string>()->default_value("1"), "time_us = L x the per-launch time (the lattice DWT: K/2+1)")
      ("out,o", po::value<std::string>(), "write to FILE.csv instead of stdout")
      ("append", "add the row to --out FILE when it exists (its header must match)");
  po::positional_options_description positional;
  positional.add("profile", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim import PROFILE.csv --from nvprof|nsys --gpu ID --workload W [--param K=V]... [--kernel NAME]\n"
                      "       [--launches L] [-o OUT.csv [--append]]",
                      "Turns a profiler's kernel times into a row of the measurements CSV that `warpsim evaluate` reads:\n"
                      "gpu,workload,<params>,time_us,samples[,launch_us]. time_us is the median per launch (the average\n"
                      "where the profiler gives no median); launch_us is cudaLaunchKernel's, when the file lists it.",
                      options);
  }
  const auto& v = line.values;
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  if (v.count("append") && out.empty()) throw InputError("--append needs --out FILE");
  ImportRequest request;
  request.profile = v["profile"].as<std::string>();
  request.launches = parse_count(v["launches"].as<std::string>(), "--launches");
  request.from = v["from"].as<std::string>();
  request.gpu = v["gpu"].as<std::string>();
  request.workload = v["workload"].as<std::string>();
  request.params = parameters(v);
  request.kernel = v["kernel"].as<std::string>();
  const ImportResult result = import_profile(request);
  write_output(v.count("append") && std::filesystem::exists(out) ? append_csv(out, result) : to_csv(result), out);
  std::cerr << "warpsim: " << to_text(result);
  return 0;
}

}  // namespace warpsim::cli

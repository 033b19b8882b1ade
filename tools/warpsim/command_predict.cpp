#include <map>

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {

int run_predict(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("workload", po::value<std::string>()->required(), "dwt_matrix, dwt_lattice, dwt2d_matrix or dwt2d_lattice")
      ("gpu", po::value<std::string>()->required(), "GPU id (see `warpsim gpus`) or path to a profile .toml")
      ("param", po::value<std::vector<std::string>>()->composing(), "K=FILTER_LENGTH and N=SIZE (both required)")
      ("tp", po::value<std::string>(), "t_p in microseconds (default: the profile's calibration)")
      ("tm", po::value<std::string>(), "t_m in cycles (default: the profile's calibration)")
      ("format", po::value<std::string>()->default_value("json"), "json|text");
  add_model_option(options);
  po::positional_options_description positional;
  positional.add("workload", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim predict WORKLOAD --gpu ID --param K=8 --param N=1024 [--tp US] [--tm C]",
                      "Predicts one point of a named DWT workload (eq. 17, 18, 2D), launched by Algorithm 3.",
                      options);
  }
  const auto& v = line.values;
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  PredictRequest request;
  request.workload = v["workload"].as<std::string>();
  request.gpu = v["gpu"].as<std::string>();
  std::map<std::string, std::int64_t> values = parse_counts(parameters(v));
  for (const char* name : {"K", "N"}) {
    if (!values.count(name)) throw InputError(std::string("missing --param ") + name + "=VALUE");
  }
  request.K = values.at("K");
  request.N = values.at("N");
  values.erase("K");
  values.erase("N");
  if (!values.empty()) throw InputError("unknown parameter '" + values.begin()->first + "' (the DWT workloads take K and N)");
  request.tp_us = tp_flag(v);
  request.tm = tm_flag(v);
  request.model = model_flag(v);
  const PredictResult result = predict(request);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

}  // namespace warpsim::cli

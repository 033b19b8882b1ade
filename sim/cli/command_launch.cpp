#include <nlohmann/json.hpp>

#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/grid/launch.hpp"

namespace warpsim::cli {

int run_launch(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(), "GPU id or path to a profile .toml")
      ("threads", po::value<std::string>()->required(), "total number of threads N")
      ("format", po::value<std::string>()->default_value("json"), "json|text");
  const CommandLine line = parse_command_line(args, options, {});
  if (line.help) {
    return print_help("warpsim launch --gpu ID --threads N [--format json|text]",
                      "N_bt*: the paper's launch heuristic (Algorithm 3) for N threads.", options);
  }
  const auto& v = line.values;
  const Format format = parse_format(v["format"].as<std::string>(), {"json", "text"});
  const gpus::Profile gpu = gpus::load_profile(v["gpu"].as<std::string>());
  const std::int64_t threads = parse_count_flag(v["threads"].as<std::string>(), "--threads");
  const sim::grid::Launch launch = sim::grid::suggest_launch(gpu, threads);
  const int rule = sim::grid::heuristic_rule(gpu, threads);
  if (format == Format::json) {
    nlohmann::ordered_json out;
    out["gpu"] = gpu.id;
    out["total_threads"] = threads;
    out["blocks"] = launch.blocks;
    out["threads"] = launch.threads_per_block;
    out["rule"] = rule;
    write_output(out.dump(2) + '\n');
  } else {
    write_output(std::to_string(launch.blocks) + " blocks x " + std::to_string(launch.threads_per_block) +
                 " threads (Algorithm 3, rule " + std::to_string(rule) + ", " + gpu.id + ")\n");
  }
  return 0;
}

}  // namespace warpsim::cli

#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"

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
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  const LaunchPlan plan = plan_launch(v["gpu"].as<std::string>(), parse_count_flag(v["threads"].as<std::string>(), "--threads"));
  write_output(format == "json" ? to_json(plan).dump(2) + '\n' : to_text(plan));
  return 0;
}

}  // namespace warpsim::cli

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {

int run_gpus(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("id", po::value<std::string>(), "a GPU id or profile path: show that profile")
      ("format", po::value<std::string>()->default_value("text"), "text|json");
  po::positional_options_description positional;
  positional.add("id", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim gpus [ID] [--format text|json]",
                      "Lists the built-in GPU profiles, or shows one with the source of each figure.", options);
  }
  const auto& v = line.values;
  const bool json = output_format(v, {{}, "text", {"text", "json"}}) == "json";
  if (v.count("id")) {
    const GpuProfile gpu = gpu_profile(v["id"].as<std::string>());
    write_output(json ? to_json(gpu).dump(2) + '\n' : to_text(gpu));
    return 0;
  }
  const std::vector<GpuProfile> gpus = gpu_profiles();
  write_output(json ? to_json(gpus).dump(2) + '\n' : to_text(gpus));
  return 0;
}

}  // namespace warpsim::cli

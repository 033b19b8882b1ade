#include <nlohmann/json.hpp>

#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::cli {
namespace {

using sim::report::shortest;

// [host]: the figures it gives, and its source.
nlohmann::ordered_json host_json(const gpus::Profile& gpu) {
  nlohmann::ordered_json out;
  const gpus::SystemFigures& h = gpu.host;
  if (h.host_link_gbs) out["host_link_gbs"] = sim::report::number_json(*h.host_link_gbs);
  if (h.host_link_latency_us) out["host_link_latency_us"] = sim::report::number_json(*h.host_link_latency_us);
  if (h.shared_link) out["shared_link"] = *h.shared_link;
  if (h.network_gbs) out["network_gbs"] = sim::report::number_json(*h.network_gbs);
  if (h.network_latency_us) out["network_latency_us"] = sim::report::number_json(*h.network_latency_us);
  out["source"] = gpu.host_source;
  return out;
}

nlohmann::ordered_json profile_json(const gpus::Profile& gpu) {
  nlohmann::ordered_json out;
  out["id"] = gpu.id;
  out["name"] = gpu.name;
  out["architecture"] = gpu.architecture;
  out["compute_capability"] = gpu.compute_capability;
  out["clock_mhz"] = sim::report::number_json(gpu.clock_mhz);
  out["sm_count"] = gpu.sm_count;
  out["cores_per_sm"] = gpu.cores_per_sm;
  out["core_packages_per_sm"] = gpu.core_packages_per_sm();
  out["max_blocks_per_sm"] = gpu.max_blocks_per_sm;
  out["max_warps_per_sm"] = gpu.max_warps_per_sm;
  out["max_threads_per_block"] = gpu.max_threads_per_block;
  out["warp_size"] = gpu.warp_size;
  for (const auto& [key, value] : gpu.figures) out[key] = sim::report::number_json(value);
  if (!gpu.memory_type.empty()) out["memory_type"] = gpu.memory_type;
  out["sources"] = gpu.sources;
  nlohmann::ordered_json calibrations = nlohmann::ordered_json::object();
  for (const auto& [kernel, calibration] : gpu.calibrations) {
    calibrations[kernel] = {{"tp_us", sim::report::number_json(calibration.tp_us)}, {"tm", sim::report::cycles_json(calibration.tm)}};
  }
  out["calibration"] = calibrations;
  if (!gpu.host.empty()) out["host"] = host_json(gpu);
  return out;
}

std::string calibration_list(const gpus::Profile& gpu) {
  std::string list;
  for (const auto& [kernel, calibration] : gpu.calibrations) list += (list.empty() ? "" : " ") + kernel;
  return list.empty() ? "-" : list;
}

std::string profile_text(const gpus::Profile& gpu) {
  sim::report::TextTable table({"figure", "value", "source"});
  const nlohmann::ordered_json fields = profile_json(gpu);
  for (const auto& [key, value] : fields.items()) {
    if (key == "sources" || key == "calibration" || key == "host") continue;
    const auto source = gpu.sources.find(key);
    table.add_row({key, value.is_string() ? value.get<std::string>()
                        : value.is_number_float() ? shortest(value.get<double>())
                                                  : value.dump(),
                   source == gpu.sources.end() ? "" : source->second});
  }
  std::string out = table.render();
  for (const auto& [kernel, calibration] : gpu.calibrations) {
    out += "calibration." + kernel + ": tp_us = " + shortest(calibration.tp_us) +
           ", tm = " + isa::format_cycles(calibration.tm) + "\n";
  }
  if (!gpu.host.empty()) {
    const nlohmann::ordered_json host = host_json(gpu);
    for (const auto& [key, value] : host.items()) {
      if (key != "source") out += "host." + key + " = " + (value.is_number_float() ? shortest(value.get<double>()) : value.dump()) + "\n";
    }
    out += "host.source: " + gpu.host_source + "\n";
  }
  return out;
}

}  // namespace

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
    const gpus::Profile gpu = gpus::load_profile(v["id"].as<std::string>());
    write_output(json ? profile_json(gpu).dump(2) + '\n' : profile_text(gpu));
    return 0;
  }
  std::vector<gpus::Profile> profiles;
  for (const std::string& id : gpus::builtin_profile_ids()) profiles.push_back(gpus::load_profile(id));
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& gpu : profiles) list.push_back(profile_json(gpu));
    write_output(list.dump(2) + '\n');
    return 0;
  }
  sim::report::TextTable table({"id", "name", "arch", "cc", "SMs", "cores/SM", "clock_mhz", "calibrated for"});
  for (const auto& gpu : profiles) {
    table.add_row({gpu.id, gpu.name, gpu.architecture, gpu.compute_capability, std::to_string(gpu.sm_count),
                   std::to_string(gpu.cores_per_sm), shortest(gpu.clock_mhz), calibration_list(gpu)});
  }
  write_output(table.render());
  return 0;
}

}  // namespace warpsim::cli

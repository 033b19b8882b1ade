// warpsim gpus' JSON and text: the list, and one profile with the source of each figure.
#include "views.hpp"
#include "warpsim/isa/time.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

using sim::report::number_json;
using sim::report::shortest;

nlohmann::ordered_json host_json(const HostFigures& h) {
  nlohmann::ordered_json out;
  if (h.host_link_gbs) out["host_link_gbs"] = number_json(*h.host_link_gbs);
  if (h.host_link_latency_us) out["host_link_latency_us"] = number_json(*h.host_link_latency_us);
  if (h.shared_link) out["shared_link"] = *h.shared_link;
  if (h.network_gbs) out["network_gbs"] = number_json(*h.network_gbs);
  if (h.network_latency_us) out["network_latency_us"] = number_json(*h.network_latency_us);
  out["source"] = h.source;
  return out;
}

// A value of the JSON as the text shows it: strings bare, fractions shortest.
std::string value_text(const nlohmann::ordered_json& value) {
  return value.is_string() ? value.get<std::string>() : value.is_number_float() ? shortest(value.get<double>()) : value.dump();
}

std::string calibration_list(const GpuProfile& gpu) {
  std::string list;
  for (const auto& [kernel, calibration] : gpu.calibrations) list += (list.empty() ? "" : " ") + kernel;
  return list.empty() ? "-" : list;
}

}  // namespace

nlohmann::ordered_json to_json(const GpuProfile& gpu) {
  nlohmann::ordered_json out;
  out["id"] = gpu.id;
  out["name"] = gpu.name;
  out["architecture"] = gpu.architecture;
  out["compute_capability"] = gpu.compute_capability;
  out["clock_mhz"] = number_json(gpu.clock_mhz);
  out["sm_count"] = gpu.sm_count;
  out["cores_per_sm"] = gpu.cores_per_sm;
  out["core_packages_per_sm"] = gpu.core_packages_per_sm;
  out["max_blocks_per_sm"] = gpu.max_blocks_per_sm;
  out["max_warps_per_sm"] = gpu.max_warps_per_sm;
  out["max_threads_per_block"] = gpu.max_threads_per_block;
  out["warp_size"] = gpu.warp_size;
  for (const auto& [key, value] : gpu.figures) out[key] = number_json(value);
  if (!gpu.memory_type.empty()) out["memory_type"] = gpu.memory_type;
  out["sources"] = gpu.sources;
  nlohmann::ordered_json calibrations = nlohmann::ordered_json::object();
  for (const auto& [kernel, calibration] : gpu.calibrations) {
    calibrations[kernel] = {{"tp_us", number_json(calibration.tp_us)},
                            {"tm", sim::report::cycles_json(api::millicycles(calibration.tm))}};
  }
  out["calibration"] = calibrations;
  if (gpu.host) out["host"] = host_json(*gpu.host);
  return out;
}

std::string to_text(const GpuProfile& gpu) {
  sim::report::TextTable table({"figure", "value", "source"});
  const nlohmann::ordered_json fields = to_json(gpu);
  for (const auto& [key, value] : fields.items()) {
    if (key == "sources" || key == "calibration" || key == "host") continue;
    const auto source = gpu.sources.find(key);
    table.add_row({key, value_text(value), source == gpu.sources.end() ? "" : source->second});
  }
  std::string out = table.render();
  for (const auto& [kernel, calibration] : gpu.calibrations) {
    out += "calibration." + kernel + ": tp_us = " + shortest(calibration.tp_us) +
           ", tm = " + isa::format_cycles(api::millicycles(calibration.tm)) + "\n";
  }
  if (gpu.host) {
    const nlohmann::ordered_json host = host_json(*gpu.host);
    for (const auto& [key, value] : host.items()) {
      if (key != "source") out += "host." + key + " = " + (value.is_number_float() ? shortest(value.get<double>()) : value.dump()) + "\n";
    }
    out += "host.source: " + gpu.host->source + "\n";
  }
  return out;
}

nlohmann::ordered_json to_json(const std::vector<GpuProfile>& gpus) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GpuProfile& gpu : gpus) list.push_back(to_json(gpu));
  return list;
}

std::string to_text(const std::vector<GpuProfile>& gpus) {
  sim::report::TextTable table({"id", "name", "arch", "cc", "SMs", "cores/SM", "clock_mhz", "calibrated for"});
  for (const GpuProfile& gpu : gpus) {
    table.add_row({gpu.id, gpu.name, gpu.architecture, gpu.compute_capability, std::to_string(gpu.sm_count),
                   std::to_string(gpu.cores_per_sm), shortest(gpu.clock_mhz), calibration_list(gpu)});
  }
  return table.render();
}

}  // namespace warpsim

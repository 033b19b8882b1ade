#include "warpsim/gpus/system_figures_toml.hpp"

namespace warpsim::gpus {

SystemFigures SystemFigures::overridden_by(const SystemFigures& over) const {
  SystemFigures merged = *this;
  if (over.host_link_gbs) merged.host_link_gbs = over.host_link_gbs;
  if (over.host_link_latency_us) merged.host_link_latency_us = over.host_link_latency_us;
  if (over.shared_link) merged.shared_link = over.shared_link;
  if (over.network_gbs) merged.network_gbs = over.network_gbs;
  if (over.network_latency_us) merged.network_latency_us = over.network_latency_us;
  return merged;
}

bool SystemFigures::empty() const {
  return !host_link_gbs && !host_link_latency_us && !shared_link && !network_gbs && !network_latency_us;
}

const char* system_figure_keys() {
  return "host_link_gbs, host_link_latency_us, shared_link, network_gbs, network_latency_us";
}

bool read_system_figure(const TomlReader& toml, std::string_view key, const toml::node& value, SystemFigures& figures) {
  const std::string name(key);
  // Bounds catch typos and unit slips (Gb/s for GB/s, ms for us) that still parse.
  const auto bandwidth = [&] {
    const double gbs = toml.number(value, name);
    if (!(gbs > 0) || gbs > 1e6) toml.fail(&value, name + " must be in (0, 10^6] GB/s");
    return gbs;
  };
  const auto latency = [&] {
    const double us = toml.number(value, name);
    if (us < 0 || us > 1e9) toml.fail(&value, name + " must be in [0, 10^9] microseconds");
    return us;
  };
  if (key == "host_link_gbs") figures.host_link_gbs = bandwidth();
  else if (key == "host_link_latency_us") figures.host_link_latency_us = latency();
  else if (key == "shared_link") figures.shared_link = toml.boolean(value, name);
  else if (key == "network_gbs") figures.network_gbs = bandwidth();
  else if (key == "network_latency_us") figures.network_latency_us = latency();
  else return false;
  return true;
}

}  // namespace warpsim::gpus

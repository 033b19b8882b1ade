// The figures of the system around the GPUs that whole-application predictions need (seeds 000
// and 003, docs/apps.md): the host link (PCIe, NVLink-C2C) and the network between nodes. An
// app's [system] table gives them, a GPU profile's [host] table may carry defaults; the app's
// keys win.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace warpsim::gpus {

struct SystemFigures {
  std::optional<double> host_link_gbs;         // host<->device, GB/s (10^9 B/s) per direction, one GPU alone
  std::optional<double> host_link_latency_us;  // fixed cost of one copy
  std::optional<bool> shared_link;             // the M GPUs share one host link
  std::optional<double> network_gbs;           // between nodes, GB/s
  std::optional<double> network_latency_us;    // fixed cost of one message

  // Each figure of `over` where it has one, else this one's.
  SystemFigures overridden_by(const SystemFigures& over) const;
  bool empty() const;
};

// The keys, for messages: "host_link_gbs, host_link_latency_us, shared_link, network_gbs,
// network_latency_us".
const char* system_figure_keys();

}  // namespace warpsim::gpus

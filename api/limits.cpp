#include "limits.hpp"

#include <algorithm>
#include <cmath>

#include "warpsim/report/number_format.hpp"

namespace warpsim::api {
namespace {

// A resource busy at least this share of T_c binds; below the lower share nothing does, and the
// warps wait for latencies (too few warps, or too little independent work per warp).
constexpr double kBinding = 0.8;

}  // namespace

std::string resource_name(const std::string& key) {
  if (key == "issue") return "issue";
  if (key == "memory") return "memory front end";
  if (key == "shared") return "shared memory";
  if (key == "dram") return "DRAM bandwidth";
  if (key == "atomic") return "atomic contention";
  if (key == "l2") return "L2 bandwidth";
  return key + " pipe";
}

std::string percent(double share) { return sim::report::shortest(std::round(share * 1000) / 10) + "%"; }

Limits limits_of(const std::vector<const isa::Program*>& programs, isa::Millicycles tm, const sim::core::CoreOptions& engine,
                 const SimulateResult& result) {
  Limits limits;
  sim::core::PipeBusy busy;
  sim::core::CoreOptions options = engine;
  options.events = nullptr;
  options.busy = &busy;
  const isa::Millicycles cycles = programs.empty() ? 0 : sim::core::simulate_core(programs, tm, options);
  limits.package_cycles = isa::to_cycles(cycles);
  const auto share = [&](isa::Millicycles t) { return cycles > 0 ? std::min(1.0, static_cast<double>(t) / static_cast<double>(cycles)) : 0.0; };
  limits.utilisation.emplace_back("issue", share(busy.issue));
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
    if (busy.pipes[p] > 0) limits.utilisation.emplace_back(isa::to_string(isa::pipe_at(p)), share(busy.pipes[p]));
  }
  limits.utilisation.emplace_back("memory", share(busy.memory));
  limits.utilisation.emplace_back("shared", share(busy.shared));
  limits.utilisation.emplace_back("dram", share(busy.dram));
  if (busy.atomic > 0) limits.utilisation.emplace_back("atomic", share(busy.atomic));
  if (busy.l2 > 0) limits.utilisation.emplace_back("l2", share(busy.l2));
  limits.launch_overhead_share = result.time_us > 0 ? result.tp_us / result.time_us : 0;
  const double kernel_cycles = result.cycles;
  limits.tail_share = kernel_cycles > 0 ? result.remaining_run_cycles / kernel_cycles : 0;

  // The busiest resource ("shared" is part of "memory": named when it is most of it).
  auto busiest = limits.utilisation.front();
  for (const auto& u : limits.utilisation) {
    if (u.first != "shared" && u.second > busiest.second) busiest = u;
  }
  std::string busiest_name = resource_name(busiest.first);
  if (busiest.first == "memory" && share(busy.shared) * 2 > busiest.second) busiest_name += " (mostly shared memory)";
  if (limits.launch_overhead_share >= 0.5) {
    limits.limiter = "launch overhead";
    limits.reason = "t_p is " + percent(limits.launch_overhead_share) + " of the kernel's time";
  } else if (result.plan.full_runs == 0 || limits.tail_share >= 0.5) {
    limits.limiter = "tail wave";
    limits.reason = "the last, partial run of blocks is " + percent(limits.tail_share) + " of the cycles (" +
                    std::to_string(result.plan.full_runs) + " full runs)";
  } else if (busiest.second >= kBinding) {
    limits.limiter = busiest_name;
    limits.reason = busiest_name + " busy " + percent(busiest.second) + " of the core package's T_c";
  } else {
    limits.limiter = "latency";
    limits.reason = "no resource is busy " + percent(kBinding) + " of T_c (the busiest, " + busiest_name +
                    ", " + percent(busiest.second) + "): " + std::to_string(result.plan.warps_per_core_package) +
                    " warps per core package wait on latencies";
  }
  return limits;
}

}  // namespace warpsim::api

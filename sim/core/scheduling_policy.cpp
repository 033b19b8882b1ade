#include "warpsim/core/scheduling_policy.hpp"

#include <optional>

#include "warpsim/core/steady_state.hpp"

namespace warpsim::sim::core {

void StrictRoundRobin::run(CorePackage& package) const {
  std::optional<SteadyStateDetector> steady_state;  // built only when it can help
  if (package.fast_forward_allowed()) steady_state.emplace();
  bool issued = true;
  while (issued) {
    if (steady_state) steady_state->at_round_start(package);
    issued = false;
    for (std::size_t warp = 0; warp < package.warp_count(); ++warp) {
      issued = package.visit(warp) || issued;
    }
  }
}

const SchedulingPolicy& strict_round_robin() {
  static const StrictRoundRobin policy;
  return policy;
}

}  // namespace warpsim::sim::core

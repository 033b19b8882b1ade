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

void EarliestReadyFirst::run(CorePackage& package) const {
  std::optional<SteadyStateDetector> steady_state;
  if (package.fast_forward_allowed()) steady_state.emplace();
  while (const std::optional<std::size_t> warp = package.next_pipe_warp()) {
    // A steady state shows where the first warp comes back to the top of a loop body; the
    // state then decides the rest, so the same warp issues next after a jump.
    if (steady_state && *warp == 0 && package.at_loop_head(0)) steady_state->at_round_start(package);
    package.issue_next(*warp);
  }
}

const SchedulingPolicy& earliest_ready_first() {
  static const EarliestReadyFirst policy;
  return policy;
}

const SchedulingPolicy& strict_round_robin() {
  static const StrictRoundRobin policy;
  return policy;
}

}  // namespace warpsim::sim::core

#include "sim/core/scheduling_policy.hpp"

namespace warpsim::sim::core {

void StrictRoundRobin::run(CorePackage& package) const {
  bool issued = true;
  while (issued) {
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

#include "warpsim/core/steady_state.hpp"

namespace warpsim::sim::core {

std::int64_t SteadyStateDetector::at_round_start(CorePackage& package) {
  PackageSnapshot& now = ring_[next_];
  package.take_snapshot(now);
  for (std::size_t back = 1; back <= stored_; ++back) {
    const PackageSnapshot& earlier = ring_[(next_ + ring_.size() - back) % ring_.size()];
    if (const std::int64_t periods = package.fast_forward(earlier, now); periods > 0) {
      stored_ = 0;  // the counters moved: older snapshots no longer describe one period
      return periods;
    }
  }
  next_ = (next_ + 1) % ring_.size();
  stored_ = std::min(stored_ + 1, kHistory);
  return 0;
}

}  // namespace warpsim::sim::core

// The order in which a core package's warps are selected. The paper's strict round robin is the
// default; other policies (loose round robin, greedy-then-oldest) plug in here.
#pragma once

#include <string_view>

#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::core {

class SchedulingPolicy {
 public:
  virtual ~SchedulingPolicy() = default;
  virtual std::string_view name() const = 0;
  // Visits warps until every program has finished.
  virtual void run(CorePackage& package) const = 0;
};

// Algorithm 2: rounds over warps 0..N-1 in order, until a round in which no warp issued.
class StrictRoundRobin final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "strict-round-robin"; }
  void run(CorePackage& package) const override;
};

const SchedulingPolicy& strict_round_robin();

}  // namespace warpsim::sim::core

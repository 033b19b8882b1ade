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

// The pipes model's scheduler (pipe_issue.cpp): one instruction (op) at a time from the warp that
// can start earliest, ties in loose round-robin order; a package built with PipeTiming only.
class EarliestReadyFirst final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "earliest-ready-first"; }
  void run(CorePackage& package) const override;
};
const SchedulingPolicy& earliest_ready_first();

}  // namespace warpsim::sim::core

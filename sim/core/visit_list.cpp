#include "warpsim/core/visit_list.hpp"

#include <algorithm>
#include <array>

#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::core {

bool suits_visit_engine(const isa::Program& program, const isa::DynamicCounts& counts) {
  if (counts.instructions <= kVisitEngineInstructions) return true;
  return counts.instructions <= kMaxVisitEngineInstructions &&
         program.max_loop_count() < CorePackage::kShortestLoopWorthSkipping;
}

VisitList compile_visits(const isa::Program& program, Millicycles tm) {
  // One warp alone on a package, visit by visit: CorePackage decides where visits end and what
  // each instruction costs, so the two engines cannot disagree on the rules.
  const isa::Program* const programs[] = {&program};
  CorePackage package(programs, tm, nullptr, false);
  VisitList visits;
  visits.reserve(static_cast<std::size_t>(program.dynamic_counts().loads) + 1);  // a visit ends at a run of loads or the end
  while (package.visit(0)) visits.push_back(package.last_visit());
  return visits;
}

namespace {

// Per-warp completion times: on the stack for the usual few dozen warps, no allocation.
class WarpTimes {
 public:
  explicit WarpTimes(std::size_t warps) {
    if (warps > small_.size()) large_.resize(warps);
    times_ = warps > small_.size() ? std::span(large_) : std::span(small_.data(), warps);
    std::fill(times_.begin(), times_.end(), 0);
  }
  WarpTimes(const WarpTimes&) = delete;  // times_ may point into small_
  WarpTimes& operator=(const WarpTimes&) = delete;
  Millicycles& operator[](std::size_t w) { return times_[w]; }
  std::span<Millicycles> all() { return times_; }

 private:
  std::array<Millicycles, 128> small_;
  std::vector<Millicycles> large_;
  std::span<Millicycles> times_;
};

}  // namespace

// Every warp runs the same visits: round r is visit r for all of them.
Millicycles run_visits_warp_by_warp(const VisitList& visits, std::size_t warps) {
  if (warps == 0) return 0;
  WarpTimes loads_done(warps);
  Millicycles now = 0, latest_transaction_end = 0;
  for (const Visit& visit : visits) {
    Millicycles start = 0;
    for (Millicycles& done : loads_done.all()) {
      start = std::max(now, done);  // the warp waits for its own loads
      if (visit.loads_end != Visit::kNone) done = start + visit.loads_end;
      now = start + visit.length;
    }
    // Starts only grow, so the round's last visit ends its transactions last.
    if (visit.transactions_end != Visit::kNone) {
      latest_transaction_end = std::max(latest_transaction_end, start + visit.transactions_end);
    }
  }
  // The final round, where no warp issues, waits for every load; all of them end by the latest
  // transaction, so T_c is the later of the two.
  return std::max(now, latest_transaction_end);
}

Millicycles run_visits(const VisitList& visits, std::size_t warps) {
  if (warps == 0) return 0;
  const auto last = static_cast<Millicycles>(warps - 1);
  // When the first and the last warp's loads are done: all the round needs (visit_list.hpp).
  Millicycles first_done = 0, last_done = 0;
  Millicycles now = 0, latest_transaction_end = 0;
  for (const Visit& visit : visits) {
    const Millicycles first_start = std::max(now, first_done);
    const Millicycles last_start = std::max(first_start + last * visit.length, last_done);
    if (visit.loads_end != Visit::kNone) {
      first_done = first_start + visit.loads_end;
      last_done = last_start + visit.loads_end;
    }
    now = last_start + visit.length;
    if (visit.transactions_end != Visit::kNone) {
      latest_transaction_end = std::max(latest_transaction_end, last_start + visit.transactions_end);
    }
  }
  return std::max(now, latest_transaction_end);
}

Millicycles run_visits(std::span<const VisitList* const> lists) {
  if (lists.empty()) return 0;
  const bool uniform = std::all_of(lists.begin(), lists.end(), [&](const VisitList* list) { return list == lists.front(); });
  if (uniform) return run_visits(*lists.front(), lists.size());
  WarpTimes loads_done(lists.size());
  std::size_t rounds = 0;
  for (const VisitList* list : lists) rounds = std::max(rounds, list->size());
  Millicycles now = 0, latest_transaction_end = 0;
  for (std::size_t round = 0; round < rounds; ++round) {
    for (std::size_t w = 0; w < lists.size(); ++w) {
      now = std::max(now, loads_done[w]);
      if (round >= lists[w]->size()) continue;  // finished: it only waits
      const Visit& visit = (*lists[w])[round];
      if (visit.loads_end != Visit::kNone) loads_done[w] = now + visit.loads_end;
      if (visit.transactions_end != Visit::kNone) {
        latest_transaction_end = std::max(latest_transaction_end, now + visit.transactions_end);
      }
      now += visit.length;
    }
  }
  return std::max(now, latest_transaction_end);
}

}  // namespace warpsim::sim::core

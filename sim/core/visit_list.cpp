#include "sim/core/visit_list.hpp"

#include <algorithm>

#include "sim/core/core_package.hpp"

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
  std::vector<CoreEvent> events;
  CorePackage package(programs, tm, &events, false);
  VisitList visits;
  while (package.visit(0)) {
    const Millicycles start = events.front().start;
    Visit visit;
    visit.length = events.back().issue_end - start;
    for (const CoreEvent& event : events) {
      if (event.kind == isa::OpKind::calc) continue;
      visit.transactions_end = std::max(visit.transactions_end, event.end - start);
      if (event.kind == isa::OpKind::load) visit.loads_end = std::max(visit.loads_end, event.end - start);
    }
    visits.push_back(visit);
    events.clear();
  }
  return visits;
}

namespace {

// Every warp runs the same visits: round r is visit r for all of them.
Millicycles run_uniform(const VisitList& visits, std::size_t warps) {
  std::vector<Millicycles> loads_done(warps, 0);
  Millicycles now = 0, latest_transaction_end = 0;
  for (const Visit& visit : visits) {
    Millicycles start = 0;
    for (Millicycles& done : loads_done) {
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

Millicycles run_mixed(std::span<const VisitList* const> lists) {
  std::vector<Millicycles> loads_done(lists.size(), 0);
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

}  // namespace

Millicycles run_visits(std::span<const VisitList* const> lists) {
  if (lists.empty()) return 0;
  const bool uniform = std::all_of(lists.begin(), lists.end(), [&](const VisitList* list) { return list == lists.front(); });
  return uniform ? run_uniform(*lists.front(), lists.size()) : run_mixed(lists);
}

}  // namespace warpsim::sim::core

#include "warpsim/core/core_package.hpp"

#include <algorithm>

namespace warpsim::sim::core {

using isa::OpKind;

std::ostream& operator<<(std::ostream& out, const CoreEvent& event) {
  return out << 'w' << event.warp << ' ' << isa::to_string(event.kind) << " [" << isa::format_cycles(event.start)
             << ", " << isa::format_cycles(event.issue_end) << ", " << isa::format_cycles(event.end) << ']';
}

CorePackage::CorePackage(std::span<const isa::Program* const> programs, Millicycles tm,
                         std::vector<CoreEvent>* events, bool fast_forward, const MemoryTiming* memory,
                         BarrierLayout barriers, const PipeTiming* pipes, WarpTime* warp_time)
    : tm_(tm), events_(events), memory_(memory), pipes_(pipes), warp_time_(pipes ? warp_time : nullptr),
      fast_forward_(fast_forward && events == nullptr && warp_time_ == nullptr) {
  bool long_loop = false;
  std::size_t loop_slots = 0;
  warps_.resize(programs.size());
  for (std::size_t w = 0; w < programs.size(); ++w) {
    warps_[w].program = programs[w];
    warps_[w].ops = programs[w]->ops().data();
    warps_[w].size = programs[w]->ops().size();
    warps_[w].loop_base = loop_slots;
    loop_slots += static_cast<std::size_t>(programs[w]->max_loop_depth());
    long_loop = long_loop || programs[w]->max_loop_count() >= kShortestLoopWorthSkipping;
    warps_[w].block = static_cast<std::uint32_t>(barriers.block_of(static_cast<std::int64_t>(w)));
    if (warps_[w].block >= blocks_.size()) blocks_.resize(warps_[w].block + 1);
    ++blocks_[warps_[w].block].warps;
  }
  loops_left_.resize(loop_slots);
  loop_ids_.resize(loop_slots);
  for (Warp& warp : warps_) {
    settle(warp);
    if (warp.pc == warp.size) ++blocks_[warp.block].finished;
  }
  if (pipes_) {
    price_mixes();
    starts_.resize(warps_.size());
    for (std::size_t w = 0; w < warps_.size(); ++w) refresh_start(w);
  }
  fast_forward_ = fast_forward_ && long_loop;
}

void CorePackage::settle(Warp& warp) {
  while (warp.pc < warp.size) {
    const isa::Op& op = warp.ops[warp.pc];
    if (op.kind == OpKind::repeat) {
      if (op.count == 0) {
        warp.pc = op.partner + 1;
      } else {
        loops_left_[warp.loop_base + warp.loop_depth] = op.count;
        loop_ids_[warp.loop_base + warp.loop_depth] = ++warp.loops_entered;
        ++warp.loop_depth;
        ++warp.pc;
      }
    } else if (op.kind == OpKind::end) {
      if (--loops_left_[warp.loop_base + warp.loop_depth - 1] > 0) {
        warp.pc = op.partner + 1;
      } else {
        --warp.loop_depth;
        ++warp.pc;
      }
    } else {
      return;
    }
  }
}

void CorePackage::record(std::size_t warp, OpKind kind, Millicycles issue, Millicycles issue_end, Millicycles end) {
  events_->push_back({static_cast<std::uint32_t>(warp), kind, issue, issue_end, end});
}

bool CorePackage::arrive(std::size_t index) {
  Warp& warp = warps_[index];
  Block& block = blocks_[warp.block];
  ++block.arrived;
  warp.at_barrier = true;
  release_if_complete(block, warp.block, pipes_ ? warp.ready : now_);
  return warp.at_barrier;
}

void CorePackage::release_if_complete(Block& block, std::uint32_t id, Millicycles at) {
  if (block.arrived == 0 || block.arrived + block.finished < block.warps) return;
  block.arrived = 0;
  for (std::size_t k = 0; k < warps_.size(); ++k) {
    Warp& w = warps_[k];
    if (w.block != id) continue;
    if (w.at_barrier) {  // the pipes model: released when the last arrives
      w.ready = std::max(w.ready, at);
      w.ready_uncontended = std::max(w.ready_uncontended, at);
      w.barrier_until = at;
    }
    w.at_barrier = false;
    if (pipes_) refresh_start(k);
  }
}

Millicycles CorePackage::queue(Millicycles& free, Millicycles& busy, Millicycles from, Millicycles time) {
  if (time == 0) return 0;
  free = std::max(free, from) + time;
  busy += time;
  return free;
}

Millicycles CorePackage::queue_shared_resources(Millicycles from, const AccessCost& cost) {
  return std::max(queue(atomic_free_, busy_.atomic, from, cost.atomic), queue(l2_free_, busy_.l2, from, cost.l2));
}

Millicycles CorePackage::issue_priced(std::size_t index, const isa::Op& op, Millicycles& now) {
  const AccessCost cost = price_access(op, *memory_);
  Millicycles end = now + cost.latency;
  if (cost.dram > 0) {  // queued on the package's share of DRAM bandwidth
    dram_free_ = std::max(dram_free_, now) + cost.dram;
    end = std::max(end, dram_free_);
  }
  end = std::max(end, queue_shared_resources(now, cost));
  if (events_) record(index, op.kind, now, now + cost.issue, end);
  now += cost.issue;
  return end;
}

bool CorePackage::visit(std::size_t index) {
  Warp& warp = warps_[index];
  now_ = std::max(now_, warp.loads_done);  // Algorithm 2, line 13, for every warp visited
  if (warp.pc == warp.size || warp.at_barrier) return false;
  visit_start_ = now_;
  // The clock and the visit's ends live in locals while it runs, written back as it returns: the
  // compiler cannot keep members in registers across the writes into the warp's state.
  Millicycles now = now_, loads_end = Visit::kNone, transactions_end = Visit::kNone;
  const auto finish = [&](bool issued) {
    now_ = now;
    visit_loads_end_ = loads_end;
    visit_transactions_end_ = transactions_end;
    latest_transaction_end_ = std::max(latest_transaction_end_, transactions_end);
    finish_if_done(index, now);
    return issued;
  };
  for (;;) {
    const isa::Op& op = warp.ops[warp.pc];
    ++warp.pc;
    settle(warp);
    const bool priced = memory_ != nullptr && op.space != isa::MemorySpace::unspecified;
    if (op.kind == OpKind::calc || (memory_ == nullptr && !op.is_paper_memory())) {
      // The paper's model: a barrier and a non-global access are calcs of their duration.
      if (events_) record(index, OpKind::calc, now, now + op.duration, now + op.duration);
      now += op.duration;
    } else if (op.kind == OpKind::barrier) {
      if (events_) record(index, op.kind, now, now + op.duration, now + op.duration);
      now += op.duration;
      if (arrive(index)) return finish(true);
    } else {
      Millicycles end = 0;
      if (priced) {
        end = issue_priced(index, op, now);
      } else {
        end = now + std::max(op.duration, tm_);
        if (events_) record(index, op.kind, now, now + tm_, end);
        now += tm_;
      }
      transactions_end = std::max(transactions_end, end);
      if (op.kind == OpKind::load) {
        warp.loads_done = std::max(warp.loads_done, end);
        loads_end = std::max(loads_end, end);
        // A run of loads issues back to back; anything else after a load waits for it.
        if (warp.pc < warp.size && warp.ops[warp.pc].kind != OpKind::load) return finish(true);
      }
    }
    if (warp.pc == warp.size) return finish(true);
  }
}

void CorePackage::take_snapshot(PackageSnapshot& into) const {
  into.time = now_;
  into.shape.clear();
  into.counters.clear();
  into.loop_ids.clear();
  // A completion at or before the clock can never delay anything again, so it is stored as 0.
  const auto ahead = [this](Millicycles t) { return std::max<Millicycles>(0, t - now_); };
  std::size_t hash = 0;
  const auto add = [&](std::int64_t value) {
    into.shape.push_back(value);
    hash = (hash ^ static_cast<std::size_t>(value)) * 0x100000001b3ULL;
  };
  for (const Warp& warp : warps_) {
    add(static_cast<std::int64_t>(warp.pc));
    add(static_cast<std::int64_t>(warp.loop_depth));
    add(ahead(warp.loads_done));
    add(warp.at_barrier ? 1 : 0);
    if (pipes_) {
      add(ahead(warp.ready));
      add(ahead(warp.issued));
      for (const Gate* gate : {&warp.loads, &warp.copies}) {
        add(gate->left == kNoGate ? 0 : ahead(gate->at));
        add(gate->left);
      }
    }
    const auto first = static_cast<std::ptrdiff_t>(warp.loop_base);
    const auto last = first + static_cast<std::ptrdiff_t>(warp.loop_depth);
    into.counters.insert(into.counters.end(), loops_left_.begin() + first, loops_left_.begin() + last);
    into.loop_ids.insert(into.loop_ids.end(), loop_ids_.begin() + first, loop_ids_.begin() + last);
  }
  add(ahead(latest_transaction_end_));
  add(ahead(dram_free_));
  add(ahead(atomic_free_));
  add(ahead(l2_free_));
  for (const Block& block : blocks_) add(block.arrived);
  if (pipes_) {
    for (const Millicycles t : pipe_free_) add(ahead(t));
    add(ahead(memory_free_));
    add(ahead(issue_free_));
    add(static_cast<std::int64_t>(next_in_turn_));
  }
  into.busy = busy_;
  into.hash = hash;
}

std::int64_t CorePackage::fast_forward(const PackageSnapshot& earlier, const PackageSnapshot& now) {
  if (earlier.hash != now.hash || earlier.shape != now.shape) return 0;
  // Equal shapes: every warp is at the same instruction with the same loops open and the same
  // waits ahead. The period repeats exactly while no loop finishes inside it. A counter that
  // went down must belong to the same entry into its loop (not a loop left and entered again);
  // then each further period takes it down by the same amount.
  std::int64_t periods = INT64_MAX;
  for (std::size_t i = 0; i < now.counters.size(); ++i) {
    const std::int64_t used = earlier.counters[i] - now.counters[i];
    if (used == 0) continue;
    if (used < 0 || earlier.loop_ids[i] != now.loop_ids[i]) return 0;
    periods = std::min(periods, (now.counters[i] - 1) / used);  // the last skipped period must not finish the loop
  }
  if (periods == INT64_MAX || periods < 1) return 0;
  const Millicycles shift = (now.time - earlier.time) * periods;
  std::size_t next_counter = 0;
  const auto later = [&](Millicycles& t) {
    if (t > now_) t += shift;
  };
  for (Warp& warp : warps_) {
    later(warp.loads_done);
    later(warp.ready);
    later(warp.issued);
    later(warp.loads.at);
    later(warp.copies.at);
    for (std::size_t level = 0; level < warp.loop_depth; ++level, ++next_counter) {
      loops_left_[warp.loop_base + level] -= (earlier.counters[next_counter] - now.counters[next_counter]) * periods;
    }
  }
  if (pipes_) {
    for (std::size_t w = 0; w < warps_.size(); ++w) refresh_start(w);
  }
  later(latest_transaction_end_);
  later(dram_free_);
  later(atomic_free_);
  later(l2_free_);
  for (Millicycles& t : pipe_free_) later(t);
  later(memory_free_);
  later(issue_free_);
  const auto grow = [&](Millicycles& total, Millicycles before, Millicycles after) { total += (after - before) * periods; };
  grow(busy_.issue, earlier.busy.issue, now.busy.issue);
  grow(busy_.memory, earlier.busy.memory, now.busy.memory);
  grow(busy_.shared, earlier.busy.shared, now.busy.shared);
  grow(busy_.dram, earlier.busy.dram, now.busy.dram);
  grow(busy_.atomic, earlier.busy.atomic, now.busy.atomic);
  grow(busy_.l2, earlier.busy.l2, now.busy.l2);
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) grow(busy_.pipes[p], earlier.busy.pipes[p], now.busy.pipes[p]);
  now_ += shift;
  periods_skipped_ += periods;
  return periods;
}

}  // namespace warpsim::sim::core

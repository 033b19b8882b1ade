#include "sim/core/core_package.hpp"

#include <algorithm>

namespace warpsim::sim::core {

using isa::OpKind;

std::ostream& operator<<(std::ostream& out, const CoreEvent& event) {
  return out << 'w' << event.warp << ' ' << isa::to_string(event.kind) << " [" << isa::format_cycles(event.start)
             << ", " << isa::format_cycles(event.issue_end) << ", " << isa::format_cycles(event.end) << ']';
}

CorePackage::CorePackage(std::span<const isa::Program* const> programs, Millicycles tm,
                         std::vector<CoreEvent>* events, bool fast_forward)
    : tm_(tm), events_(events), fast_forward_(fast_forward && events == nullptr) {
  bool long_loop = false;
  warps_.reserve(programs.size());
  for (const isa::Program* program : programs) {
    Warp warp;
    warp.ops = program->ops().data();
    warp.size = program->ops().size();
    warp.iterations_left.reserve(static_cast<std::size_t>(program->max_loop_depth()));
    warp.loop_ids.reserve(static_cast<std::size_t>(program->max_loop_depth()));
    settle(warp);
    warps_.push_back(std::move(warp));
    long_loop = long_loop || program->max_loop_count() >= kShortestLoopWorthSkipping;
  }
  fast_forward_ = fast_forward_ && long_loop;
}

void CorePackage::settle(Warp& warp) const {
  while (warp.pc < warp.size) {
    const isa::Op& op = warp.ops[warp.pc];
    if (op.kind == OpKind::repeat) {
      if (op.count == 0) {
        warp.pc = op.partner + 1;
      } else {
        warp.iterations_left.push_back(op.count);
        warp.loop_ids.push_back(++warp.loops_entered);
        ++warp.pc;
      }
    } else if (op.kind == OpKind::end) {
      if (--warp.iterations_left.back() > 0) {
        warp.pc = op.partner + 1;
      } else {
        warp.iterations_left.pop_back();
        warp.loop_ids.pop_back();
        ++warp.pc;
      }
    } else {
      return;
    }
  }
}

void CorePackage::record(std::size_t warp, OpKind kind, Millicycles issue_end, Millicycles end) {
  if (events_) events_->push_back({static_cast<std::uint32_t>(warp), kind, now_, issue_end, end});
}

bool CorePackage::visit(std::size_t index) {
  Warp& warp = warps_[index];
  now_ = std::max(now_, warp.loads_done);  // Algorithm 2, line 13, for every warp visited
  if (warp.pc == warp.size) return false;
  for (;;) {
    const isa::Op& op = warp.ops[warp.pc];
    ++warp.pc;
    settle(warp);
    if (op.kind == OpKind::calc) {
      record(index, op.kind, now_ + op.duration, now_ + op.duration);
      now_ += op.duration;
    } else {
      const Millicycles end = now_ + std::max(op.duration, tm_);
      record(index, op.kind, now_ + tm_, end);
      latest_transaction_end_ = std::max(latest_transaction_end_, end);
      now_ += tm_;
      if (op.kind == OpKind::load) {
        warp.loads_done = std::max(warp.loads_done, end);
        // A run of loads issues back to back; anything else after a load waits for it.
        if (warp.pc < warp.size && warp.ops[warp.pc].kind != OpKind::load) return true;
      }
    }
    if (warp.pc == warp.size) return true;
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
    add(static_cast<std::int64_t>(warp.iterations_left.size()));
    add(ahead(warp.loads_done));
    into.counters.insert(into.counters.end(), warp.iterations_left.begin(), warp.iterations_left.end());
    into.loop_ids.insert(into.loop_ids.end(), warp.loop_ids.begin(), warp.loop_ids.end());
  }
  add(ahead(latest_transaction_end_));
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
  for (Warp& warp : warps_) {
    if (warp.loads_done > now_) warp.loads_done += shift;
    for (std::int64_t& left : warp.iterations_left) {
      left -= (earlier.counters[next_counter] - now.counters[next_counter]) * periods;
      ++next_counter;
    }
  }
  if (latest_transaction_end_ > now_) latest_transaction_end_ += shift;
  now_ += shift;
  periods_skipped_ += periods;
  return periods;
}

}  // namespace warpsim::sim::core

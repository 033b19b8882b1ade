#include "sim/core/core_package.hpp"

#include <algorithm>

namespace warpsim::sim::core {

using isa::OpKind;

std::ostream& operator<<(std::ostream& out, const CoreEvent& event) {
  return out << 'w' << event.warp << ' ' << isa::to_string(event.kind) << " [" << isa::format_cycles(event.start)
             << ", " << isa::format_cycles(event.issue_end) << ", " << isa::format_cycles(event.end) << ']';
}

CorePackage::CorePackage(std::span<const isa::Program* const> programs, Millicycles tm,
                         std::vector<CoreEvent>* events)
    : tm_(tm), events_(events) {
  warps_.reserve(programs.size());
  for (const isa::Program* program : programs) {
    Warp warp;
    warp.ops = program->ops().data();
    warp.size = program->ops().size();
    warp.iterations_left.reserve(static_cast<std::size_t>(program->max_loop_depth()));
    settle(warp);
    warps_.push_back(std::move(warp));
  }
}

void CorePackage::settle(Warp& warp) const {
  while (warp.pc < warp.size) {
    const isa::Op& op = warp.ops[warp.pc];
    if (op.kind == OpKind::repeat) {
      if (op.count == 0) {
        warp.pc = op.partner + 1;
      } else {
        warp.iterations_left.push_back(op.count);
        ++warp.pc;
      }
    } else if (op.kind == OpKind::end) {
      if (--warp.iterations_left.back() > 0) {
        warp.pc = op.partner + 1;
      } else {
        warp.iterations_left.pop_back();
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

}  // namespace warpsim::sim::core

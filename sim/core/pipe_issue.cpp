// The pipes model's core package (docs/model.md, "Instruction-level timing"): one warp scheduler.
// It issues at most one warp-instruction per cycle; each calc holds the pipes its mix names for
// its work times their initiation interval, beside the memory front end, so memory and arithmetic
// of different warps overlap; a warp waits only for its own results (the calc before, the chain
// inside a calc at the pipes' latencies) and for loaded values when it reaches their first use.
#include <algorithm>

#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::core {

using isa::OpKind;

void CorePackage::price_mixes() {
  const PipeTiming& timing = *pipes_;
  std::vector<std::pair<const isa::Program*, std::size_t>> priced;  // program, its first mix's index
  for (const Warp& warp : warps_) {
    const bool seen = std::any_of(priced.begin(), priced.end(), [&](const auto& p) { return p.first == warp.program; });
    if (seen) continue;
    priced.emplace_back(warp.program, priced_mixes_.size());
    for (const isa::CalcMix& mix : warp.program->mixes()) {
      PricedMix m{mix.issue, 0, static_cast<std::uint32_t>(priced_pipes_.size()), 0};
      for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
        m.chain += mix.chain[p] * timing.latency[p];
        if (mix.work[p] == 0) continue;
        // The last unit enters the pipe one initiation interval before it is free again.
        const Millicycles tail = std::max(timing.occupancy[p], timing.latency[p]) - timing.occupancy[p];
        priced_pipes_.push_back({p, mix.work[p] * timing.occupancy[p], tail});
        ++m.count;
      }
      priced_mixes_.push_back(m);
    }
  }
  // Pointers only now: the vector has stopped growing.
  for (Warp& warp : warps_) {
    const auto it = std::find_if(priced.begin(), priced.end(), [&](const auto& p) { return p.first == warp.program; });
    warp.mixes = priced_mixes_.data() + it->second;
  }
}

std::int64_t CorePackage::instructions_of(const Warp& warp, const isa::Op& op) {
  // A calc without a mix holds the issue port for its duration, as the other models' calcs do.
  if (op.mix != 0) return warp.mixes[op.mix - 1].issue;
  if (op.kind == OpKind::calc) return std::max<std::int64_t>(1, op.duration / isa::kMillicyclesPerCycle);
  return 1;
}

std::string_view to_string(WaitCause cause) {
  switch (cause) {
    case WaitCause::selected: return "selected";
    case WaitCause::dependency: return "dependency";
    case WaitCause::pipe_busy: return "pipe_busy";
    case WaitCause::memory: return "memory";
    case WaitCause::barrier: return "barrier";
    case WaitCause::not_selected: return "not_selected";
  }
  return "?";
}

void CorePackage::account_wait(Warp& warp, const isa::Op& op, Millicycles earliest, Millicycles start) {
  // The stretch from `accounted` to `start` in order: held at a barrier, then waiting for the
  // previous calc's result (its contention-free part a dependency, the rest a busy pipe), then for
  // a loaded value (earliest_start's gate), then ready but not chosen.
  if (!warp_time_) return;
  Millicycles at = warp.accounted;
  const auto until = [&](WaitCause cause, Millicycles end, const isa::Op* on) {
    end = std::min(end, start);
    if (end <= at) return;
    warp_time_->causes[static_cast<std::size_t>(cause)] += end - at;
    warp_time_->per_op[on != nullptr ? on : &op] += end - at;
    at = end;
  };
  until(WaitCause::barrier, warp.barrier_until, warp.barrier_op);
  if (!isa::is_memory(op.kind)) {
    until(WaitCause::dependency, warp.ready_uncontended, warp.ready_from);
    until(WaitCause::pipe_busy, warp.ready, warp.ready_from);
  }
  until(WaitCause::memory, earliest, &op);
  until(WaitCause::not_selected, start, &op);
}

Millicycles CorePackage::earliest_start(const Warp& warp) const {
  const isa::Op& op = warp.ops[warp.pc];
  // Arithmetic waits for the results of the calc before it (read-after-write at op granularity);
  // an access only for its turn in the warp's instruction order: its address is mostly computed
  // well before (a loop's shared loads do not wait for the FMAs between them).
  const Millicycles t = isa::is_memory(op.kind) ? warp.issued : warp.ready;
  if (warp.loads.left == kNoGate && warp.copies.left == kNoGate) return t;
  const std::int64_t need = instructions_of(warp, op);
  return gate_start(warp.copies, op.kind, need, gate_start(warp.loads, op.kind, need, t));
}

Millicycles CorePackage::gate_start(const Gate& gate, OpKind kind, std::int64_t need, Millicycles t) const {
  if (gate.left == kNoGate) return t;
  if (gate.left == kUntilNonLoad) return kind == OpKind::load ? t : std::max(t, gate.at);
  // The first `left` instructions issue before the value is used, one a cycle at best.
  if (gate.left < need) t = std::max(t, gate.at - Millicycles{gate.left} * pipes_->issue);
  return t;
}

void CorePackage::refresh_start(std::size_t index) {
  const Warp& warp = warps_[index];
  starts_[index] = warp.pc == warp.size || warp.at_barrier ? kNever : earliest_start(warp);
}

void CorePackage::consume_gate(Warp& warp, std::int64_t instructions, bool by_load) {
  for (Gate* gate : {&warp.loads, &warp.copies}) {
    if (gate->left == kNoGate || (by_load && gate->left == kUntilNonLoad)) continue;  // loads pass kUntilNonLoad
    if (gate->left != kUntilNonLoad && gate->left >= instructions) {
      gate->left -= static_cast<std::int32_t>(instructions);
      continue;
    }
    *gate = Gate{};  // earliest_start waited for the value
  }
}

std::optional<std::size_t> CorePackage::next_pipe_warp() const {
  // The first warp in round-robin order (from next_in_turn_) whose start is earliest. Times
  // before the clock are all "now": only the relative state decides (steady state). Each warp's
  // (start after the clock, place in turn) is packed in one word and the least taken without a
  // branch per warp: which warp wins follows the data, so branches would be mostly mispredicted.
  const std::size_t n = starts_.size();
  if (n <= kPackedTurns) {
    std::uint64_t least = UINT64_MAX;
    const auto consider = [&](std::size_t w, std::uint64_t turn) {
      const Millicycles start = starts_[w];
      const std::uint64_t after = start > now_ ? std::min(static_cast<std::uint64_t>(start - now_), kPackedAfter) : 0;
      least = std::min(least, after << kTurnBits | turn);
    };
    for (std::size_t w = next_in_turn_; w < n; ++w) consider(w, w - next_in_turn_);
    for (std::size_t w = 0; w < next_in_turn_; ++w) consider(w, w + n - next_in_turn_);
    if ((least >> kTurnBits) < kPackedAfter) {
      const auto turn = static_cast<std::size_t>(least & (kPackedTurns - 1));
      return turn + next_in_turn_ < n ? turn + next_in_turn_ : turn + next_in_turn_ - n;
    }
    // Else no start packs (never, or implausibly far after the clock): the plain scan decides.
  }
  std::size_t best = n;
  Millicycles best_start = kNever;
  for (std::size_t k = 0, w = next_in_turn_; k < n; ++k, w = w + 1 == n ? 0 : w + 1) {
    const Millicycles start = std::max(now_, starts_[w]);
    if (start < best_start) {  // kNever (finished, or at a barrier) never wins
      best = w;
      best_start = start;
      if (start == now_) break;  // no start is before the clock: the first ready in turn wins
    }
  }
  if (best == n) return std::nullopt;
  return best;
}

bool CorePackage::at_loop_head(std::size_t warp) const {
  const Warp& w = warps_[warp];
  // Only loops long enough to skip: a short inner loop's heads would fill the detector's history
  // within one iteration of the loop around it.
  return w.pc > 0 && w.pc < w.size && w.ops[w.pc - 1].kind == OpKind::repeat &&
         w.ops[w.pc - 1].count >= kShortestLoopWorthSkipping;
}

void CorePackage::finish_if_done(std::size_t index, Millicycles at) {
  Warp& warp = warps_[index];
  if (warp.pc != warp.size) return;
  Block& block = blocks_[warp.block];
  ++block.finished;
  release_if_complete(block, warp.block, at);
}

void CorePackage::issue_next(std::size_t index) {
  issue_op(index);
  refresh_start(index);  // a barrier it completed refreshed the others
}

void CorePackage::issue_op(std::size_t index) {
  Warp& warp = warps_[index];
  const isa::Op& op = warp.ops[warp.pc];
  const Millicycles start = std::max(now_, starts_[index]);
  account_wait(warp, op, starts_[index], start);
  next_in_turn_ = index + 1 == warps_.size() ? 0 : index + 1;
  ++warp.pc;
  settle(warp);
  const PipeTiming& timing = *pipes_;
  // The issue port: one warp-instruction a cycle. An op starts when its first instruction can
  // issue, and the next op (of any warp) may start a cycle later; its other instructions join the
  // port's queue, so other warps' instructions interleave with them as the hardware's do, and no
  // op completes before its last instruction has issued.
  const std::int64_t instructions = instructions_of(warp, op);
  issue_free_ = std::max(issue_free_, start) + instructions * timing.issue;
  busy_.issue += instructions * timing.issue;
  warp.issued = start + instructions * timing.issue;  // its own instructions, one a cycle
  if (warp_time_) {
    warp_time_->causes[static_cast<std::size_t>(WaitCause::selected)] += warp.issued - start;
    warp_time_->per_op[&op] += warp.issued - start;
  }
  warp.accounted = warp.issued;
  now_ = instructions > 0 ? start + timing.issue : start;
  if (op.kind == OpKind::calc || op.kind == OpKind::barrier) {
    Millicycles done = issue_free_;
    Millicycles uncontended = warp.issued;  // as `done`, had every pipe and the issue port been free at `start`
    if (op.mix != 0) {
      const PricedMix& mix = warp.mixes[op.mix - 1];
      const PricedPipe* const held = priced_pipes_.data() + mix.first;
      for (std::uint32_t k = 0; k < mix.count; ++k) {
        const PricedPipe& pipe = held[k];
        pipe_free_[pipe.pipe] = std::max(pipe_free_[pipe.pipe], start) + pipe.held;
        busy_.pipes[pipe.pipe] += pipe.held;
        done = std::max(done, pipe_free_[pipe.pipe] + pipe.tail);
        uncontended = std::max(uncontended, start + pipe.held + pipe.tail);
      }
      done = std::max(done, start + mix.chain);
      uncontended = std::max(uncontended, start + mix.chain);
    } else {
      done = std::max(done, start + op.duration);  // a calc without a mix lasts its duration
      uncontended = std::max(uncontended, start + op.duration);
    }
    consume_gate(warp, instructions);
    if (events_) record(index, op.kind, start, issue_free_, done);
    if (done >= warp.ready) warp.ready_from = &op;
    warp.ready = std::max(warp.ready, done);
    if (op.kind == OpKind::barrier) warp.barrier_op = &op;
    warp.ready_uncontended = std::max(warp.ready_uncontended, std::min(uncontended, done));
    latest_transaction_end_ = std::max(latest_transaction_end_, done);
    if (op.kind == OpKind::barrier && arrive(index)) return;
    finish_if_done(index, warp.ready);
    return;
  }
  // A load or store: the memory front end is held beside the arithmetic pipes.
  AccessCost cost{tm_, std::max(op.duration, tm_), 0};
  if (memory_ != nullptr && op.space != isa::MemorySpace::unspecified) cost = price_access(op, *memory_);
  const Millicycles front = std::max(memory_free_, start);
  memory_free_ = front + cost.issue;
  busy_.memory += cost.issue;
  if (op.space == isa::MemorySpace::shared) busy_.shared += cost.issue;
  busy_.dram += cost.dram;
  Millicycles end = front + cost.latency;
  if (cost.dram > 0) {
    dram_free_ = std::max(dram_free_, front) + cost.dram;
    end = std::max(end, dram_free_);
  }
  end = std::max(end, queue_shared_resources(front, cost));
  if (op.kind == OpKind::load) {
    consume_gate(warp, 1, true);
    const std::int32_t left = op.use_distance < 0 ? kUntilNonLoad : op.use_distance;
    // Issued `hoist` instructions earlier (as ptxas places it), its value would be there as much earlier.
    const Millicycles arrives = end - Millicycles{op.hoist} * timing.issue;
    Gate& gate = op.asynchronous ? warp.copies : warp.loads;
    if (gate.left == kNoGate) {
      gate = Gate{arrives, left};
    } else {
      gate.left = left == kUntilNonLoad || gate.left == kUntilNonLoad ? kUntilNonLoad : std::min(gate.left, left);
      gate.at = std::max(gate.at, arrives);
    }
  } else {
    consume_gate(warp, 1);
  }
  if (events_) record(index, op.kind, start, front + cost.issue, end);
  latest_transaction_end_ = std::max({latest_transaction_end_, end, issue_free_});
  finish_if_done(index, std::max(warp.ready, now_));
}

}  // namespace warpsim::sim::core

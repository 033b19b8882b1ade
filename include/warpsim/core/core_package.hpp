// One core package (MODEL.md section 2): the shared clock, every warp's position in its program,
// its outstanding loads, and the latest transaction. `visit` is Algorithm 2's body for one warp;
// a SchedulingPolicy decides the order of visits.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <climits>
#include <span>
#include <vector>

#include "warpsim/isa/program.hpp"
#include "warpsim/core/memory_timing.hpp"
#include "warpsim/core/pipe_timing.hpp"

namespace warpsim::sim::core {

using isa::Millicycles;

// One issued instruction. calc: issue_end == end == start + duration. load/store: the SIMT front
// end occupies [start, issue_end = start + t_m]; the transaction completes at
// end = start + max(duration, t_m).
struct CoreEvent {
  std::uint32_t warp = 0;
  isa::OpKind kind = isa::OpKind::calc;
  Millicycles start = 0;
  Millicycles issue_end = 0;
  Millicycles end = 0;

  bool operator==(const CoreEvent&) const = default;
};

// What one visit of a warp did, relative to the clock when it started issuing (after its wait):
// the clock moved on by `length`, its loads completed `loads_end` later, its loads and stores
// `transactions_end` later (kNone: it had none). Nothing inside a visit waits, so this is the
// same wherever the visit starts (the visit engine, visit_list.hpp, relies on it).
struct Visit {
  static constexpr Millicycles kNone = -1;
  Millicycles length = 0;
  Millicycles loads_end = kNone;
  Millicycles transactions_end = kNone;
};

// "w1 load [2, 4, 17]" in cycles, for messages and test failures.
std::ostream& operator<<(std::ostream& out, const CoreEvent& event);

// The state of a core package at a round boundary, with times relative to the clock, for
// steady-state detection (steady_state.hpp). Buffers are reused, so taking one allocates nothing
// once warmed up.
struct PackageSnapshot {
  Millicycles time = 0;
  std::vector<std::int64_t> shape;      // per warp: pc, loop depth, loads ahead of the clock; then
                                        // the latest transaction ahead of the clock
  std::vector<std::int64_t> counters;   // every warp's iterations left, outermost first
  std::vector<std::uint64_t> loop_ids;  // which entry into its loop each counter belongs to
  std::size_t hash = 0;                 // of `shape`
  PipeBusy busy;                        // the pipes model's busy totals so far (not compared)
};

class CorePackage {
 public:
  // `programs[w]` is warp w's program (bound); several warps may share one. Events are recorded
  // into `events` when it is not null.
  // Steady-state fast-forward is allowed only when no events are recorded (a skipped period
  // has no events) and `fast_forward` is set.
  // `memory` set: the memory-aware model prices annotated accesses and `bar` holds a warp until
  // the other warps of its block (`barriers`) arrive; null: the paper's model.
  // `pipes` set: the pipes model (pipe_issue.cpp; issue_next instead of visit); then `warp_time`,
  // when set, receives where the warps' time went (no fast-forward then).
  CorePackage(std::span<const isa::Program* const> programs, Millicycles tm,
              std::vector<CoreEvent>* events, bool fast_forward = true, const MemoryTiming* memory = nullptr,
              BarrierLayout barriers = {}, const PipeTiming* pipes = nullptr, WarpTime* warp_time = nullptr);

  // Warps point into the package's priced mixes: a copy would point into the original's.
  CorePackage(const CorePackage&) = delete;
  CorePackage& operator=(const CorePackage&) = delete;
  CorePackage(CorePackage&&) = default;
  CorePackage& operator=(CorePackage&&) = default;

  std::size_t warp_count() const { return warps_.size(); }
  bool finished(std::size_t warp) const { return warps_[warp].pc == warps_[warp].size; }
  Millicycles now() const { return now_; }
  // Only loops can become periodic, and looking costs a snapshot per round, so packages whose
  // loops are all short do not look for a steady state.
  static constexpr std::int64_t kShortestLoopWorthSkipping = 8;
  bool fast_forward_allowed() const { return fast_forward_; }
  std::int64_t periods_skipped() const { return periods_skipped_; }

  // Selects `warp`: it waits for its own loads, then issues until it yields after a run of loads
  // or its program ends. Returns whether it issued anything.
  bool visit(std::size_t warp);
  bool waiting_at_barrier(std::size_t warp) const { return warps_[warp].at_barrier; }
  // The latest visit that issued. Inline: returned through memory, its fields stalled the
  // caller's wider reads.
  Visit last_visit() const {
    const auto relative = [this](Millicycles t) { return t == Visit::kNone ? Visit::kNone : t - visit_start_; };
    return {now_ - visit_start_, relative(visit_loads_end_), relative(visit_transactions_end_)};
  }

  // The pipes model (pipe_issue.cpp): the warp that issues next (the earliest that can start,
  // ties in round-robin order after the latest to issue), or none when every warp has finished
  // or waits at a barrier; then its next instruction (one op).
  std::optional<std::size_t> next_pipe_warp() const;
  void issue_next(std::size_t warp);
  // Whether `warp` is at the first instruction of the body of a loop of at least
  // kShortestLoopWorthSkipping iterations: where the pipes scheduler looks for a steady state.
  bool at_loop_head(std::size_t warp) const;
  const PipeBusy& busy() const { return busy_; }

  void take_snapshot(PackageSnapshot& into) const;

  // If the schedule from `earlier` to `now` (both taken at round starts, `now` the current state)
  // is one period of a steady state, advances the package over as many further periods as the
  // loop counters allow without any loop finishing, exactly as simulating them would. Returns
  // the number of periods skipped (0 when it is not a steady state).
  std::int64_t fast_forward(const PackageSnapshot& earlier, const PackageSnapshot& now);

  // T_c: the clock once every transaction has completed.
  Millicycles finish_time() const { return std::max(now_, latest_transaction_end_); }

 private:
  // A warp's pending loads under the pipes model: the value arrives at `at`, and `left` more
  // instructions may issue before the first use (kUntilNonLoad: only further loads). Register
  // loads and asynchronous copies (cp.async, used at their wait) keep a gate each, so that a
  // shared load does not wait for a copy still in flight.
  static constexpr std::int32_t kNoGate = INT32_MAX;
  static constexpr std::int32_t kUntilNonLoad = -1;
  static constexpr Millicycles kNever = INT64_MAX;
  // next_pipe_warp's packed key: a warp's place in turn in the low bits, its start after the clock
  // above them (kPackedAfter and beyond: too far to pack, decided by a plain scan).
  static constexpr unsigned kTurnBits = 8;
  static constexpr std::size_t kPackedTurns = std::size_t{1} << kTurnBits;
  static constexpr std::uint64_t kPackedAfter = (std::uint64_t{1} << (64 - kTurnBits)) - 1;
  struct Gate {
    Millicycles at = 0;
    std::int32_t left = kNoGate;
  };
  // A calc mix priced on this package's pipes once, not at every issue: its warp-instructions,
  // the latency of its longest dependent chain, and the pipes it holds (priced_pipes_[first,
  // first + count): only those with work).
  struct PricedPipe {
    std::size_t pipe = 0;
    Millicycles held = 0;  // work x the pipe's initiation interval
    Millicycles tail = 0;  // from the last unit's entry until the result: latency - interval, or 0
  };
  struct PricedMix {
    std::int64_t issue = 0;
    Millicycles chain = 0;
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  struct Warp {
    const isa::Program* program = nullptr;
    const PricedMix* mixes = nullptr;  // pipes: its program's mixes, priced (op.mix - 1 indexes it)
    const isa::Op* ops = nullptr;
    std::size_t size = 0;
    std::size_t pc = 0;           // always at an instruction, or at size when done
    std::size_t loop_base = 0;    // where its open loops start in loops_left_ / loop_ids_
    std::size_t loop_depth = 0;   // open loops, innermost last
    std::uint64_t loops_entered = 0;
    Millicycles loads_done = 0;   // completion of its latest-finishing load
    std::uint32_t block = 0;      // its barrier group
    bool at_barrier = false;      // arrived at a barrier the rest of its block has not reached
    Millicycles ready = 0;        // pipes: when its latest calc's results are ready
    Millicycles issued = 0;       // pipes: when its latest op's last instruction issued (in-order issue)
    Gate loads;                   // pipes: see Gate
    Gate copies;
    // pipes, for the wait causes (read only on a run that collects WarpTime, which never
    // fast-forwards): the warp's time is accounted up to `accounted`; `ready` would be
    // `ready_uncontended` had no pipe or issue slot been taken by others; a barrier held it
    // until `barrier_until`.
    Millicycles accounted = 0;
    Millicycles ready_uncontended = 0;
    Millicycles barrier_until = 0;
    // The instructions the waits are put on (as a profiler puts a pipe's throttle on the
    // instruction that needs the pipe): a wait for `ready` on the calc that set it, a barrier's on
    // the barrier; a wait for a loaded value on the instruction that uses it.
    const isa::Op* ready_from = nullptr;
    const isa::Op* barrier_op = nullptr;
  };
  // A block's warps on this package, for barriers.
  struct Block {
    std::int64_t warps = 0;
    std::int64_t arrived = 0;   // at the current barrier
    std::int64_t finished = 0;  // warps done: they count as arrived (CUDA: exited threads do)
  };

  void settle(Warp& warp);  // moves pc over loop markers to the next instruction
  // Pipes: prices every program's mixes (once per distinct program) and points the warps at them.
  void price_mixes();
  // Warp-instructions `op` issues: its mix's, else a calc's duration in cycles (at least 1).
  static std::int64_t instructions_of(const Warp& warp, const isa::Op& op);
  // The warp arrived at a barrier; returns whether it must wait for the rest of its block.
  bool arrive(std::size_t warp);
  void release_if_complete(Block& block, std::uint32_t id, Millicycles at);
  // The pipes model (pipe_issue.cpp).
  Millicycles earliest_start(const Warp& warp) const;
  // Brings starts_[warp] up to date after the warp's state changed.
  void refresh_start(std::size_t warp);
  void issue_op(std::size_t warp);  // issue_next without refreshing the warp's start
  void consume_gate(Warp& warp, std::int64_t instructions, bool by_load = false);
  // Queues `time` on a resource free at `free` (counted in `busy`) from `from`: when it is done (0 for none).
  static Millicycles queue(Millicycles& free, Millicycles& busy, Millicycles from, Millicycles time);
  // An access's time on the package's shares of the busiest atomic address and of the L2: when both are done.
  Millicycles queue_shared_resources(Millicycles from, const AccessCost& cost);
  Millicycles gate_start(const Gate& gate, isa::OpKind kind, std::int64_t need, Millicycles t) const;
  // Puts the warp's time from `accounted` to `start` (it issues `op` then) into its wait causes
  // and instructions.
  void account_wait(Warp& warp, const isa::Op& op, Millicycles earliest, Millicycles start);
  // Both models. A warp that has just finished counts as arrived at its block's barriers from `at` on.
  void finish_if_done(std::size_t warp, Millicycles at);
  // A memory instruction under the memory-aware model: returns its completion time.
  Millicycles issue_priced(std::size_t warp, const isa::Op& op, Millicycles& now);
  void record(std::size_t warp, isa::OpKind kind, Millicycles issue, Millicycles issue_end, Millicycles end);  // events_ set

  std::vector<Warp> warps_;
  // Every warp's open loops in one flat buffer (no allocation per warp): iterations left, and
  // which entry into the loop each belongs to.
  std::vector<std::int64_t> loops_left_;
  std::vector<std::uint64_t> loop_ids_;
  Millicycles tm_;
  Millicycles now_ = 0;
  Millicycles latest_transaction_end_ = 0;
  Millicycles visit_start_ = 0;  // of the latest visit that issued, and its transactions' ends
  Millicycles visit_loads_end_ = 0;
  Millicycles visit_transactions_end_ = 0;
  std::vector<CoreEvent>* events_;
  const MemoryTiming* memory_;
  std::vector<Block> blocks_;
  Millicycles dram_free_ = 0;  // when the package's DRAM share is next free
  Millicycles atomic_free_ = 0;  // when its share of the launch's busiest atomic address is next free
  Millicycles l2_free_ = 0;      // when its share of L2 bandwidth is next free
  const PipeTiming* pipes_;
  std::vector<PricedMix> priced_mixes_;  // pipes: every distinct program's mixes, in turn
  std::vector<PricedPipe> priced_pipes_;
  std::array<Millicycles, isa::kPipeCount> pipe_free_{};  // pipes: when each pipe is next free
  Millicycles memory_free_ = 0;  // pipes: when the memory front end is next free
  Millicycles issue_free_ = 0;   // pipes: when the issue port has issued every instruction queued
  std::size_t next_in_turn_ = 0;  // pipes: the round-robin position
  // pipes: each warp's earliest_start(), kNever while it cannot issue (finished, or at a
  // barrier); kept current so that choosing the next warp is one pass over a small array.
  std::vector<Millicycles> starts_;
  PipeBusy busy_;
  WarpTime* warp_time_;
  bool fast_forward_;
  std::int64_t periods_skipped_ = 0;
};

}  // namespace warpsim::sim::core

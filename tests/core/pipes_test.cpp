// The pipes model's core package (sim/core/pipe_issue.cpp; docs/model.md, "Instruction-level
// timing"): hand-worked cases, the bounds every schedule must respect, and the exactness of its
// steady-state fast-forward on random programs.
#include <gtest/gtest.h>

#include <random>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/isa/kp_format.hpp"

namespace warpsim::sim::core {
namespace {

using isa::Pipe;

std::size_t at(Pipe pipe) { return static_cast<std::size_t>(pipe); }

// A scheduler like GA102's: 32 FP32 lanes (1 cycle a warp-instruction), half an FP64 lane
// (64 cycles), 4 SFU lanes (8 cycles), 16 INT lanes (2 cycles).
PipeTiming test_timing() {
  PipeTiming t;
  t.occupancy.fill(1'000);
  t.latency.fill(4'000);
  t.occupancy[at(Pipe::fp64)] = 64'000;
  t.latency[at(Pipe::fp64)] = 10'000;
  t.occupancy[at(Pipe::sfu)] = 8'000;
  t.latency[at(Pipe::sfu)] = 18'000;
  t.occupancy[at(Pipe::int32)] = 2'000;
  return t;
}

isa::Millicycles run(const std::string& kp, std::int64_t warps, isa::Millicycles tm = 1'000, PipeBusy* busy = nullptr) {
  static const PipeTiming timing = test_timing();
  return simulate_core(isa::parse_kp(kp, "p.kp"), warps, tm, {.pipes = &timing, .busy = busy});
}

// One warp, 8 dependent DFMAs: issued in 8 cycles, the FP64 pipe holds each for 64.
TEST(PipesEngine, Fp64IsBoundByItsPipe) {
  EXPECT_EQ(run("calc 8 fp64=8 chain fp64=8\n", 1), 8 * 64'000);
  // Two warps share the pipe: twice as long.
  EXPECT_EQ(run("calc 8 fp64=8 chain fp64=8\n", 2), 16 * 64'000);
}

// A dependent chain of FP32 on one warp is bound by latency; 4 warps hide it.
TEST(PipesEngine, LatencyIsHiddenByWarps) {
  // issue [0, 8]; chain 8 x 4 = 32 cycles.
  EXPECT_EQ(run("calc 8 fp32=8 chain fp32=8\n", 1), 32'000);
  // Four warps start a cycle apart and interleave their issue (32 instructions in 32 cycles); the
  // last chain, started at 3, ends at 3 + 32.
  EXPECT_EQ(run("calc 8 fp32=8 chain fp32=8\n", 4), 35'000);
  // Independent instructions (chain 1): the issue bound, plus the last one's latency.
  EXPECT_EQ(run("calc 8 fp32=8 chain fp32=1\n", 4), 32'000 - 1'000 + 4'000);
}

// A calc without a mix holds the issue port for its duration, as in the other models.
TEST(PipesEngine, CalcWithoutMixTakesItsDuration) {
  EXPECT_EQ(run("calc 10\ncalc 5\n", 2), 30'000);
  EXPECT_EQ(run("calc 10 issue=0\n", 3), 0);  // the paper's +9 of a period: nothing here
}

// A load's value is waited for where it is first used: `use=N` lets N instructions pass.
TEST(PipesEngine, LoadUseDistance) {
  // load at 0 (issue to 1, data at 20); calc of 3 FP32 (chain 1).
  EXPECT_EQ(run("load 20 use=3\ncalc 3 fp32=3 chain fp32=1\n", 1), 20'000);  // no wait: done at 7
  EXPECT_EQ(run("load 20 use=0\ncalc 3 fp32=3 chain fp32=1\n", 1), 26'000);  // starts at 20
  EXPECT_EQ(run("load 20 use=2\ncalc 3 fp32=3 chain fp32=1\n", 1), 24'000);  // starts at 18
  EXPECT_EQ(run("load 20\ncalc 3 fp32=3 chain fp32=1\n", 1), 26'000);        // unknown: waits
  // A load ptxas could issue 5 instructions earlier delivers its value 5 cycles earlier.
  EXPECT_EQ(run("load 20 use=0 hoist=5\ncalc 3 fp32=3 chain fp32=1\n", 1), 21'000);  // starts at 15, done at 21
  // Loads in a row issue back to back whatever their use distance; the calc waits for both.
  EXPECT_EQ(run("load 20 use=1\nload 30 use=0\ncalc 1 fp32=1 chain fp32=1\n", 1), 35'000);
}

// An asynchronous copy (cp.async, `async`) keeps a gate of its own, used at its wait: a shared
// load after it waits only for its own value (review 2026-11-sass-and-memory-seams 4.2: the copy
// was a blocking load, so a double-buffered pipeline gained nothing).
TEST(PipesEngine, AsynchronousCopyIsWaitedForAtItsUse) {
  // copy at 0 (data at 30, wait 40 instructions on); load at 1 (data at 5, used at once); 32 FP32
  // issue 5..37, the last done at 40; the copy is long done.
  EXPECT_EQ(run("load 30 async use=40\nload 4 use=0\ncalc 32 fp32=32 chain fp32=1\n", 1), 40'000);
  // As a register load, the two merge into one gate (earliest use, latest arrival): the calc
  // starts at 30 and ends at 30 + 31 + 4.
  EXPECT_EQ(run("load 30 use=40\nload 4 use=0\ncalc 32 fp32=32 chain fp32=1\n", 1), 65'000);
  // The wait itself holds: 2 instructions may pass, so the calc of 8 starts at 30 - 2.
  EXPECT_EQ(run("load 30 async use=2\ncalc 8 fp32=8 chain fp32=1\n", 1), 39'000);
}

// The launch's busiest atomic address is a queue of the package's own: atomics of several warps
// wait there one after another, plain loads do not.
TEST(PipesEngine, AtomicsQueueOnTheBusiestAddress) {
  static const PipeTiming timing = test_timing();
  MemoryTiming memory;
  memory.issue_per_transaction = 1'000;
  memory.global_latency = 20'000;
  memory.cache_latency = 20'000;
  memory.atomic_interval = 1'000;
  memory.atomic_per_update = 10'000;  // each update holds the package's share 10 cycles
  PipeBusy busy;
  const auto run_with = [&](const std::string& kp, std::int64_t warps) {
    return simulate_core(isa::parse_kp(kp, "a.kp"), warps, 1'000, {.memory = &memory, .pipes = &timing, .busy = &busy});
  };
  // One warp: 32 updates x 10 = 320 on the queue, beyond the latency of 20 + 31 (serial lanes).
  EXPECT_EQ(run_with("load 1 global sectors=1 same=32 hot=32 use=0\n", 1), 320'000);
  EXPECT_EQ(busy.atomic, 320'000);
  // Four warps: one after another, 4 x 320.
  EXPECT_EQ(run_with("load 1 global sectors=1 same=32 hot=32 use=0\n", 4), 1'280'000);
  // The same loads without contention overlap: the last issues at 3 (front end 1 each) and ends 20 + 31 later.
  EXPECT_EQ(run_with("load 1 global sectors=1 same=32 hot=0 use=0\n", 4), 54'000);
}

// Memory of one warp overlaps arithmetic of another: the front end is its own resource.
TEST(PipesEngine, MemoryAndArithmeticOverlap) {
  const isa::Program memory = isa::parse_kp("repeat 10\n  store 1\nend\n", "m.kp");
  const isa::Program math = isa::parse_kp("calc 40 fp32=40 chain fp32=1\n", "c.kp");
  const PipeTiming timing = test_timing();
  const std::vector<const isa::Program*> both = {&memory, &math};
  // t_m = 4: the stores hold the front end 40 cycles; the FMAs the issue port 40 minus the 10
  // slots the stores take: serial would be 10 x 4 + 40 = 80; overlapped, 50 + a latency tail.
  const isa::Millicycles overlapped = simulate_core(both, 4'000, {.pipes = &timing});
  EXPECT_LE(overlapped, 54'000);
  EXPECT_GE(overlapped, 50'000);
}

// The busy totals: issue slots, pipe time and memory front end, exactly.
TEST(PipesEngine, ReportsBusyTotals) {
  PipeBusy busy;
  run("repeat 100\n  calc 4 fp32=2 int=1 sfu=1 chain sfu=1\n  store 1\nend\n", 3, 2'000, &busy);
  EXPECT_EQ(busy.issue, 3 * 100 * (4 + 1) * 1'000);
  EXPECT_EQ(busy.pipes[at(Pipe::fp32)], 3 * 100 * 2 * 1'000);
  EXPECT_EQ(busy.pipes[at(Pipe::sfu)], 3 * 100 * 8'000);
  EXPECT_EQ(busy.pipes[at(Pipe::int32)], 3 * 100 * 2'000);
  EXPECT_EQ(busy.memory, 3 * 100 * 2'000);
}

// Random programs with mixes, loads with and without use distances, stores, barriers and loops.
isa::Program random_pipe_program(std::mt19937& rng, bool annotated = false) {
  isa::Program program("random", "");
  std::uniform_int_distribution<int> kind(0, 5), small(0, 4), count(0, 300), pipe(0, static_cast<int>(isa::kPipeCount) - 1),
      amount(1, 12), duration(1, 80);
  const auto add = [&] {
    switch (kind(rng)) {
      case 0:
      case 1: {
        isa::CalcMix mix;
        for (int k = 0, n = 1 + small(rng) / 2; k < n; ++k) {
          const auto p = static_cast<std::size_t>(pipe(rng));
          mix.work[p] += amount(rng);
          mix.chain[p] = std::min<std::int64_t>(mix.work[p], small(rng));
        }
        mix.issue = std::max<std::int64_t>(1, mix.implied_issue());
        program.add_calc(mix.issue * 1000, mix);
        break;
      }
      case 2: program.add(isa::OpKind::calc, duration(rng) * 1000); break;
      case 3:
        if (annotated) {  // global (some atomics) or shared, as the memory-aware model prices them
          const bool shared = small(rng) == 0;
          program.add_access(isa::OpKind::load, duration(rng) * 1000, shared ? isa::MemorySpace::shared : isa::MemorySpace::global,
                             1 + small(rng) * 3);
          if (!shared && small(rng) > 2) program.set_atomic(1 + small(rng) * 7, small(rng) * 4'000);
        } else {
          program.add(isa::OpKind::load, duration(rng) * 1000);
        }
        if (small(rng) > 1) program.set_use_distance(small(rng));
        if (small(rng) == 4) program.set_asynchronous();
        break;
      case 4:
        if (annotated) {
          program.add_access(isa::OpKind::store, duration(rng) * 1000, isa::MemorySpace::global, 1 + small(rng) * 2);
        } else {
          program.add(isa::OpKind::store, duration(rng) * 1000);
        }
        break;
      default: program.add(isa::OpKind::barrier, 1000); break;
    }
  };
  for (int block = 0, blocks = 1 + small(rng); block < blocks; ++block) {
    if (small(rng) == 0) {
      add();
      continue;
    }
    program.begin_repeat(count(rng));
    for (int i = 0, n = 1 + small(rng); i < n; ++i) add();
    if (small(rng) == 0) {
      program.begin_repeat(small(rng) * 3);
      for (int i = 0, n = 1 + small(rng); i < n; ++i) add();
      program.end_repeat();
    }
    program.end_repeat();
  }
  program.finish();
  return program;
}

// Runs `program` with and without fast-forward under `base`: both must give the same time and busy
// totals. Returns the periods skipped, or -1 after a failure (the caller stops).
std::int64_t fast_forward_checked(const isa::Program& program, std::int64_t warps, isa::Millicycles tm, const CoreOptions& base,
                                  unsigned seed) {
  CoreOptions full = base, fast = base;
  full.fast_forward = false;
  PipeBusy full_busy, fast_busy;
  full.busy = &full_busy;
  fast.busy = &fast_busy;
  std::int64_t periods = 0;
  fast.periods_skipped = &periods;
  const isa::Millicycles fast_time = simulate_core(program, warps, tm, fast);
  const isa::Millicycles full_time = simulate_core(program, warps, tm, full);
  EXPECT_EQ(fast_time, full_time) << "seed " << seed << ", " << warps << " warps\n" << isa::to_kp(program);
  EXPECT_EQ(fast_busy, full_busy) << "seed " << seed;
  return fast_time == full_time && fast_busy == full_busy ? periods : -1;
}

TEST(PipesEngine, FastForwardEqualsFullSimulationOnRandomPrograms) {
  const PipeTiming timing = test_timing();
  int skipped_somewhere = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const isa::Program program = random_pipe_program(rng);
    const auto warps = std::uniform_int_distribution<int>(1, 24)(rng);
    const auto per_block = std::uniform_int_distribution<int>(1, 8)(rng);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(1, 8)(rng) * 1000;
    const std::int64_t periods = fast_forward_checked(program, warps, tm, {.barriers = {1, per_block, 0}, .pipes = &timing}, seed);
    if (periods < 0) return;
    skipped_somewhere += periods > 0;
  }
  EXPECT_GT(skipped_somewhere, 50);  // the fast path was exercised
}

// The same with accesses priced by the memory-aware model: the DRAM, L2 and busiest-atomic-address
// queues are shifted with the rest (review 2026-11-sass-and-memory-seams 4.6: never compared).
TEST(PipesEngine, FastForwardEqualsFullSimulationWithPricedAccesses) {
  const PipeTiming timing = test_timing();
  MemoryTiming memory;
  memory.issue_per_transaction = 2'000;
  memory.global_latency = 300'000;
  memory.cache_latency = 150'000;
  memory.shared_latency = 25'000;
  memory.dram_per_sector = 9'000;
  memory.l2_per_sector = 4'000;
  memory.atomic_per_update = 40'000;
  int skipped_somewhere = 0;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed);
    const isa::Program program = random_pipe_program(rng, true);
    const auto warps = std::uniform_int_distribution<int>(1, 16)(rng);
    const CoreOptions base{.memory = &memory, .barriers = {1, std::uniform_int_distribution<int>(1, 8)(rng), 0}, .pipes = &timing};
    const std::int64_t periods = fast_forward_checked(program, warps, 1'000, base, seed);
    if (periods < 0) return;
    skipped_somewhere += periods > 0;
  }
  EXPECT_GT(skipped_somewhere, 30);  // the fast path was exercised
}

// Every schedule lies between the bounds: at least the issue bound and each pipe's and the
// memory front end's work; at most everything one after the other.
TEST(PipesEngine, TimesLieBetweenTheBounds) {
  const PipeTiming timing = test_timing();
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed + 5000);
    const isa::Program program = random_pipe_program(rng);
    const auto warps = std::uniform_int_distribution<int>(1, 16)(rng);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(1, 8)(rng) * 1000;
    PipeBusy busy;
    const isa::Millicycles t = simulate_core(program, warps, tm, {.barriers = {1, 4, 0}, .pipes = &timing, .busy = &busy});
    isa::Millicycles largest = std::max(busy.issue, busy.memory);
    for (const isa::Millicycles p : busy.pipes) largest = std::max(largest, p);
    EXPECT_GE(t, largest) << "seed " << seed;
    // The serial sum: every op's own cost, one after the other.
    isa::Millicycles serial = 0;
    std::vector<std::int64_t> times{1};
    for (const isa::Op& op : program.ops()) {
      if (op.kind == isa::OpKind::repeat) {
        times.push_back(times.back() * op.count);
      } else if (op.kind == isa::OpKind::end) {
        times.pop_back();
      } else if (const isa::CalcMix* mix = program.mix_of(op)) {
        isa::Millicycles one = mix->issue * timing.issue;
        for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
          one += mix->work[p] * timing.occupancy[p] + (mix->chain[p] + 1) * std::max(timing.latency[p], timing.occupancy[p]);
        }
        serial += one * times.back();
      } else if (isa::is_memory(op.kind)) {
        serial += (timing.issue + tm + std::max(op.duration, tm)) * times.back();
      } else {
        serial += op.duration * times.back();
      }
    }
    EXPECT_LE(t, serial * warps) << "seed " << seed;
  }
}

// Where the warps' time went (`warpsim explain`): hand-worked cases, one per cause.
WarpTime time_of(const isa::Program& program, std::int64_t warps, isa::Millicycles tm = 1'000, std::int64_t per_block = 0) {
  static const PipeTiming timing = test_timing();
  WarpTime time;
  simulate_core(program, warps, tm, {.barriers = {1, per_block == 0 ? warps : per_block, 0}, .pipes = &timing, .warp_time = &time});
  return time;
}
isa::Millicycles cause(const WarpTime& time, WaitCause c) { return time.causes[static_cast<std::size_t>(c)]; }

TEST(PipesWarpTime, DependencyAndBusyPipe) {
  // One warp, two dependent FP32 instructions: issued at 0 and 4 (latency 4): 3 cycles a dependency.
  WarpTime one = time_of(isa::parse_kp("calc 1 fp32=1 chain fp32=1\ncalc 1 fp32=1 chain fp32=1\n", "p.kp"), 1);
  EXPECT_EQ(cause(one, WaitCause::selected), 2'000);
  EXPECT_EQ(cause(one, WaitCause::dependency), 3'000);
  // Two warps of two dependent DFMAs on one FP64 pipe (64 cycles each): warp 1 is not chosen in
  // cycle 0, its first result comes at 128 instead of 65 because warp 0's holds the pipe.
  WarpTime two = time_of(isa::parse_kp("calc 1 fp64=1 chain fp64=1\ncalc 1 fp64=1 chain fp64=1\n", "p.kp"), 2);
  EXPECT_EQ(cause(two, WaitCause::selected), 4'000);
  EXPECT_EQ(cause(two, WaitCause::not_selected), 1'000);
  EXPECT_EQ(cause(two, WaitCause::dependency), 2 * 63'000);
  EXPECT_EQ(cause(two, WaitCause::pipe_busy), 63'000);
  EXPECT_EQ(cause(two, WaitCause::memory), 0);
}

TEST(PipesWarpTime, LoadedValueIsMemory) {
  isa::Program program("p", "");
  program.add(isa::OpKind::load, 30'000);
  program.set_use_distance(0);  // the next instruction uses it
  isa::CalcMix mix;
  mix.work[at(Pipe::fp32)] = 1;
  mix.chain[at(Pipe::fp32)] = 1;
  mix.issue = 1;
  program.add_calc(1'000, mix);
  program.finish();
  const WarpTime time = time_of(program, 1);
  EXPECT_EQ(cause(time, WaitCause::memory), 29'000);  // the load issued in cycle 0, its value came at 30
  EXPECT_EQ(cause(time, WaitCause::selected), 2'000);
}

TEST(PipesWarpTime, BarrierWaitsForTheSlowestWarp) {
  // Warps 0 and 1 in one block; warp 0 does 4 dependent DFMAs first, then both meet at bar.sync.
  isa::Program slow("slow", ""), fast("fast", "");
  isa::CalcMix dfma;
  dfma.work[at(Pipe::fp64)] = 4;
  dfma.chain[at(Pipe::fp64)] = 4;
  dfma.issue = 4;
  slow.add_calc(4'000, dfma);
  slow.add(isa::OpKind::barrier, 1'000);
  slow.finish();
  fast.add(isa::OpKind::barrier, 1'000);
  fast.add(isa::OpKind::barrier, 1'000);
  fast.finish();
  const std::vector<const isa::Program*> programs{&slow, &fast};
  static const PipeTiming timing = test_timing();
  WarpTime time;
  simulate_core(programs, 1'000, {.barriers = {1, 2, 0}, .pipes = &timing, .warp_time = &time});
  // Warp 1 is not chosen in cycle 0, arrives in cycle 1 and is held from 2 until warp 0's
  // barrier completes at 257 (its DFMAs hold the pipe 4 x 64 cycles: 252 cycles of dependency).
  EXPECT_EQ(cause(time, WaitCause::barrier), 255'000);
  EXPECT_EQ(cause(time, WaitCause::dependency), 252'000);
  EXPECT_EQ(cause(time, WaitCause::not_selected), 1'000);
  EXPECT_EQ(cause(time, WaitCause::selected), 7'000);
  EXPECT_EQ(cause(time, WaitCause::memory), 0);
  EXPECT_EQ(cause(time, WaitCause::pipe_busy), 0);
}

// Every warp's time is in exactly one cause, and in exactly one instruction; collecting it does
// not change the schedule.
TEST(PipesWarpTime, CausesAndInstructionsAddUpOnRandomPrograms) {
  const PipeTiming timing = test_timing();
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed + 9000);
    const isa::Program program = random_pipe_program(rng);
    const auto warps = std::uniform_int_distribution<int>(1, 16)(rng);
    const auto per_block = std::uniform_int_distribution<int>(1, 8)(rng);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(1, 8)(rng) * 1000;
    const CoreOptions base{.barriers = {1, per_block, 0}, .pipes = &timing};
    CoreOptions with_time = base;
    WarpTime time;
    with_time.warp_time = &time;
    const isa::Millicycles t = simulate_core(program, warps, tm, with_time);
    ASSERT_EQ(t, simulate_core(program, warps, tm, base)) << "seed " << seed;
    isa::Millicycles by_cause = 0, by_op = 0;
    for (const isa::Millicycles c : time.causes) by_cause += c;
    for (const auto& [op, ms] : time.per_op) {
      EXPECT_TRUE(isa::is_instruction(op->kind));
      by_op += ms;
    }
    EXPECT_EQ(by_cause, by_op) << "seed " << seed;
    EXPECT_LE(by_cause, t * warps) << "seed " << seed;  // no warp is accounted past T_c
    for (const isa::Millicycles c : time.causes) EXPECT_GE(c, 0) << "seed " << seed;
  }
}

}  // namespace
}  // namespace warpsim::sim::core

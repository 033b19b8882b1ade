// The memory-aware timing model (docs/model.md, "Memory-aware timing" and "Caches"), worked by
// hand from its equations:
//   - core::price_access / core::cache_hit_rate: the price of one annotated access;
//   - CorePackage with a MemoryTiming: latencies, the package's DRAM queue, coalesced vs strided;
//   - barriers (`bar`): who waits for whom (BarrierLayout), finished warps count as arrived;
//   - the paper's model (no MemoryTiming): annotations and `bar` are calcs, Listing 1 unchanged;
//   - grid::memory_timing: the figures taken from a built-in profile;
//   (end to end through `warpsim`: tests/cli/memory_model_cli_test.cpp).
// All times are in millicycles (isa::Millicycles: 1'000 = one cycle), as the engine keeps them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/core/memory_timing.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/workload/timing_model.hpp"
#include "support/paper_program.hpp"
#include "support/source_dir.hpp"
#include "support/test_gpu.hpp"

namespace warpsim::sim::core {
namespace {

using isa::Millicycles;
using isa::OpKind;

// Round numbers, all different, so that a price built from the wrong figure shows:
//   t (front end per transaction) = 2 cycles, L_DRAM = 400, L_L2 = 200, L_shared = 30,
//   L_const = 50, 32 cycles per further constant address (the default), S = 3 cycles per
//   sector, an L2 share C of 1000 bytes per resident block, unknown sectors = 4 (the default).
MemoryTiming test_timing() {
  MemoryTiming m;
  m.issue_per_transaction = 2'000;
  m.global_latency = 400'000;
  m.cache_latency = 200'000;
  m.cache_bytes_per_block = 1000;
  m.shared_latency = 30'000;
  m.constant_latency = 50'000;
  m.dram_per_sector = 3'000;
  return m;
}

// The first instruction of a one-line .kp program, parsed as a user would write it.
isa::Op op_of(const std::string& line) { return isa::parse_kp(line + "\n", "op.kp").ops().at(0); }

isa::Program kp(const std::string& text) { return isa::parse_kp(text, "test.kp"); }

CoreEvent ev(std::uint32_t warp, OpKind kind, Millicycles start, Millicycles issue_end, Millicycles end) {
  return {warp, kind, start * 1000, issue_end * 1000, end * 1000};
}

// ---------------------------------------------------------------------------------------------
// 1. The price of one access (docs/model.md, the table under "Price of one access").

// The documented defaults: 32 cycles per further constant address (seed 001, M1), 4 sectors
// where the frontend could not tell.
TEST(MemoryPrice, DocumentedDefaults) {
  const MemoryTiming m;
  EXPECT_EQ(m.constant_serialisation, 32'000);
  EXPECT_EQ(m.unknown_sectors, 4);
}

// Global, s sectors, no reuse (h = 0): front end ceil(s/4) * t, latency L_DRAM + (ceil(s/4) - 1) t,
// DRAM s * S.
TEST(MemoryPrice, GlobalSectorsWithoutReuse) {
  const MemoryTiming m = test_timing();
  struct Case {
    const char* line;
    Millicycles issue, latency, dram;
  };
  const Case cases[] = {
      // 1 sector: one 128-byte line, one pass: 2; latency 400; DRAM 1 * 3.
      {"load 1 global sectors=1", 2'000, 400'000, 3'000},
      // 4 sectors (a coalesced warp of floats): still one line: 2; 400; 4 * 3 = 12.
      {"load 1 global sectors=4", 2'000, 400'000, 12'000},
      // 5 sectors: two lines: 2 * 2 = 4; 400 + 1 * 2 = 402; 5 * 3 = 15.
      {"load 1 global sectors=5", 4'000, 402'000, 15'000},
      // 32 sectors (a fully strided warp): 8 lines: 16; 400 + 7 * 2 = 414; 32 * 3 = 96.
      {"load 1 global sectors=32", 16'000, 414'000, 96'000},
      // Stores are priced the same way when nothing is reused.
      {"store 1 global sectors=5", 4'000, 402'000, 15'000},
      // local and tex are sector-counted like global.
      {"load 1 local sectors=8", 4'000, 402'000, 24'000},
      {"load 1 tex sectors=12", 6'000, 404'000, 36'000},
      // The instruction's own duration (here 999) plays no part in a priced access.
      {"load 999 global sectors=4", 2'000, 400'000, 12'000},
  };
  for (const Case& c : cases) {
    const AccessCost cost = price_access(op_of(c.line), m);
    EXPECT_EQ(cost.issue, c.issue) << c.line;
    EXPECT_EQ(cost.latency, c.latency) << c.line;
    EXPECT_EQ(cost.dram, c.dram) << c.line;
  }
}

// Sectors unknown (`load 60 global`, transactions 0): MemoryTiming::unknown_sectors are assumed.
TEST(MemoryPrice, UnknownSectorsUseTheAssumedCount) {
  MemoryTiming m = test_timing();
  const isa::Op unknown = op_of("load 60 global");
  ASSERT_EQ(unknown.transactions, 0);
  AccessCost cost = price_access(unknown, m);  // 4 assumed: one line
  EXPECT_EQ(cost.issue, 2'000);
  EXPECT_EQ(cost.latency, 400'000);
  EXPECT_EQ(cost.dram, 12'000);
  m.unknown_sectors = 8;  // two lines: 2 * 2; 400 + 2; 8 * 3
  cost = price_access(unknown, m);
  EXPECT_EQ(cost.issue, 4'000);
  EXPECT_EQ(cost.latency, 402'000);
  EXPECT_EQ(cost.dram, 24'000);
}

// An access no lane made (`sectors=0`, `ways=0`; every lane predicated off) moves nothing: no
// front-end pass, no latency, no DRAM, in every space (review 2026-11-sass-and-memory-seams 4.1:
// it was priced as 4 unknown sectors).
TEST(MemoryPrice, AccessWithNoLaneCostsNothing) {
  const MemoryTiming m = test_timing();
  for (const char* line : {"load 1 global sectors=0", "store 1 global sectors=0", "load 1 local sectors=0", "load 1 tex sectors=0",
                           "load 1 shared ways=0", "store 1 shared ways=0", "load 1 const ways=0"}) {
    const isa::Op op = op_of(line);
    ASSERT_EQ(op.transactions, isa::kNoLanes) << line;
    const AccessCost cost = price_access(op, m);
    EXPECT_EQ(cost.issue, 0) << line;
    EXPECT_EQ(cost.latency, 0) << line;
    EXPECT_EQ(cost.dram, 0) << line;
  }
}

// An atomic: its lanes on one address add (same - 1) atomic intervals of latency; its updates to
// the launch's busiest address take hot x atomic_per_update of the package's share there.
TEST(MemoryPrice, AtomicsSerialiseOnOneAddress) {
  MemoryTiming m = test_timing();
  m.atomic_interval = 1'000;
  m.atomic_per_update = 500'000;  // e.g. 500 packages share the address
  const AccessCost plain = price_access(op_of("load 1 global sectors=1"), m);
  const AccessCost atomic = price_access(op_of("load 1 global sectors=1 same=32 hot=0.5"), m);
  EXPECT_EQ(atomic.issue, plain.issue);
  EXPECT_EQ(atomic.latency, plain.latency + 31 * 1'000);
  EXPECT_EQ(atomic.dram, plain.dram);
  EXPECT_EQ(plain.atomic, 0);
  EXPECT_EQ(atomic.atomic, 250'000);
}

// Every sector of a global access passes the L2 (hit or miss, load or store): sectors x the
// package's share of L2 bandwidth. The H100's share: 3381.9 bytes/clock (the kit's L2 read) over
// 132 SMs x 4 packages = 6.405 bytes a cycle, 32 bytes in 4.9963 cycles -> 4'997 millicycles.
TEST(MemoryPrice, EverySectorPassesTheL2) {
  MemoryTiming m = test_timing();
  m.l2_per_sector = 5'000;
  EXPECT_EQ(price_access(op_of("load 1 global sectors=4"), m).l2, 20'000);
  EXPECT_EQ(price_access(op_of("store 1 global sectors=3 reuse=1 distance=0"), m).l2, 15'000);
  EXPECT_EQ(price_access(op_of("load 1 shared ways=2"), m).l2, 0);
  using grid::memory_timing, grid::plan_grid;
  const gpus::Profile h100 = gpus::load_profile("h100");
  const grid::Launch launch{1024, 256};
  EXPECT_EQ(memory_timing(h100, launch, plan_grid(h100, launch), 4'000).l2_per_sector, 4'997);
  const gpus::Profile t4 = gpus::load_profile("t4");  // no measured L2 figure: no L2 limit
  EXPECT_EQ(memory_timing(t4, launch, plan_grid(t4, launch), 4'000).l2_per_sector, 0);
}

// cache_hit_rate(reuse F, distance d; C per block) = F * min(1, C / d), and F when d = 0.
TEST(MemoryPrice, CacheHitRate) {
  // Reuse inside the cache (d <= C): every reused sector hits.
  EXPECT_DOUBLE_EQ(cache_hit_rate({500, 500}, 1000), 0.5);
  EXPECT_DOUBLE_EQ(cache_hit_rate({1000, 1000}, 1000), 1.0);  // d = C exactly still fits
  EXPECT_DOUBLE_EQ(cache_hit_rate({250, 100}, 1000), 0.25);
  // Beyond the cache: the random-access rate C/d of seed 004, eq. 9, on the reused fraction.
  EXPECT_DOUBLE_EQ(cache_hit_rate({1000, 4000}, 1000), 0.25);
  EXPECT_DOUBLE_EQ(cache_hit_rate({800, 2000}, 500), 0.8 * 0.25);
  EXPECT_DOUBLE_EQ(cache_hit_rate({1000, 3000}, 1000), 1.0 / 3.0);
  // No reuse, or reuse at distance 0 (touched again with nothing in between).
  EXPECT_DOUBLE_EQ(cache_hit_rate({0, 100}, 1000), 0.0);
  EXPECT_DOUBLE_EQ(cache_hit_rate({}, 1000), 0.0);
  EXPECT_DOUBLE_EQ(cache_hit_rate({700, 0}, 1000), 0.7);
}

// A global load with reuse hit rate h: latency h L_L2 + (1 - h) L_DRAM, DRAM s S (1 - h).
TEST(MemoryPrice, GlobalLoadWithReuse) {
  const MemoryTiming m = test_timing();  // C = 1000 bytes per block
  // Inside the cache: h = 0.5 * min(1, 1000/500) = 0.5. 4 sectors: front end 2;
  // latency 0.5 * 200 + 0.5 * 400 = 300; DRAM 4 * 3 * 0.5 = 6.
  AccessCost cost = price_access(op_of("load 1 global sectors=4 reuse=0.5 distance=500"), m);
  EXPECT_EQ(cost.issue, 2'000);
  EXPECT_EQ(cost.latency, 300'000);
  EXPECT_EQ(cost.dram, 6'000);
  // Beyond the cache: h = 1 * 1000/4000 = 0.25. 8 sectors (two lines): front end 4; latency
  // 0.25 * 200 + 0.75 * 400 = 350, + 1 * 2 for the second line = 352; DRAM 8 * 3 * 0.75 = 18.
  cost = price_access(op_of("load 1 global sectors=8 reuse=1 distance=4000"), m);
  EXPECT_EQ(cost.issue, 4'000);
  EXPECT_EQ(cost.latency, 352'000);
  EXPECT_EQ(cost.dram, 18'000);
  // Every sector hits (h = 1): L2 latency, nothing from DRAM.
  cost = price_access(op_of("load 1 global sectors=4 reuse=1 distance=0"), m);
  EXPECT_EQ(cost.issue, 2'000);
  EXPECT_EQ(cost.latency, 200'000);
  EXPECT_EQ(cost.dram, 0);
  // The same data with a smaller L2 share per block (more resident blocks): C = 250, d = 500:
  // h = 0.5, so latency 300 and DRAM 6, as the first case at half the distance.
  MemoryTiming crowded = m;
  crowded.cache_bytes_per_block = 250;
  cost = price_access(op_of("load 1 global sectors=4 reuse=1 distance=500"), crowded);
  EXPECT_EQ(cost.latency, 300'000);
  EXPECT_EQ(cost.dram, 6'000);
}

// A store's data always goes to DRAM: the L2 is write-back, so a stored sector is written back
// whether or not its line was in the L2 (the sampled reuse of a store is almost always the load
// of the same element just before it, as in y = a*x + y). Its latency still sees the hit.
TEST(MemoryPrice, StoreWritesItsSectorsToDramEvenWhenTheLineIsCached) {
  const MemoryTiming m = test_timing();
  const AccessCost cost = price_access(op_of("store 1 global sectors=4 reuse=1 distance=0"), m);
  EXPECT_EQ(cost.issue, 2'000);
  EXPECT_EQ(cost.latency, 200'000);  // h = 1: the L2's latency
  EXPECT_EQ(cost.dram, 12'000);      // 4 sectors * 3, not 0
  const AccessCost half = price_access(op_of("store 1 global sectors=8 reuse=0.5 distance=100"), m);
  EXPECT_EQ(half.latency, 302'000);  // 0.5 * 200 + 0.5 * 400, + 2 for the second line
  EXPECT_EQ(half.dram, 24'000);      // 8 * 3
}

// Shared, n-way bank conflict: n passes on the front end, latency L_shared + (n - 1) t, no DRAM.
// A broadcast (ways=1) is one pass.
TEST(MemoryPrice, SharedWaysAreSerialisedPasses) {
  const MemoryTiming m = test_timing();
  struct Case {
    const char* line;
    Millicycles issue, latency;
  };
  const Case cases[] = {
      {"load 1 shared ways=1", 2'000, 30'000},              // 1 pass
      {"load 1 shared ways=2", 4'000, 32'000},              // 2 * 2; 30 + 2
      {"store 1 shared ways=4", 8'000, 36'000},             // 4 * 2; 30 + 3 * 2
      {"load 1 shared ways=32", 64'000, 30'000 + 62'000},  // 32 * 2; 30 + 31 * 2
      {"load 1 shared", 2'000, 30'000},                     // ways unknown: one pass
  };
  for (const Case& c : cases) {
    const AccessCost cost = price_access(op_of(c.line), m);
    EXPECT_EQ(cost.issue, c.issue) << c.line;
    EXPECT_EQ(cost.latency, c.latency) << c.line;
    EXPECT_EQ(cost.dram, 0) << c.line;
  }
}

// Constant, a distinct addresses: one front-end pass, then the addresses are served one after
// another, 32 cycles each after the first: latency L_const + (a - 1) 32. No DRAM.
TEST(MemoryPrice, ConstantAddressesAreSerialised32CyclesEach) {
  MemoryTiming m = test_timing();
  struct Case {
    const char* line;
    Millicycles latency;
  };
  const Case cases[] = {
      {"load 1 const ways=1", 50'000},            // one address
      {"load 1 const ways=3", 50'000 + 64'000},  // 50 + 2 * 32
      {"load 1 const ways=32", 50'000 + 31 * 32'000},
      {"load 1 const", 50'000},                  // unknown: one address
  };
  for (const Case& c : cases) {
    const AccessCost cost = price_access(op_of(c.line), m);
    EXPECT_EQ(cost.issue, 2'000) << c.line;  // t, whatever the number of addresses
    EXPECT_EQ(cost.latency, c.latency) << c.line;
    EXPECT_EQ(cost.dram, 0) << c.line;
  }
  m.constant_serialisation = 10'000;  // the figure is the timing's, not a constant in the code
  EXPECT_EQ(price_access(op_of("load 1 const ways=3"), m).latency, 70'000);
}

// ---------------------------------------------------------------------------------------------
// 2. The core package with a MemoryTiming.

// One warp: `load 1 global sectors=4` at 0 holds the front end for t = 2 and its data arrives
// after L_DRAM = 400 (the DRAM queue, 4 * 3 = 12 cycles, is done long before); the warp yields
// (the next instruction is a calc), waits for the load and calcs 5: T_c = 405. The paper's
// model, with the same t_m = 2, completes the load at max(1, t_m) = 2: T_c = 7.
TEST(MemoryCore, SingleWarpWaitsForTheLoadsLatency) {
  const MemoryTiming m = test_timing();
  const isa::Program program = kp("load 1 global sectors=4\ncalc 5\n");
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(program, 1, 2'000, {.events = &events, .memory = &m}), 405'000);
  const std::vector<CoreEvent> expected = {ev(0, OpKind::load, 0, 2, 400), ev(0, OpKind::calc, 400, 405, 405)};
  EXPECT_EQ(events, expected);
  // Without events (the engine picks its own path): the same.
  EXPECT_EQ(simulate_core(program, 1, 2'000, {.memory = &m}), 405'000);
  EXPECT_EQ(simulate_core(program, 1, 2'000), 7'000);  // paper's model
}

// Two warps share the package's DRAM queue: free = max(free, issue) + DRAM time, and an access
// completes at max(issue + latency, free). With S = 100 cycles a 4-sector load takes 400 cycles
// of DRAM: w0's load at 0 is done at max(400, 400) = 400; w1's at 2 queues behind it:
// free = max(400, 2) + 400 = 800, done at max(402, 800) = 800. Then w0 calcs [400, 410] and
// w1 waits for its own load: [800, 810] = T_c.
TEST(MemoryCore, DramQueueDelaysTheSecondWarp) {
  MemoryTiming m = test_timing();
  m.dram_per_sector = 100'000;
  const isa::Program program = kp("load 1 global sectors=4\ncalc 10\n");
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(program, 2, 2'000, {.events = &events, .memory = &m}), 810'000);
  const std::vector<CoreEvent> expected = {ev(0, OpKind::load, 0, 2, 400), ev(1, OpKind::load, 2, 4, 800),
                                           ev(0, OpKind::calc, 400, 410, 410), ev(1, OpKind::calc, 800, 810, 810)};
  EXPECT_EQ(events, expected);
}

// Loads that never wait (the program ends after its run of loads) all issue by 4 * 8 * t = 64
// cycles, far less than their DRAM time, so the queue never idles from the first issue at 0:
// T_c = total sectors * S = (4 warps * 8 loads * 4 sectors) * 100 = 12'800 cycles, exactly the
// bandwidth bound (the last issue + latency, 62 + 400, is long past).
TEST(MemoryCore, StreamingLoadsTakeExactlyTheirDramTime) {
  MemoryTiming m = test_timing();
  m.dram_per_sector = 100'000;
  const isa::Program program = kp("repeat 8\n  load 1 global sectors=4\nend\n");
  const Millicycles bound = 4 * 8 * 4 * m.dram_per_sector;
  EXPECT_EQ(simulate_core(program, 4, 2'000, {.memory = &m}), bound);
  EXPECT_EQ(bound, 12'800'000);
}

// 32 warps, each `repeat 16 { load 1 global sectors=4; calc 4 }`, S = 50: every load takes 200
// cycles of DRAM, against 6 cycles of issue per warp and round, so the queue never idles.
// Round 1: w_k issues at 2k; the queue is free at 200 (k + 1); w0 and w1 are latency-bound
// (400, 402), the others done at 200 (k + 1). From round 2 on each warp waits for its own load,
// calcs 4 and issues its next one behind the queue: round r's load of w_k completes at
// (32 (r - 1) + k + 1) * 200. The last load (round 16, w31) completes at 512 * 200 = 102'400 =
// total sectors * S, and w31's final calc 4 ends at 102'404 = T_c.
// The loop is long enough for the steady-state fast-forward, which must shift the DRAM queue
// with everything else: the full simulation gives the same.
TEST(MemoryCore, ManyWarpsAreBoundByTotalSectorsTimesDramPerSector) {
  MemoryTiming m = test_timing();
  m.dram_per_sector = 50'000;
  const isa::Program program = kp("repeat 16\n  load 1 global sectors=4\n  calc 4\nend\n");
  const Millicycles total_dram = 32 * 16 * 4 * m.dram_per_sector;
  ASSERT_EQ(total_dram, 102'400'000);
  std::int64_t skipped = 0;
  const Millicycles fast = simulate_core(program, 32, 2'000, {.periods_skipped = &skipped, .memory = &m});
  EXPECT_EQ(fast, total_dram + 4'000);
  EXPECT_GE(fast, total_dram);
  EXPECT_GT(skipped, 0) << "expected the fast-forward to skip periods (and shift the DRAM queue)";
  EXPECT_EQ(simulate_core(program, 32, 2'000, {.fast_forward = false, .memory = &m}), total_dram + 4'000);
}

// A copy, `load; calc 2; store` of s sectors, by 8 warps with t = 1, L_DRAM = 100, S = 2.
// Coalesced (s = 4, one line, DRAM 8 per access): round 1 loads at k, done at k + 100 (the queue,
// 8 (k + 1), keeps up); round 2: w_k waits to 100 + 3k (w0 at 100), calcs 2, stores at 102 + 3k
// (done 202 + 3k; the queue, at most 64 + 8 * 8 = 128 cycles, is long free). Latency-bound:
// T_c = w7's store, 202 + 21 = 223.
// Strided (s = 32: 8 lines, front end 8, latency 100 + 7 = 107, DRAM 64 per access): round 1
// loads at 8k, queue free at 64 (k + 1), so w0 is done at 107 and w_k at 64 (k + 1); round 2:
// w0 stores at 109, w_k (k >= 1) at 64 (k + 1) + 2, each queued behind the 512 cycles of loads:
// the last store completes at 512 + 8 * 64 = 1024 = 16 accesses * 32 sectors * 2 = T_c, DRAM-bound.
TEST(MemoryCore, CoalescedAndStridedCopiesTakeDifferentTimes) {
  MemoryTiming m = test_timing();
  m.issue_per_transaction = 1'000;
  m.global_latency = 100'000;
  m.dram_per_sector = 2'000;
  const isa::Program coalesced = kp("load 1 global sectors=4\ncalc 2\nstore 1 global sectors=4\n");
  const isa::Program strided = kp("load 1 global sectors=32\ncalc 2\nstore 1 global sectors=32\n");
  EXPECT_EQ(simulate_core(coalesced, 8, 1'000, {.memory = &m}), 223'000);
  EXPECT_EQ(simulate_core(strided, 8, 1'000, {.memory = &m}), 1'024'000);
  // The paper's model cannot tell them apart: every access costs t_m.
  EXPECT_EQ(simulate_core(coalesced, 8, 1'000), simulate_core(strided, 8, 1'000));
}

// ---------------------------------------------------------------------------------------------
// 3. Barriers (docs/model.md, "Barriers"): `bar` holds a warp until the other warps of its block
// on the package have arrived or finished. BarrierLayout{} puts every warp in one block.

// w0 `calc 10; bar; calc 1`, w1 `calc 100; bar; calc 1` (bar: 1 cycle). Round 1: w0 calcs
// [0, 10], bar [10, 11], and must wait; w1 calcs [11, 111], bar [111, 112] releases the block and
// goes on: calc [112, 113], done. Round 2: w0's calc after the barrier runs [113, 114]: after w1
// arrived, never before 112. (The paper's model, where bar is a calc, would run w0 to its end at
// 12 before w1 starts; the total is 114 in both, so the events are what tells.)
TEST(MemoryBarrier, WarpWaitsForTheRestOfItsBlock) {
  const MemoryTiming m = test_timing();
  const isa::Program fast = kp("calc 10\nbar\ncalc 1\n");
  const isa::Program slow = kp("calc 100\nbar\ncalc 1\n");
  const std::vector<const isa::Program*> programs = {&fast, &slow};
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(programs, 2'000, {.events = &events, .memory = &m}), 114'000);
  const std::vector<CoreEvent> expected = {
      ev(0, OpKind::calc, 0, 10, 10),       ev(0, OpKind::barrier, 10, 11, 11), ev(1, OpKind::calc, 11, 111, 111),
      ev(1, OpKind::barrier, 111, 112, 112), ev(1, OpKind::calc, 112, 113, 113), ev(0, OpKind::calc, 113, 114, 114)};
  EXPECT_EQ(events, expected);
  // The paper's model: bar is a calc of 1 cycle, nothing waits.
  events.clear();
  EXPECT_EQ(simulate_core(programs, 2'000, {.events = &events}), 114'000);
  const std::vector<CoreEvent> paper = {
      ev(0, OpKind::calc, 0, 10, 10),      ev(0, OpKind::calc, 10, 11, 11),      ev(0, OpKind::calc, 11, 12, 12),
      ev(1, OpKind::calc, 12, 112, 112), ev(1, OpKind::calc, 112, 113, 113), ev(1, OpKind::calc, 113, 114, 114)};
  EXPECT_EQ(events, paper);
}

// The same with a load after w0's barrier, where the wait shows in T_c (t = 2, L_DRAM = 400):
// one block: w0 calcs to 10, bar to 11, waits; w1 runs [11, 113] and releases it; w0 then issues
// its load at 113 (done 513) and calcs 1 after it: T_c = 514.
// Two blocks (BarrierLayout{1 package, 1 warp per block}: block_of(w) = w): w0 passes its
// barrier at once, issues the load at 11 (done 411) and yields; w1 runs [13, 115]; w0 waits to
// 411 and calcs 1: T_c = 412.
TEST(MemoryBarrier, WarpsOfDifferentBlocksDoNotWaitForEachOther) {
  const MemoryTiming m = test_timing();
  const isa::Program fast = kp("calc 10\nbar\nload 1 global sectors=4\ncalc 1\n");
  const isa::Program slow = kp("calc 100\nbar\ncalc 1\n");
  const std::vector<const isa::Program*> programs = {&fast, &slow};
  EXPECT_EQ(simulate_core(programs, 2'000, {.memory = &m}), 514'000);
  EXPECT_EQ(simulate_core(programs, 2'000, {.memory = &m, .barriers = BarrierLayout{1, 2}}), 514'000);  // one block of 2
  EXPECT_EQ(simulate_core(programs, 2'000, {.memory = &m, .barriers = BarrierLayout{1, 1}}), 412'000);
}

// block_of(k) = floor((k * N_cp + p) / N_wb) on package p: a run's warps, block by block, dealt round-robin to the
// N_cp packages. 8 warps per block on 4 packages: each package gets 2 of each block.
TEST(MemoryBarrier, BarrierLayoutGroupsAPackagesWarpsByBlock) {
  const BarrierLayout four_packages{4, 8};
  for (const auto& [warp, block] : std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}, {7, 3}}) {
    EXPECT_EQ(four_packages.block_of(warp), block) << warp;
  }
  // 2 warps per block on 4 packages: each package holds one warp of each of its blocks
  // (package 0 gets warp 0 of blocks 0, 2, 4, ...): every warp is a block of its own here.
  const BarrierLayout sparse{4, 2};
  EXPECT_EQ(sparse.block_of(0), 0);
  EXPECT_EQ(sparse.block_of(1), 2);
  EXPECT_EQ(sparse.block_of(2), 4);
  // warps_per_block 0: one block.
  EXPECT_EQ(BarrierLayout{}.block_of(1000), 0);
  // 3 warps per block on 2 packages: the run's warps 0 1 2 | 3 4 5 go to packages 0 1 0 | 1 0 1,
  // so package 0 holds warps 0, 2, 4 (blocks 0, 0, 1) and package 1 warps 1, 3, 5 (blocks 0, 1, 1).
  const BarrierLayout package0{2, 3, 0}, package1{2, 3, 1};
  EXPECT_EQ((std::vector{package0.block_of(0), package0.block_of(1), package0.block_of(2)}), (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ((std::vector{package1.block_of(0), package1.block_of(1), package1.block_of(2)}), (std::vector<std::int64_t>{0, 1, 1}));
}

// A finished warp counts as arrived (CUDA counts exited threads). w0 `calc 10; bar; calc 1`,
// w1 `calc 100` with no barrier: w0 waits at 11; w1 calcs [11, 111] and finishes, which releases
// w0: calc [111, 112] = T_c. (Were a finished warp not counted, w0 would never pass and the
// package would stop at 111 with w0 unfinished.)
TEST(MemoryBarrier, AFinishedWarpCountsAsArrived) {
  const MemoryTiming m = test_timing();
  const isa::Program waits = kp("calc 10\nbar\ncalc 1\n");
  const isa::Program exits = kp("calc 100\n");
  const std::vector<const isa::Program*> programs = {&waits, &exits};
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(programs, 2'000, {.events = &events, .memory = &m}), 112'000);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events.back(), ev(0, OpKind::calc, 111, 112, 112));
  // A warp with nothing to run (an early exit) has finished before anything starts: w1 `calc 1;
  // bar; calc 1` passes its barrier at once: 3 cycles.
  const isa::Program empty = kp("repeat 0\n  calc 1\nend\n");
  const isa::Program one = kp("calc 1\nbar\ncalc 1\n");
  const std::vector<const isa::Program*> with_empty = {&empty, &one};
  EXPECT_EQ(simulate_core(with_empty, 2'000, {.memory = &m}), 3'000);
}

// ---------------------------------------------------------------------------------------------
// 4. The paper's model (no MemoryTiming): an annotated access that is not global, and `bar`, are
// calcs of their duration; a program without annotations times the same under both models.

// One warp, t_m = 2: shared 7, const 9, local 4 and bar 5 are calcs [0, 7], [7, 16], [16, 20],
// [20, 25]; the global load 20 issues at 25 (done 25 + max(20, 2) = 45), the warp waits, calc 3:
// T_c = 48. Its annotations (sectors, ways) play no part.
TEST(PaperModel, AnnotatedNonGlobalAccessesAndBarriersAreCalcs) {
  const isa::Program program =
      kp("load 7 shared ways=2\nload 9 const ways=3\nstore 4 local sectors=32\nbar 5\nload 20 global sectors=32\ncalc 3\n");
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(program, 1, 2'000, {.events = &events}), 48'000);
  const std::vector<CoreEvent> expected = {ev(0, OpKind::calc, 0, 7, 7),   ev(0, OpKind::calc, 7, 16, 16),
                                           ev(0, OpKind::calc, 16, 20, 20), ev(0, OpKind::calc, 20, 25, 25),
                                           ev(0, OpKind::load, 25, 27, 45), ev(0, OpKind::calc, 45, 48, 48)};
  EXPECT_EQ(events, expected);
  // With several warps: the same as the program with those instructions written as calcs
  // (tests/support/paper_program.hpp), on both engines.
  const isa::Program as_calcs = testing_support::paper_program(program);
  for (const std::int64_t warps : {1, 3, 8}) {
    EXPECT_EQ(simulate_core(program, warps, 2'000), simulate_core(as_calcs, warps, 2'000)) << warps;
    EXPECT_EQ(simulate_core(program, warps, 2'000, {.visit_engine = false}), simulate_core(as_calcs, warps, 2'000))
        << warps;
  }
}

// Listing 1 (tests/core/core_test.cpp; workloads/examples/), N_w = 3, t_m = 2: 112 cycles with
// line 7 a load, 111 with a store, under the paper's model and under the memory-aware one with
// any MemoryTiming (nothing in it is annotated, so nothing is priced).
TEST(PaperModel, ProgramsWithoutAnnotationsTimeTheSameUnderBothModels) {
  MemoryTiming odd = test_timing();
  odd.dram_per_sector = 1'000'000;  // prices that would show if anything were priced
  odd.global_latency = 5'000'000;
  for (const auto& [file, cycles] : {std::pair{"listing1_load.kp", 112'000}, std::pair{"listing1_store.kp", 111'000}}) {
    const isa::Program program = isa::load_kp_file(testing_support::kSourceDir + "/workloads/examples/" + file);
    ASSERT_FALSE(program.has_memory_annotations());
    EXPECT_EQ(simulate_core(program, 3, 2'000), cycles) << file;
    EXPECT_EQ(simulate_core(program, 3, 2'000, {.memory = &odd}), cycles) << file;
    std::vector<CoreEvent> paper_events, memory_events;  // event by event, on the stepwise engine
    simulate_core(program, 3, 2'000, {.events = &paper_events});
    simulate_core(program, 3, 2'000, {.events = &memory_events, .memory = &odd});
    EXPECT_EQ(paper_events, memory_events) << file;
  }
  // The DWT matrix program (Listing 7, K = 8) with H100 prices, at several warp counts.
  const isa::Program matrix = isa::load_kp_file(testing_support::kSourceDir + "/workloads/dwt/matrix.kp").bind({{"K", 8}});
  const gpus::Profile h100 = gpus::load_profile("h100");
  const MemoryTiming h100_timing = grid::memory_timing(h100, {132, 256}, grid::plan_grid(h100, {132, 256}), 4'000);
  for (const std::int64_t warps : {1, 2, 7, 16}) {
    EXPECT_EQ(simulate_core(matrix, warps, 4'000, {.memory = &h100_timing}), simulate_core(matrix, warps, 4'000)) << warps;
  }
  // Through the CLI: tests/cli/memory_model_cli_test.cpp.
}

// Steady-state fast-forward under the memory-aware model (review 2026-11, finding 10): random
// programs with priced global, shared, constant and unannotated accesses, barriers, barrier layouts
// and DRAM rates, fast-forward on against off, to the thousandth of a cycle. The pipe model to
// come must keep this property; this test is where it will show.
isa::Program random_memory_program(std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 9), duration(1, 40), count(0, 300), small(0, 4), sectors(1, 32);
  std::string text;
  const auto instruction = [&] {
    switch (pick(rng)) {
      case 0: case 1: case 2: return "calc " + std::to_string(duration(rng)) + "\n";
      case 3: return "load 60 global sectors=" + std::to_string(sectors(rng)) + "\n";
      case 4: return "store 60 global sectors=" + std::to_string(sectors(rng)) + "\n";
      case 5: return "load 1 shared ways=" + std::to_string(1 + small(rng)) + "\n";
      case 6: return "load 1 const ways=" + std::to_string(1 + small(rng)) + "\n";
      case 7: return std::string("bar\n");
      case 8: return std::string("load 60\n");
      default: return "load 60 global sectors=" + std::to_string(sectors(rng)) + " reuse=0.5 distance=4096\n";
    }
  };
  for (int block = 0, blocks = 1 + small(rng); block < blocks; ++block) {
    if (small(rng) == 0) {
      text += instruction();
      continue;
    }
    text += "repeat " + std::to_string(count(rng)) + "\n";
    for (int i = 0, n = 1 + small(rng); i < n; ++i) text += instruction();
    text += "end\n";
  }
  return kp(text);
}

TEST(MemoryFastForward, EqualsFullSimulationOnRandomPrograms) {
  int skipped_somewhere = 0;
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const isa::Program program = random_memory_program(rng);
    const auto warps = std::uniform_int_distribution<int>(1, 24)(rng);
    MemoryTiming timing = test_timing();
    timing.dram_per_sector = std::uniform_int_distribution<int>(0, 8)(rng) * 500;
    timing.issue_per_transaction = std::uniform_int_distribution<int>(1, 4)(rng) * 1'000;
    const BarrierLayout barriers{std::uniform_int_distribution<int>(1, 4)(rng), std::uniform_int_distribution<int>(0, 6)(rng)};
    const CoreOptions off{.fast_forward = false, .memory = &timing, .barriers = barriers};
    std::int64_t periods = 0;
    const CoreOptions on{.periods_skipped = &periods, .visit_engine = false, .memory = &timing, .barriers = barriers};
    const Millicycles full = simulate_core(program, warps, 2'000, off);
    ASSERT_EQ(simulate_core(program, warps, 2'000, on), full)
        << "seed " << seed << ", " << warps << " warps\n" << isa::to_kp(program);
    skipped_somewhere += periods > 0;
  }
  EXPECT_GT(skipped_somewhere, 50);  // the comparison exercised the fast path
}

}  // namespace
}  // namespace warpsim::sim::core

namespace warpsim::sim::grid {
namespace {

// ---------------------------------------------------------------------------------------------
// 5. grid::memory_timing: the MemoryTiming of one launch, from the profile's own figures
// (docs/model.md, "DRAM bandwidth"; sim/grid/memory_defaults.cpp).

double figure(const gpus::Profile& gpu, const char* key) { return gpu.figures.at(key); }

// S in millicycles: 32 bytes over the package's share of B, B * 10^3 / F bytes per cycle split
// over min(N_sm, N_b) SMs and N_cp packages: 32 * min(N_sm, N_b) * N_cp * F / (B * 10^3) cycles,
// rounded up to a whole millicycle (never faster than the bandwidth).
isa::Millicycles expected_dram_per_sector(const gpus::Profile& gpu, std::int64_t blocks) {
  const double sms = static_cast<double>(std::min(gpu.sm_count, blocks));
  // The achievable bandwidth where the profile cites one, else the theoretical.
  const char* bandwidth = gpu.figures.contains("achievable_bandwidth_gbs") ? "achievable_bandwidth_gbs" : "memory_bandwidth_gbs";
  const double cycles = 32.0 * sms * static_cast<double>(gpu.core_packages_per_sm()) * gpu.clock_mhz / (figure(gpu, bandwidth) * 1e3);
  return static_cast<isa::Millicycles>(std::ceil(cycles * 1000));
}

isa::Millicycles in_millicycles(double cycles) { return std::llround(cycles * 1000); }

TEST(MemoryDefaults, LatenciesAndBandwidthComeFromTheProfile) {
  for (const char* id : {"h100", "a100", "rtx3090"}) {
    const gpus::Profile gpu = gpus::load_profile(id);
    // 1024 blocks of 256 threads (8 warps): N_ab = min(ceil(1024 / N_sm), floor(L_w / 8), L_b).
    const Launch launch{1024, 256};
    const GridPlan plan = plan_grid(gpu, launch);
    const core::MemoryTiming t = memory_timing(gpu, launch, plan, 3'500);
    EXPECT_EQ(t.issue_per_transaction, 3'500) << id;  // as given (t_m)
    EXPECT_EQ(t.global_latency, in_millicycles(figure(gpu, "dram_latency_cycles"))) << id;
    EXPECT_EQ(t.cache_latency, in_millicycles(figure(gpu, "l2_latency_cycles"))) << id;
    EXPECT_EQ(t.shared_latency, in_millicycles(figure(gpu, "shared_latency_cycles"))) << id;
    EXPECT_EQ(t.constant_latency, in_millicycles(figure(gpu, "constant_latency_cycles"))) << id;
    // L2 bytes over the blocks resident at once: min(N_b, N_sm * N_ab).
    const auto resident = std::min<std::int64_t>(launch.blocks, gpu.sm_count * plan.active_blocks_per_sm);
    EXPECT_DOUBLE_EQ(t.cache_bytes_per_block, figure(gpu, "l2_cache_kib") * 1024 / static_cast<double>(resident)) << id;
    EXPECT_EQ(t.dram_per_sector, expected_dram_per_sector(gpu, launch.blocks)) << id;
    // The roofline property the queue rests on: all N_sm * N_cp packages together, each moving
    // a sector per S, move no more than B bytes per second.
    const double bytes_per_us = 32.0 * static_cast<double>(gpu.sm_count * gpu.core_packages_per_sm()) /
                                (static_cast<double>(t.dram_per_sector) / 1000 / gpu.clock_mhz);
    // B is the achievable bandwidth where the profile cites one (all three do), below the peak.
    ASSERT_LT(figure(gpu, "achievable_bandwidth_gbs"), figure(gpu, "memory_bandwidth_gbs")) << id;
    EXPECT_LE(bytes_per_us, figure(gpu, "achievable_bandwidth_gbs") * 1e3) << id;
    EXPECT_GT(bytes_per_us, figure(gpu, "achievable_bandwidth_gbs") * 1e3 * 0.999) << id;
    // Defaults of the other two figures.
    EXPECT_EQ(t.constant_serialisation, 32'000) << id;
    EXPECT_EQ(t.unknown_sectors, 4) << id;
  }
}

// The H100 worked once in numbers as a check on the formulas above: N_sm 132, N_cp 128 / 32 = 4,
// F 1980 MHz, B 2753.2 GB/s (achievable: the kit's DRAM copy; 3350 theoretical), L2 51200 KiB.
// 1024 x 256: N_sb = 8, N_ab = min(8, 64 / 8, 32) = 8, resident = min(1024, 132 * 8) = 1024,
// C = 51200 KiB / 1024 = 51200 bytes; S = 32 * 132 * 4 * 1980 / 2'753'200 = 12.15087 cycles
// -> 12'151 millicycles.
TEST(MemoryDefaults, H100InNumbers) {
  const gpus::Profile gpu = gpus::load_profile("h100");
  EXPECT_EQ(sim::grid::default_issue_per_transaction(gpu), 4'000);  // N_cp cycles
  const Launch launch{1024, 256};
  const core::MemoryTiming t = memory_timing(gpu, launch, plan_grid(gpu, launch), 4'000);
  EXPECT_EQ(t.global_latency, 478'800);
  EXPECT_EQ(t.cache_latency, 263'000);
  EXPECT_DOUBLE_EQ(t.cache_bytes_per_block, 51'200.0);
  EXPECT_EQ(t.dram_per_sector, 12'151);
}

// Fewer blocks than SMs: only min(N_sm, N_b) SMs share the bandwidth, so each package's share
// grows and S shrinks; the L2 is shared by those few blocks. Many blocks: resident blocks are
// capped at N_sm * N_ab, also when occupancy (resident_blocks_limit) lowers N_ab.
TEST(MemoryDefaults, SharesFollowTheLaunch) {
  const gpus::Profile gpu = gpus::load_profile("a100");
  const double l2_bytes = figure(gpu, "l2_cache_kib") * 1024;
  const Launch two{2, 128};
  core::MemoryTiming t = memory_timing(gpu, two, plan_grid(gpu, two), 4'000);
  EXPECT_EQ(t.dram_per_sector, expected_dram_per_sector(gpu, 2));
  EXPECT_LT(t.dram_per_sector, expected_dram_per_sector(gpu, gpu.sm_count));
  EXPECT_DOUBLE_EQ(t.cache_bytes_per_block, l2_bytes / 2);
  const Launch many{100'000, 256};
  GridPlan plan = plan_grid(gpu, many);
  t = memory_timing(gpu, many, plan, 4'000);
  EXPECT_EQ(t.dram_per_sector, expected_dram_per_sector(gpu, many.blocks));
  EXPECT_DOUBLE_EQ(t.cache_bytes_per_block, l2_bytes / static_cast<double>(gpu.sm_count * plan.active_blocks_per_sm));
  const Launch limited{100'000, 256, 3};  // registers or shared memory allow 3 blocks per SM
  plan = plan_grid(gpu, limited);
  ASSERT_EQ(plan.active_blocks_per_sm, 3);
  t = memory_timing(gpu, limited, plan, 4'000);
  EXPECT_DOUBLE_EQ(t.cache_bytes_per_block, l2_bytes / static_cast<double>(gpu.sm_count * 3));
}

// A profile without the memory figures: an InputError that names the missing one.
TEST(MemoryDefaults, MissingFigureIsAnInputError) {
  const gpus::Profile gpu = testing_support::small_gpu();
  const Launch launch{4, 64};
  try {
    memory_timing(gpu, launch, plan_grid(gpu, launch), 1'000);
    ADD_FAILURE() << "accepted a profile without memory figures";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dram_latency_cycles"), std::string::npos) << e.what();
  }
}

// ModelSpec: the memory-aware model adds memory_timing(...) and BarrierLayout{N_cp, N_wb} to
// the options of annotated programs; the paper's adds nothing, and neither does the memory-aware
// model for programs without annotations (it asks for no memory figure then).
TEST(MemoryDefaults, ModelSpecCarriesTheLaunchsTimingAndBarrierLayout) {
  const gpus::Profile gpu = gpus::load_profile("rtx3090");
  const Launch launch{500, 96};  // 3 warps per block
  const workload::ModelSpec memory = workload::make_model_spec(Model::memory, gpu, launch, 4'000, true);
  ASSERT_NE(memory.core_options().memory, nullptr);
  EXPECT_EQ(*memory.core_options().memory, memory_timing(gpu, launch, plan_grid(gpu, launch), 4'000));
  EXPECT_EQ(memory.core_options().barriers, (core::BarrierLayout{4, 3}));
  const workload::ModelSpec paper = workload::make_model_spec(Model::paper, gpu, launch, 4'000, true);
  EXPECT_EQ(paper.core_options().memory, nullptr);
  EXPECT_EQ(paper.core_options().barriers, core::BarrierLayout{});
  const workload::ModelSpec unannotated = workload::make_model_spec(Model::memory, gpu, launch, 4'000, false);
  EXPECT_EQ(unannotated.core_options().memory, nullptr);
  EXPECT_NE(unannotated.fingerprint(), memory.fingerprint());
  EXPECT_NE(paper.fingerprint(), unannotated.fingerprint()) << "the model is part of the fingerprint";
}

// 6. End to end through `warpsim simulate`: tests/cli/memory_model_cli_test.cpp.

}  // namespace
}  // namespace warpsim::sim::grid

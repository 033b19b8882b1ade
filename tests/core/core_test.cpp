#include <gtest/gtest.h>

#include <random>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/core/visit_list.hpp"

namespace warpsim::sim::core {
namespace {

using isa::OpKind;

isa::Program listing1(OpKind line7) {
  isa::Program program("listing1", "");
  program.add(OpKind::load, 15'000);
  program.add(OpKind::calc, 5'000);
  program.add(OpKind::calc, 6'000);
  program.add(line7, 35'000);
  program.add(OpKind::calc, 10'000);
  program.add(OpKind::store, 15'000);
  program.finish();
  return program;
}

// MODEL.md section 2 golden values.
TEST(CoreEngine, Listing1GoldenCycles) {
  EXPECT_EQ(simulate_core(listing1(OpKind::load), 3, 2'000), 112'000);
  EXPECT_EQ(simulate_core(listing1(OpKind::store), 3, 2'000), 111'000);
}

// Figure 7 of the paper, worked by hand with t_m = 2 (event: warp, kind, start, issue_end, end):
// round 1: each warp issues its first load, then yields (next is calc): w0 at 0, w1 at 2, w2 at 4.
// round 2: w0 waits for its load (15), calc 5, calc 6, load 35 at 26 (done 61), yields at 28;
//          w1 waits for 17 < 28, starts at 28: calcs to 39, load at 39 (done 74); w2 from 41.
// round 3: w0 waits to 61: calc 10, store at 71 (done 86); w1 waits to 74; w2 waits to 87,
//          its store at 97 completes at 112 = T_c.
TEST(CoreEngine, Listing1LoadVariantEventsMatchFigure7) {
  std::vector<CoreEvent> events;
  const isa::Program program = listing1(OpKind::load);
  EXPECT_EQ(simulate_core(program, 3, 2'000, {.events = &events}), 112'000);
  const auto ev = [](std::uint32_t warp, OpKind kind, int start, int issue_end, int end) {
    return CoreEvent{warp, kind, start * 1000, issue_end * 1000, end * 1000};
  };
  const std::vector<CoreEvent> expected = {
      ev(0, OpKind::load, 0, 2, 15),    ev(1, OpKind::load, 2, 4, 17),    ev(2, OpKind::load, 4, 6, 19),
      ev(0, OpKind::calc, 15, 20, 20),  ev(0, OpKind::calc, 20, 26, 26),  ev(0, OpKind::load, 26, 28, 61),
      ev(1, OpKind::calc, 28, 33, 33),  ev(1, OpKind::calc, 33, 39, 39),  ev(1, OpKind::load, 39, 41, 74),
      ev(2, OpKind::calc, 41, 46, 46),  ev(2, OpKind::calc, 46, 52, 52),  ev(2, OpKind::load, 52, 54, 87),
      ev(0, OpKind::calc, 61, 71, 71),  ev(0, OpKind::store, 71, 73, 86), ev(1, OpKind::calc, 74, 84, 84),
      ev(1, OpKind::store, 84, 86, 99), ev(2, OpKind::calc, 87, 97, 97),  ev(2, OpKind::store, 97, 99, 112)};
  EXPECT_EQ(events, expected);
}

// Figure 8: the store at line 7 does not make the warp yield, so each warp runs to its end in
// round 2: w0 from 15 to 40, w1 from 40 to 65, w2 from 65 to 90; w2's first store (at 76,
// 35 cycles) completes last, at 111.
TEST(CoreEngine, Listing1StoreVariantEventsMatchFigure8) {
  std::vector<CoreEvent> events;
  EXPECT_EQ(simulate_core(listing1(OpKind::store), 3, 2'000, {.events = &events}), 111'000);
  ASSERT_EQ(events.size(), 18u);
  EXPECT_EQ(events[3], (CoreEvent{0, OpKind::calc, 15'000, 20'000, 20'000}));
  EXPECT_EQ(events[5], (CoreEvent{0, OpKind::store, 26'000, 28'000, 61'000}));
  EXPECT_EQ(events[7], (CoreEvent{0, OpKind::store, 38'000, 40'000, 53'000}));
  EXPECT_EQ(events[8], (CoreEvent{1, OpKind::calc, 40'000, 45'000, 45'000}));
  EXPECT_EQ(events[15], (CoreEvent{2, OpKind::store, 76'000, 78'000, 111'000}));
  EXPECT_EQ(events[17], (CoreEvent{2, OpKind::store, 88'000, 90'000, 103'000}));
}

TEST(CoreEngine, EventsAreNotRecordedUnlessAsked) {
  EXPECT_EQ(simulate_core(listing1(OpKind::load), 3, 2'000, {}), 112'000);
}

// One warp: calc 5 [0,5]; load 20 at 5 completes at 25, front end to 9, yield (next is calc);
// next visit waits to 25; calc 3 ends at 28.
TEST(CoreEngine, SingleWarpWaitsForItsLoadBeforeCalc) {
  const isa::Program program = isa::parse_kp("calc 5\nload 20\ncalc 3\n", "p.kp");
  EXPECT_EQ(simulate_core(program, 1, 4'000), 28'000);
}

// A load shorter than t_m still occupies the front end for t_m and completes at t + t_m.
TEST(CoreEngine, TransactionLastsAtLeastTm) {
  const isa::Program program = isa::parse_kp("load 1\ncalc 1\n", "p.kp");
  EXPECT_EQ(simulate_core(program, 1, 10'000), 11'000);  // load done at 10, calc to 11
}

// Stores never make a warp wait; T_c waits for the last transaction.
TEST(CoreEngine, StoresOverlapAndTcWaitsForThem) {
  const isa::Program program = isa::parse_kp("store 100\ncalc 1\n", "p.kp");
  // w0: store at 0 (done 100), calc to 3; w1: store at 3 (done 103), calc to 6.
  EXPECT_EQ(simulate_core(program, 2, 2'000), 103'000);
}

// Consecutive loads issue back to back, also across loop iterations.
TEST(CoreEngine, LoadRunsContinueAcrossLoopIterations) {
  const isa::Program looped = isa::parse_kp("repeat 3\n  load 50\nend\ncalc 1\n", "p.kp");
  // One warp: loads at 0, 1, 2 (done 50, 51, 52), then waits for all before calc: 52 + 1.
  EXPECT_EQ(simulate_core(looped, 1, 1'000), 53'000);
}

TEST(CoreEngine, DifferentProgramsPerWarp) {
  const isa::Program calc = isa::parse_kp("calc 10\n", "a.kp");
  const isa::Program load = isa::parse_kp("load 50\n", "b.kp");
  // w0 calc [0,10]; w1 load at 10 (done 60), front end to 12; T_c = 60.
  const std::vector<const isa::Program*> programs = {&calc, &load};
  EXPECT_EQ(simulate_core(programs, 2'000), 60'000);
}

TEST(CoreEngine, ZeroWarpsTakeNoTime) { EXPECT_EQ(simulate_core(listing1(OpKind::load), 0, 2'000), 0); }

TEST(CoreEngine, RefusesWorkAboveTheInstructionLimit) {
  const isa::Program program = isa::parse_kp("repeat 1000000\n  calc 1\nend\n", "p.kp");
  EXPECT_THROW(simulate_core(program, 8, 1'000, {.max_warp_instructions = 1'000'000}), InputError);
  EXPECT_NO_THROW(simulate_core(program, 1, 1'000, {.max_warp_instructions = 1'000'000}));
  EXPECT_THROW(simulate_core(program, -1, 1'000), InputError);
  EXPECT_THROW(simulate_core(program.bind({}), 1, -1), InputError);
}

TEST(CoreEngine, RefusesUnboundPrograms) {
  const isa::Program program = isa::parse_kp("repeat N\n  calc 1\nend\n", "p.kp");
  EXPECT_THROW(simulate_core(program, 1, 1'000), InputError);
}

// Loop segments must behave exactly like the copies they stand for: random programs with nested
// loops, run looped and expanded, with shared and with per-warp copies of the program.
isa::Program random_program(std::mt19937& rng, bool expand) {
  isa::Program program("random", "");
  std::uniform_int_distribution<int> kind(0, 2), duration(1, 200'000), count(0, 3), shape(0, 5);
  const auto add_random = [&] {
    program.add(static_cast<OpKind>(kind(rng)), (duration(rng) / 500) * 500 + 1);
  };
  const int blocks = 1 + shape(rng);
  for (int b = 0; b < blocks; ++b) {
    if (shape(rng) < 3) {
      add_random();
      continue;
    }
    const int iterations = count(rng);
    std::vector<std::pair<OpKind, isa::Millicycles>> body;
    for (int i = 0, n = 1 + shape(rng); i < n; ++i) {
      body.emplace_back(static_cast<OpKind>(kind(rng)), duration(rng) + 1);
    }
    const int inner = count(rng);
    if (expand) {
      for (int it = 0; it < iterations; ++it) {
        for (const auto& [k, d] : body) program.add(k, d);
        for (int j = 0; j < inner; ++j) program.add(OpKind::load, 7'777);
      }
    } else {
      program.begin_repeat(iterations);
      for (const auto& [k, d] : body) program.add(k, d);
      program.begin_repeat(inner);
      program.add(OpKind::load, 7'777);
      program.end_repeat();
      program.end_repeat();
    }
  }
  program.finish();
  return program;
}

TEST(CoreEngine, LoopSegmentsEqualTheirExpansion) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng_looped(seed), rng_expanded(seed), rng_params(seed + 1000);
    const isa::Program looped = random_program(rng_looped, false);
    const isa::Program expanded = random_program(rng_expanded, true);
    const auto warps = std::uniform_int_distribution<int>(1, 12)(rng_params);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(0, 40'000)(rng_params);
    const isa::Millicycles expected = simulate_core(expanded, warps, tm);
    EXPECT_EQ(simulate_core(looped, warps, tm), expected) << "seed " << seed << "\n" << isa::to_kp(looped);
    std::vector<isa::Program> copies(static_cast<std::size_t>(warps), looped);
    std::vector<const isa::Program*> per_warp;
    for (const auto& copy : copies) per_warp.push_back(&copy);
    EXPECT_EQ(simulate_core(per_warp, tm), expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace warpsim::sim::core

namespace warpsim::sim::core {
namespace {

// Steady-state fast-forward must equal the full simulation to the thousandth of a cycle, on
// random programs (kinds, durations, warp counts, t_m, nested loops with long trip counts).
isa::Program random_loop_program(std::mt19937& rng) {
  isa::Program program("random", "");
  std::uniform_int_distribution<int> kind(0, 2), duration(1, 300), coarse(0, 9), count(0, 400), small(0, 4);
  const auto add = [&] {
    // Mostly whole cycles, sometimes thousandths, so periods are found and fractions are kept.
    const isa::Millicycles d = duration(rng) * 1000 + (coarse(rng) == 0 ? duration(rng) : 0);
    program.add(static_cast<isa::OpKind>(kind(rng)), d);
  };
  for (int block = 0, blocks = 1 + small(rng); block < blocks; ++block) {
    if (small(rng) == 0) {
      add();
      continue;
    }
    program.begin_repeat(count(rng));
    for (int i = 0, n = 1 + small(rng); i < n; ++i) add();
    if (small(rng) == 0) {  // a nested loop
      program.begin_repeat(small(rng) * 3);
      for (int i = 0, n = 1 + small(rng); i < n; ++i) add();
      program.end_repeat();
    }
    for (int i = 0, n = small(rng) / 2; i < n; ++i) add();
    program.end_repeat();
  }
  program.finish();
  return program;
}

TEST(SteadyStateFastForward, EqualsFullSimulationOnRandomPrograms) {
  int skipped_somewhere = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    const isa::Program program = random_loop_program(rng);
    const auto warps = std::uniform_int_distribution<int>(1, 40)(rng);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(0, 60)(rng) * 500;
    std::int64_t periods = 0;
    const isa::Millicycles full = simulate_core(program, warps, tm, {.fast_forward = false});
    const isa::Millicycles fast =
        simulate_core(program, warps, tm, {.periods_skipped = &periods, .visit_engine = false});
    ASSERT_EQ(fast, full) << "seed " << seed << ", " << warps << " warps, t_m " << isa::format_cycles(tm) << "\n"
                          << isa::to_kp(program);
    skipped_somewhere += periods > 0;
  }
  EXPECT_GT(skipped_somewhere, 100);  // the comparison exercised the fast path, not only the slow one
}

// Different programs per warp (one warp leaves the loop early).
TEST(SteadyStateFastForward, EqualsFullSimulationWithPerWarpPrograms) {
  for (unsigned seed = 1; seed <= 100; ++seed) {
    std::mt19937 rng(seed);
    std::vector<isa::Program> programs;
    const auto warps = std::uniform_int_distribution<int>(2, 12)(rng);
    for (int w = 0; w < warps; ++w) {
      std::mt19937 program_rng(seed * 7 + static_cast<unsigned>(w % 3));  // three distinct programs
      programs.push_back(random_loop_program(program_rng));
    }
    std::vector<const isa::Program*> pointers;
    for (const auto& p : programs) pointers.push_back(&p);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(0, 40)(rng) * 1000;
    EXPECT_EQ(simulate_core(pointers, tm, {.visit_engine = false}), simulate_core(pointers, tm, {.fast_forward = false}))
        << "seed " << seed;
  }
}

// The paper's case study and far beyond: mtx_mul_vec (Listing 4), 32 warps, t_m = 31.
TEST(SteadyStateFastForward, MtxMulVecLongLoopsAreExactAndSkipped) {
  const isa::Program source =
      isa::parse_kp("calc 27\nrepeat N\n  load 60\n  load 60\n  calc 10\n  store 60\n  calc 14\nend\n", "m.kp");
  for (const std::int64_t n : {1, 7, 100, 1024}) {
    const isa::Program program = source.bind({{"N", n}});
    EXPECT_EQ(simulate_core(program, 32, 31'000, {.visit_engine = false}),
              simulate_core(program, 32, 31'000, {.fast_forward = false, .visit_engine = false}))
        << n;
  }
  // With 32 warps every round is bound by the front end: 32 * (10 + 31 + 31 + 31 + 14) = 3744
  // cycles per iteration after the first, so T_c grows by exactly 3744 per extra iteration.
  std::int64_t periods = 0;
  const isa::Millicycles big = simulate_core(source.bind({{"N", 1 << 24}}), 32, 31'000, {.periods_skipped = &periods});
  const isa::Millicycles less = simulate_core(source.bind({{"N", (1 << 24) - 1}}), 32, 31'000);
  EXPECT_EQ(big - less, 3'744'000);
  EXPECT_GT(periods, (1 << 24) - 100);
}

}  // namespace
}  // namespace warpsim::sim::core

namespace warpsim::sim::core {
namespace {

// The visit engine must equal the instruction-by-instruction engine exactly: every random program
// of the two generators above, on one program for all warps and on per-warp programs.
Millicycles stepwise(std::span<const isa::Program* const> programs, Millicycles tm) {
  return simulate_core(programs, tm, {.fast_forward = false, .visit_engine = false});
}

TEST(VisitEngine, Listing1GoldenCyclesOnBothEngines) {
  for (const bool visits : {true, false}) {
    EXPECT_EQ(simulate_core(listing1(OpKind::load), 3, 2'000, {.visit_engine = visits}), 112'000);
    EXPECT_EQ(simulate_core(listing1(OpKind::store), 3, 2'000, {.visit_engine = visits}), 111'000);
  }
}

TEST(VisitEngine, CompilesListing1ToItsThreeVisits) {
  // load | calc calc load | calc store: t_m = 2, so the visits last 2, 13 and 12 cycles.
  const VisitList visits = compile_visits(listing1(OpKind::load), 2'000);
  ASSERT_EQ(visits.size(), 3U);
  EXPECT_EQ(visits[0].length, 2'000);
  EXPECT_EQ(visits[0].loads_end, 15'000);
  EXPECT_EQ(visits[1].length, 13'000);
  EXPECT_EQ(visits[1].loads_end, 11'000 + 35'000);
  EXPECT_EQ(visits[2].length, 12'000);
  EXPECT_EQ(visits[2].loads_end, Visit::kNone);
  EXPECT_EQ(visits[2].transactions_end, 10'000 + 15'000);
}

TEST(VisitEngine, EqualsStepwiseOnRandomPrograms) {
  int on_visit_engine = 0;
  for (unsigned seed = 1; seed <= 600; ++seed) {
    std::mt19937 rng(seed);
    const isa::Program program = seed % 2 ? random_program(rng, false) : random_loop_program(rng);
    const auto warps = std::uniform_int_distribution<int>(0, 48)(rng);
    const isa::Millicycles tm = std::uniform_int_distribution<int>(0, 80'000)(rng);
    const std::vector<const isa::Program*> shared(static_cast<std::size_t>(warps), &program);
    std::int64_t periods = -1;
    ASSERT_EQ(simulate_core(program, warps, tm, {.periods_skipped = &periods}), stepwise(shared, tm))
        << "seed " << seed << ", " << warps << " warps, t_m " << isa::format_cycles(tm) << "\n" << isa::to_kp(program);
    on_visit_engine += suits_visit_engine(program, program.dynamic_counts());
  }
  EXPECT_GT(on_visit_engine, 300);  // most of them ran on the visit engine, not only the other one
}

TEST(VisitEngine, EqualsStepwiseWithPerWarpPrograms) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    std::vector<isa::Program> programs;
    const auto distinct = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int p = 0; p < distinct; ++p) programs.push_back(random_program(rng, false));
    std::vector<const isa::Program*> per_warp;
    for (int w = 0, warps = std::uniform_int_distribution<int>(1, 24)(rng); w < warps; ++w) {
      per_warp.push_back(&programs[std::uniform_int_distribution<std::size_t>(0, programs.size() - 1)(rng)]);
    }
    const isa::Millicycles tm = std::uniform_int_distribution<int>(0, 50'000)(rng);
    ASSERT_EQ(simulate_core(per_warp, tm), stepwise(per_warp, tm)) << "seed " << seed;
  }
}

// Random visit lists: few distinct lengths or many, loads and transactions present or not, up to
// 300 warps: the first and last warps' round by round (run_visits) against every warp's.
TEST(VisitEngine, FirstAndLastWarpsEqualWarpByWarp) {
  for (unsigned seed = 1; seed <= 2000; ++seed) {
    std::mt19937 rng(seed);
    const int lengths = std::uniform_int_distribution<int>(1, seed % 4 == 0 ? 40 : 4)(rng);
    std::vector<Millicycles> length_choices;
    for (int i = 0; i < lengths; ++i) length_choices.push_back(std::uniform_int_distribution<Millicycles>(0, 60'000)(rng));
    VisitList visits(static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 30)(rng)));
    for (Visit& visit : visits) {
      visit.length = length_choices[std::uniform_int_distribution<std::size_t>(0, length_choices.size() - 1)(rng)];
      if (rng() % 4 != 0) visit.loads_end = std::uniform_int_distribution<Millicycles>(0, 900'000)(rng);
      if (rng() % 3 != 0) visit.transactions_end = std::uniform_int_distribution<Millicycles>(0, 900'000)(rng);
    }
    const auto warps = std::uniform_int_distribution<std::size_t>(0, seed % 10 == 0 ? 300 : 40)(rng);
    ASSERT_EQ(run_visits(visits, warps), run_visits_warp_by_warp(visits, warps))
        << "seed " << seed << ", " << warps << " warps, " << visits.size() << " visits";
  }
}

// The DWT matrix program on up to 64 warps: run_visits gives the stepwise engine's cycles.
TEST(VisitEngine, RunVisitsGivesStepwiseCyclesForManyWarps) {
  const isa::Program matrix =
      isa::parse_kp("calc 33\nrepeat K\n  load 120\n  load 160\n  calc 17\nend\nstore 100\n", "m.kp").bind({{"K", 14}});
  for (const std::int64_t warps : {1, 2, 8, 31, 64}) {
    const std::vector<const isa::Program*> shared(static_cast<std::size_t>(warps), &matrix);
    EXPECT_EQ(run_visits(compile_visits(matrix, 31'000), static_cast<std::size_t>(warps)), stepwise(shared, 31'000)) << warps;
  }
}

TEST(VisitEngine, ServesShortProgramsAndLeavesLongLoopsToFastForward) {
  const isa::Program source = isa::parse_kp("calc 27\nrepeat N\n  load 60\n  calc 10\nend\n", "m.kp");
  const isa::Program short_loop = source.bind({{"N", 14}});
  const isa::Program long_loop = source.bind({{"N", 4096}});
  EXPECT_TRUE(suits_visit_engine(short_loop, short_loop.dynamic_counts()));
  EXPECT_FALSE(suits_visit_engine(long_loop, long_loop.dynamic_counts()));
  // Long but loop-free (or only short loops): nothing to fast-forward, so the visit engine.
  const isa::Program flat = source.bind({{"N", 7}});
  isa::Program many("many", "");
  for (int i = 0; i < 3000; ++i) many.add(i % 3 ? OpKind::calc : OpKind::load, 1'000 + i);
  many.finish();
  EXPECT_TRUE(suits_visit_engine(flat, flat.dynamic_counts()));
  EXPECT_TRUE(suits_visit_engine(many, many.dynamic_counts()));
  const isa::Program* warps[] = {&many, &many, &flat};
  EXPECT_EQ(simulate_core(warps, 9'000), stepwise(warps, 9'000));
}

}  // namespace
}  // namespace warpsim::sim::core

// Trace folding is exact: whatever the stream, the folded items expand to the stream with calc
// instructions merged into periods, and repetitive streams become loops.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "warpsim/ptx/trace_folder.hpp"

namespace warpsim::ptx {
namespace {

struct Flat {
  TraceItem::Kind kind;
  std::int64_t value;  // calc: instructions; load/store: transactions
  bool opens_period = false;
  StateSpace space = StateSpace::global;
  bool operator==(const Flat&) const = default;
  std::int64_t count_cycles() const { return value + (opens_period ? 9 : 0); }
};

void expand(const std::vector<TraceItem>& items, std::vector<Flat>& out) {
  for (const TraceItem& item : items) {
    if (item.kind == TraceItem::Kind::loop) {
      for (std::int64_t i = 0; i < item.count; ++i) expand(item.body, out);
    } else {
      out.push_back({item.kind, item.kind == TraceItem::Kind::calc ? item.count : item.transactions, item.opens_period, item.space});
    }
  }
}

// Feeds `events` (0 = calc instruction, 1..4 = global load with that many sectors, 5 = global
// store, 6 = shared load of 2 ways, 7 = block barrier) and returns the folded items and the
// expected flat stream: calc runs between accesses and barriers, and the +9 of each paper period
// (a run without global accesses) on its first item, a calc of 0 instructions where the period
// opens with a shared access or a barrier.
std::pair<std::vector<TraceItem>, std::vector<Flat>> fold(const std::vector<int>& events) {
  TraceFolder folder;
  const DecodedInstruction instruction;
  DecodedInstruction barrier;
  barrier.block_barrier = true;
  std::vector<Flat> expected;
  bool in_period = false, last_calc = false;
  for (const int e : events) {
    if (e == 0) {
      folder.instruction(instruction, nullptr, {});
      if (last_calc) {
        ++expected.back().value;
      } else {
        expected.push_back({TraceItem::Kind::calc, 1, !in_period});
        in_period = true;
      }
      last_calc = true;
      continue;
    }
    last_calc = false;
    if (e >= 6) {
      if (!in_period) expected.push_back({TraceItem::Kind::calc, 0, true});
      in_period = true;
    } else {
      in_period = false;
    }
    if (e == 7) {
      folder.instruction(barrier, nullptr, {});
      expected.push_back({TraceItem::Kind::barrier, 0});
      continue;
    }
    const StateSpace space = e == 6 ? StateSpace::shared : StateSpace::global;
    Access access;
    access.space = space;
    access.kind = e == 5 ? AccessKind::store : AccessKind::load;
    access.transactions = e == 5 ? 4 : e == 6 ? 2 : e;
    folder.instruction(instruction, &access, {});
    expected.push_back({e == 5 ? TraceItem::Kind::store : TraceItem::Kind::load, access.transactions, false, space});
  }
  return {folder.finish(), expected};
}

// The paper's timing of a flat stream: per period (a run without global accesses) of n
// instructions, n + 9 cycles; `paper` says how the stream of events does it, `items` how the
// folded items do (calc: count, +9 when it opens a period; shared access, barrier: 1).
std::vector<std::int64_t> paper_periods(const std::vector<int>& events) {
  std::vector<std::int64_t> periods;
  std::int64_t n = 0;
  for (const int e : events) {
    if (e >= 1 && e <= 5) {
      if (n > 0) periods.push_back(n + 9);
      n = 0;
    } else {
      ++n;
    }
  }
  if (n > 0) periods.push_back(n + 9);
  return periods;
}

std::vector<std::int64_t> item_periods(const std::vector<Flat>& flat) {
  std::vector<std::int64_t> periods;
  std::int64_t t = 0;
  for (const Flat& f : flat) {
    const bool global = (f.kind == TraceItem::Kind::load || f.kind == TraceItem::Kind::store) && f.space == StateSpace::global;
    if (global) {
      if (t > 0) periods.push_back(t);
      t = 0;
    } else {
      t += f.kind == TraceItem::Kind::calc ? f.count_cycles() : 1;
    }
  }
  if (t > 0) periods.push_back(t);
  return periods;
}

std::size_t item_count(const std::vector<TraceItem>& items) {
  std::size_t n = items.size();
  for (const TraceItem& item : items) n += item_count(item.body);
  return n;
}

TEST(PtxFolding, NestedLoopsFoldExactly) {
  std::vector<int> events{0, 0, 0};
  for (int outer = 0; outer < 50; ++outer) {
    events.insert(events.end(), {0, 0, 1});
    for (int inner = 0; inner < 1000; ++inner) events.insert(events.end(), {1, 2, 0, 5, 0, 0});
    events.push_back(5);
  }
  const auto [items, expected] = fold(events);
  std::vector<Flat> flat;
  expand(items, flat);
  EXPECT_EQ(flat, expected);
  EXPECT_LT(item_count(items), 40u);  // 300k events, a few dozen items
}

// A loop whose body has only shared accesses and barriers (a paper calc period of its own)
// still folds: its first iteration opens the period, the others repeat.
TEST(PtxFolding, LoopsWithoutGlobalAccessesFold) {
  std::vector<int> events{1, 6};
  for (int outer = 0; outer < 30; ++outer) {
    for (int inner = 0; inner < 1000; ++inner) events.insert(events.end(), {0, 0, 6, 0, 6, 7});
    events.insert(events.end(), {0, 5});
  }
  const auto [items, expected] = fold(events);
  std::vector<Flat> flat;
  expand(items, flat);
  EXPECT_EQ(flat, expected);
  EXPECT_EQ(item_periods(flat), paper_periods(events));
  EXPECT_LT(item_count(items), 40u);
}

TEST(PtxFolding, RandomStreamsExpandToThemselves) {
  std::mt19937 random(12345);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> events;
    // Random pieces, some repeated many times, some nested.
    const int pieces = 1 + static_cast<int>(random() % 6);
    for (int p = 0; p < pieces; ++p) {
      std::vector<int> body(1 + random() % 7);
      for (int& e : body) e = static_cast<int>(random() % 8);
      const int repeats = static_cast<int>(random() % 3 == 0 ? 1 : random() % 40);
      for (int r = 0; r < repeats; ++r) {
        events.insert(events.end(), body.begin(), body.end());
        if (random() % 4 == 0) events.push_back(static_cast<int>(random() % 8));  // a disturbance
      }
    }
    const auto [items, expected] = fold(events);
    std::vector<Flat> flat;
    expand(items, flat);
    ASSERT_EQ(flat, expected) << "trial " << trial;
    ASSERT_EQ(item_periods(flat), paper_periods(events)) << "trial " << trial;
  }
}

// A tiled product whose tile row is not a whole number of 128-byte lines touches 1..4 sectors in
// a pattern that repeats only every 8 iterations, of 40 items each: a body of 320 items, which
// must fold (at the old limit of 128 items such launches lowered to programs of 10^5 items).
TEST(PtxFolding, LongPeriodsFold) {
  std::vector<int> events;
  for (int k = 0; k < 800; ++k) {
    events.push_back(1 + (k % 8) / 2);  // the tile's sectors, period 8
    events.insert(events.end(), {0, 6, 7});
    for (int i = 0; i < 12; ++i) events.insert(events.end(), {6, 0, 6});
    events.push_back(7);
  }
  const auto [items, expected] = fold(events);
  std::vector<Flat> flat;
  expand(items, flat);
  EXPECT_EQ(flat, expected);
  EXPECT_LT(item_count(items), 400u);
}

// An outer loop whose body is thousands of items that do not repeat among themselves (the
// conjugate-gradient iteration of a -G build: every helper a call, every variable on the stack)
// must still fold. At a limit of 512 items each of its 10^4 iterations stayed in the trace:
// 18 million lines and 19 GB for one warp.
TEST(PtxFolding, BodiesOfThousandsOfItemsFold) {
  std::mt19937 random(2026);
  std::vector<int> body(1800);
  for (int& e : body) e = 1 + static_cast<int>(random() % 7);
  std::vector<int> events;
  for (int r = 0; r < 40; ++r) events.insert(events.end(), body.begin(), body.end());
  const auto [items, expected] = fold(events);
  std::vector<Flat> flat;
  expand(items, flat);
  EXPECT_EQ(flat, expected);
  EXPECT_LT(item_count(items), 3 * body.size());  // a body or two and the loop, not 40 copies
}

// Long bodies with near-misses (runs that end alike but differ earlier) fold exactly: the
// rolling hash only rejects, the items are still compared.
TEST(PtxFolding, LongRandomBodiesExpandToThemselves) {
  std::mt19937 random(777);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<int> body(100 + random() % 300);
    for (int& e : body) e = static_cast<int>(random() % 3 == 0 ? random() % 8 : 6);
    std::vector<int> events;
    for (int r = 0; r < 5 + static_cast<int>(random() % 5); ++r) {
      events.insert(events.end(), body.begin(), body.end());
      if (random() % 3 == 0) body[random() % body.size()] = static_cast<int>(random() % 8);  // a near-miss
    }
    const auto [items, expected] = fold(events);
    std::vector<Flat> flat;
    expand(items, flat);
    ASSERT_EQ(flat, expected) << "trial " << trial;
    ASSERT_EQ(item_periods(flat), paper_periods(events)) << "trial " << trial;
  }
}

// Arriving items are matched into the nested loops of the last loop's body (item by item of
// their expansion). Iterations whose inner loops run fewer or more times, or break off inside,
// end the match anywhere in the nesting: the items matched so far must come back in order.
TEST(PtxFolding, MismatchesInsideNestedLoopsExpandToThemselves) {
  std::mt19937 random(4242);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> head(1 + random() % 3), inner(1 + random() % 4), tail(1 + random() % 3);
    for (std::vector<int>* part : {&head, &inner, &tail}) {
      for (int& e : *part) e = static_cast<int>(random() % 8);
    }
    const int trips = 2 + static_cast<int>(random() % 4);
    std::vector<int> events;
    for (int outer = 0; outer < 3 + static_cast<int>(random() % 6); ++outer) {
      events.insert(events.end(), head.begin(), head.end());
      // Mostly the same trip count; sometimes one more or one less, or cut off mid-body.
      const int roll = static_cast<int>(random() % 6);
      const int n = roll == 0 ? trips - 1 : roll == 1 ? trips + 1 : trips;
      for (int i = 0; i < n; ++i) events.insert(events.end(), inner.begin(), inner.end());
      if (roll == 2) events.insert(events.end(), inner.begin(), inner.begin() + static_cast<std::ptrdiff_t>(random() % inner.size()));
      events.insert(events.end(), tail.begin(), tail.end());
    }
    events.resize(events.size() - random() % 3);  // ends anywhere
    const auto [items, expected] = fold(events);
    std::vector<Flat> flat;
    expand(items, flat);
    ASSERT_EQ(flat, expected) << "trial " << trial;
    ASSERT_EQ(item_periods(flat), paper_periods(events)) << "trial " << trial;
  }
}

// An outer loop whose body holds an inner loop stays one loop as its iterations arrive: 500
// iterations of (global load, 3 x (shared load, calc), store) fold to a handful of items.
TEST(PtxFolding, IterationsWithInnerLoopsFoldIntoTheOuterLoop) {
  std::vector<int> events;
  for (int outer = 0; outer < 500; ++outer) {
    events.insert(events.end(), {1, 0});
    for (int inner = 0; inner < 3; ++inner) events.insert(events.end(), {6, 0, 0});
    events.push_back(5);
  }
  const auto [items, expected] = fold(events);
  std::vector<Flat> flat;
  expand(items, flat);
  EXPECT_EQ(flat, expected);
  ASSERT_FALSE(items.empty());
  const TraceItem& outer = items.back();
  EXPECT_EQ(outer.kind, TraceItem::Kind::loop);
  EXPECT_GE(outer.count, 498);
  EXPECT_LT(item_count(items), 30u);
}

TEST(PtxFolding, ACalcRunCountsItsLinesInLineOrderWhereverTheyCome) {
  // Lines that go back (calls of functions written earlier) and forward, with divergence on some:
  // the run's lines are one entry a line, in line order, with every instruction and idle count,
  // and the latest branch line of each.
  std::mt19937 random(11);
  for (int trial = 0; trial < 50; ++trial) {
    TraceFolder folder;
    std::map<int, LineCount> expected;
    const int instructions = 1 + static_cast<int>(random() % 3000);
    for (int i = 0; i < instructions; ++i) {
      DecodedInstruction instruction;
      instruction.pos.line = 1 + static_cast<int>(random() % (trial % 2 == 0 ? 40 : 400));
      const Divergence idle = random() % 4 == 0 ? Divergence{static_cast<std::int32_t>(random() % 1000), 1 + static_cast<int>(random() % 9)} : Divergence{};
      folder.instruction(instruction, nullptr, idle);
      LineCount& line = expected[instruction.pos.line];
      line.line = instruction.pos.line;
      ++line.instructions;
      line.idle_milli += idle.idle_milli;
      if (idle.branch_line != 0) line.branch_line = idle.branch_line;
    }
    const std::vector<TraceItem> items = folder.finish();
    ASSERT_EQ(items.size(), 1u);
    std::vector<LineCount> lines;
    for (const auto& [number, line] : expected) lines.push_back(line);
    ASSERT_EQ(items[0].source, lines) << "trial " << trial;
  }
}

TEST(PtxFolding, FolderStartsEmptyForTheNextWarp) {
  TraceFolder folder;
  const DecodedInstruction instruction;
  folder.instruction(instruction, nullptr, {});
  EXPECT_EQ(folder.finish().size(), 1u);
  EXPECT_TRUE(folder.finish().empty());
}

}  // namespace
}  // namespace warpsim::ptx

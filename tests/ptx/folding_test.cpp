// Trace folding is exact: whatever the stream, the folded items expand to the stream with calc
// instructions merged into periods, and repetitive streams become loops.
#include <gtest/gtest.h>

#include <random>

#include "frontends/ptx/trace_folder.hpp"

namespace warpsim::ptx {
namespace {

struct Flat {
  TraceItem::Kind kind;
  std::int64_t value;  // calc: instructions; load/store: sectors
  bool operator==(const Flat&) const = default;
};

void expand(const std::vector<TraceItem>& items, std::vector<Flat>& out) {
  for (const TraceItem& item : items) {
    if (item.kind == TraceItem::Kind::loop) {
      for (std::int64_t i = 0; i < item.count; ++i) expand(item.body, out);
    } else {
      out.push_back({item.kind, item.kind == TraceItem::Kind::calc ? item.count : item.sectors});
    }
  }
}

// Feeds `events` (0 = calc instruction, 1..4 = global load with that many sectors, 5 = store)
// and returns the folded items and the expected flat stream.
std::pair<std::vector<TraceItem>, std::vector<Flat>> fold(const std::vector<int>& events) {
  TraceFolder folder;
  const DecodedInstruction instruction;
  std::vector<Flat> expected;
  for (const int e : events) {
    if (e == 0) {
      folder.instruction(instruction, nullptr);
      if (!expected.empty() && expected.back().kind == TraceItem::Kind::calc) {
        ++expected.back().value;
      } else {
        expected.push_back({TraceItem::Kind::calc, 1});
      }
      continue;
    }
    const Access access{StateSpace::global, e == 5 ? AccessKind::store : AccessKind::load, e == 5 ? 4 : e};
    folder.instruction(instruction, &access);
    expected.push_back({e == 5 ? TraceItem::Kind::store : TraceItem::Kind::load, access.sectors});
  }
  return {folder.finish(), expected};
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

TEST(PtxFolding, RandomStreamsExpandToThemselves) {
  std::mt19937 random(12345);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> events;
    // Random pieces, some repeated many times, some nested.
    const int pieces = 1 + static_cast<int>(random() % 6);
    for (int p = 0; p < pieces; ++p) {
      std::vector<int> body(1 + random() % 7);
      for (int& e : body) e = static_cast<int>(random() % 6);
      const int repeats = static_cast<int>(random() % 3 == 0 ? 1 : random() % 40);
      for (int r = 0; r < repeats; ++r) {
        events.insert(events.end(), body.begin(), body.end());
        if (random() % 4 == 0) events.push_back(static_cast<int>(random() % 6));  // a disturbance
      }
    }
    const auto [items, expected] = fold(events);
    std::vector<Flat> flat;
    expand(items, flat);
    ASSERT_EQ(flat, expected) << "trial " << trial;
  }
}

TEST(PtxFolding, FolderStartsEmptyForTheNextWarp) {
  TraceFolder folder;
  const DecodedInstruction instruction;
  folder.instruction(instruction, nullptr);
  EXPECT_EQ(folder.finish().size(), 1u);
  EXPECT_TRUE(folder.finish().empty());
}

}  // namespace
}  // namespace warpsim::ptx

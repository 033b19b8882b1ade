// The access counting rules against plain restatements of them (sets of words, sectors and
// lines), on random lanes: broadcasts, tile rows, strides, unaligned and wide lanes.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "warpsim/ptx/access_counting.hpp"

namespace warpsim::ptx {
namespace {

// A warp's addresses in one of the shapes kernels take.
std::vector<std::uint64_t> random_lanes(std::mt19937& random, std::uint64_t bytes) {
  const std::size_t lanes = 1 + random() % 32;
  const std::uint64_t base = 0x10000 + (random() % 4096) * (random() % 2 == 0 ? bytes : 1);
  const int shape = static_cast<int>(random() % 6);
  const std::uint64_t stride = bytes * (1 + random() % 40);
  std::vector<std::uint64_t> a(lanes);
  for (std::size_t i = 0; i < lanes; ++i) {
    switch (shape) {
      case 0: a[i] = base; break;                                                       // broadcast
      case 1: a[i] = base + bytes * i; break;                                           // a row
      case 2: a[i] = base + stride * i; break;                                          // strided
      case 3: a[i] = base + bytes * (i % 16) + stride * (i / 16); break;                // two rows of a tile
      case 4: a[i] = base + bytes * (random() % 64); break;                             // scattered nearby
      default: a[i] = base + random() % 100000; break;                                  // anywhere, unaligned
    }
  }
  return a;
}

TEST(AccessCounting, BankPassesAreTheMostDistinctWordsInOneBank) {
  std::mt19937 random(99);
  for (int trial = 0; trial < 5000; ++trial) {
    const std::uint64_t bytes = std::uint64_t{1} << (random() % 5);  // 1 .. 16
    const std::vector<std::uint64_t> a = random_lanes(random, bytes);
    std::set<std::uint64_t> words;
    for (const std::uint64_t x : a) {
      for (std::uint64_t w = x / 4; w <= (x + bytes - 1) / 4; ++w) words.insert(w);
    }
    std::map<std::uint64_t, std::int32_t> per_bank;
    std::int32_t ways = 0;
    for (const std::uint64_t w : words) ways = std::max(ways, ++per_bank[w % 32]);
    Access access;
    count_bank_passes(a, bytes, access);
    ASSERT_EQ(access.transactions, ways) << "trial " << trial;
    ASSERT_EQ(access.ideal, static_cast<std::int32_t>((words.size() + 31) / 32)) << "trial " << trial;
    ASSERT_EQ(access.broadcast, words.size() == 1 && a.size() > 1) << "trial " << trial;
  }
}

TEST(AccessCounting, SectorsAndLinesAreTheDistinctOnesTouched) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 5000; ++trial) {
    const std::uint64_t bytes = 1 + random() % 32;
    const std::vector<std::uint64_t> a = random_lanes(random, bytes);
    std::set<std::uint64_t> sectors, lines;
    for (const std::uint64_t x : a) {
      for (std::uint64_t b = x; b < x + bytes; ++b) {
        sectors.insert(b / 32);
        lines.insert(b / 128);
      }
    }
    SectorBuffer buffer;
    const std::size_t n = distinct_sectors(a, bytes, buffer);
    ASSERT_EQ(std::vector<std::uint64_t>(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n)),
              std::vector<std::uint64_t>(sectors.begin(), sectors.end()))
        << "trial " << trial;
    ASSERT_EQ(lines_of_sectors(std::span(buffer.data(), n)), static_cast<std::int32_t>(lines.size())) << "trial " << trial;
  }
}

TEST(AccessCounting, CoalescedSectorsKeepBackToBackLanes) {
  // 32 floats back to back from a misaligned start: 5 sectors, kept (the layout cannot do better).
  EXPECT_EQ(coalesced_sectors(5, 32, 4, 0x1004, 0x1004 + 31 * 4), 5);
  // The same lanes at a stride of 8 bytes: 8 sectors, 4 when packed.
  EXPECT_EQ(coalesced_sectors(8, 32, 4, 0x1000, 0x1000 + 31 * 8), 4);
  // Already fewer than packed (a broadcast): kept.
  EXPECT_EQ(coalesced_sectors(1, 32, 4, 0x1000, 0x1000), 1);
}

TEST(AccessCounting, ConstantWordsAndAtomicAddresses) {
  std::vector<std::uint64_t> a{0x100, 0x101, 0x104, 0x108, 0x100, 0x10b};
  EXPECT_EQ(distinct_words(a), 3);  // words 0x40, 0x41, 0x42
  std::vector<std::uint64_t> b{8, 16, 8, 24, 8, 16};
  EXPECT_EQ(most_lanes_on_one_address(b), 3);
  std::vector<std::uint64_t> none;
  EXPECT_EQ(most_lanes_on_one_address(none), 0);
}

}  // namespace
}  // namespace warpsim::ptx

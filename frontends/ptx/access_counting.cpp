#include "warpsim/ptx/access_counting.hpp"
#include "warpsim/ptx/vector_loops.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::ptx {

WARPSIM_VECTOR_LOOPS void count_bank_passes(std::span<const std::uint64_t> addresses, std::uint64_t bytes, Access& access) {
  // All the words the lanes touch within 32 consecutive ones: at most one per bank, so no
  // conflict (a broadcast, a row of a tile, two rows of a padded one, a vector access's quarter
  // warp). One pass for the lowest and highest word, with no branch on the addresses.
  if (!addresses.empty()) {
    std::uint64_t lowest = ~std::uint64_t{0}, highest = 0;
    for (const std::uint64_t a : addresses) {
      lowest = std::min(lowest, a >> 2);
      highest = std::max(highest, (a + bytes - 1) >> 2);
    }
    if (highest - lowest < 32) {
      access.transactions = 1;
      access.ideal = 1;
      access.broadcast = highest == lowest && addresses.size() > 1;
      return;
    }
  }
  // Most accesses hold at most one distinct word per bank (conflict-free, broadcasts included):
  // that takes one pass over the lanes, without branches on the addresses, and no sorting.
  // Shifting every address by a multiple of 4 bytes permutes the banks and keeps the count.
  constexpr std::uint64_t kNoWord = ~std::uint64_t{0};  // no address's word (addresses are below 2^64)
  std::array<std::uint64_t, 32> bank_word;
  bank_word.fill(kNoWord);
  std::uint32_t used = 0;
  bool conflict = false;
  const auto touch = [&](std::uint64_t w) {
    const auto bank = static_cast<unsigned>(w & 31);
    const std::uint64_t before = bank_word[bank];
    conflict |= (before != kNoWord) & (before != w);
    bank_word[bank] = w;
    used |= 1u << bank;
  };
  bool one_word_each = bytes <= 4;  // the commonest: each lane within one word
  for (const std::uint64_t a : addresses) one_word_each &= (a & 3) + bytes <= 4;
  if (one_word_each) {
    for (const std::uint64_t a : addresses) touch(a >> 2);
  } else {
    for (const std::uint64_t a : addresses) {
      for (std::uint64_t w = a >> 2; w <= (a + bytes - 1) >> 2; ++w) touch(w);
    }
  }
  if (!conflict) {
    const int distinct = std::popcount(used);
    access.transactions = distinct > 0 ? 1 : 0;
    access.ideal = distinct > 0 ? 1 : 0;
    access.broadcast = distinct == 1 && addresses.size() > 1;
    return;
  }
  std::array<std::uint64_t, 32 * 9> words;  // filled up to `count` (an unaligned 32-byte access spans 9)
  std::size_t count = 0;
  for (const std::uint64_t a : addresses) {
    for (std::uint64_t w = a >> 2; w <= (a + bytes - 1) >> 2 && count < words.size(); ++w) words[count++] = w;
  }
  std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count));
  count = static_cast<std::size_t>(std::unique(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count)) - words.begin());
  std::array<std::int32_t, 32> per_bank{};
  std::int32_t ways = 0;
  for (std::size_t i = 0; i < count; ++i) ways = std::max(ways, ++per_bank[words[i] & 31]);
  access.transactions = ways;
  access.ideal = static_cast<std::int32_t>((count + 31) / 32);
  access.broadcast = count == 1 && addresses.size() > 1;
}

std::size_t distinct_sectors(std::span<const std::uint64_t> addresses, std::uint64_t bytes, SectorBuffer& out) {
  std::size_t count = 0;
  bool sorted = true;
  for (const std::uint64_t a : addresses) {
    for (std::uint64_t s = a >> 5; s <= (a + bytes - 1) >> 5 && count < out.size(); ++s) {
      if (count > 0 && out[count - 1] == s) continue;  // coalesced lanes share sectors
      if (count > 0 && out[count - 1] > s) sorted = false;
      out[count++] = s;
    }
  }
  if (!sorted) std::sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count));
  return static_cast<std::size_t>(std::unique(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count)) - out.begin());
}

std::int32_t lines_of_sectors(std::span<const std::uint64_t> sectors) {
  std::int32_t lines = 0;
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    if (i == 0 || sectors[i] >> 2 != sectors[i - 1] >> 2) ++lines;  // sorted: a line's sectors are adjacent
  }
  return lines;
}

std::int32_t coalesced_sectors(std::int32_t sectors, std::size_t lanes, std::uint64_t bytes, std::uint64_t lowest, std::uint64_t highest) {
  if (highest + bytes - lowest == lanes * bytes) return sectors;
  return std::min(sectors, static_cast<std::int32_t>((lanes * bytes + 31) / 32));
}

std::int32_t distinct_words(std::span<std::uint64_t> addresses) {
  for (std::uint64_t& a : addresses) a >>= 2;
  std::sort(addresses.begin(), addresses.end());
  return static_cast<std::int32_t>(std::unique(addresses.begin(), addresses.end()) - addresses.begin());
}

std::int32_t most_lanes_on_one_address(std::span<std::uint64_t> addresses) {
  if (addresses.empty()) return 0;
  std::sort(addresses.begin(), addresses.end());
  std::int32_t most = 1, run = 1;
  for (std::size_t i = 1; i < addresses.size(); ++i) {
    run = addresses[i] == addresses[i - 1] ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

}  // namespace warpsim::ptx

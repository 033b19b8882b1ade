// What one warp-wide memory access costs, from its active lanes' addresses alone: shared memory's
// bank passes, the distinct 32-byte sectors and 128-byte lines of global and local memory, the
// fewest either could take, constant memory's serialised words, an atomic's busiest address.
// Free of emulator state, so that each rule is written and tested once (the warp emulator
// gathers the addresses; explain and the reuse sampler read what these count).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "warpsim/ptx/instruction_sink.hpp"

namespace warpsim::ptx {

// Shared memory has 32 banks of 4-byte words (word w in bank w mod 32). Lanes that touch the same
// word share it (a broadcast); distinct words in one bank take one pass each, so the access takes
// as many passes as the bank with the most distinct words holds. Sets `transactions` (the
// passes), `ideal` (every bank once a pass) and `broadcast`.
void count_bank_passes(std::span<const std::uint64_t> addresses, std::uint64_t bytes, Access& access);

// Room for the sectors of 32 lanes of up to 97 bytes each (4 sectors a lane).
using SectorBuffer = std::array<std::uint64_t, 32 * 4>;
// The distinct 32-byte sectors the lanes' `bytes`-byte ranges touch, sorted, into `out`: how many.
std::size_t distinct_sectors(std::span<const std::uint64_t> addresses, std::uint64_t bytes, SectorBuffer& out);

// The distinct 128-byte lines of distinct sectors given sorted.
std::int32_t lines_of_sectors(std::span<const std::uint64_t> sectors);

// The fewest sectors the lanes' bytes could take coalesced: back to back and aligned. Lanes already
// back to back (one run of lanes * bytes from `lowest` to `highest`) are as coalesced as they can
// be: a misaligned start (a stencil's neighbour) is not for the layout to fix, so they keep their
// own count.
std::int32_t coalesced_sectors(std::int32_t sectors, std::size_t lanes, std::uint64_t bytes, std::uint64_t lowest, std::uint64_t highest);

// Constant memory serves one 4-byte word per pass: the distinct words (sorts `addresses`).
std::int32_t distinct_words(std::span<std::uint64_t> addresses);

// The most lanes on one address (sorts `addresses`); 0 for none.
std::int32_t most_lanes_on_one_address(std::span<std::uint64_t> addresses);

}  // namespace warpsim::ptx

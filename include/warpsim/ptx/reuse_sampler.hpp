// How a kernel's global and local accesses re-read data, for the memory-aware model's cache hit
// estimate (docs/model.md, "Caches"). The first blocks of the launch, the ones the GPU starts
// together, run concretely, warp by warp, up to a budget of instructions; their accesses are
// merged in lockstep (every warp's n-th instruction before any warp's (n+1)-th, as a round-robin
// scheduler issues them) and each 32-byte sector touched again gets its LRU stack distance: the
// distinct sectors touched in between. Per memory instruction that gives the fraction of its
// sectors that were touched before and the median distance of those, per sampled block.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "warpsim/ptx/emulator.hpp"

namespace warpsim::ptx {

struct ReuseSampling {
  // The first blocks of the launch, in launch order: about as many as a GPU runs at once, so that
  // blocks sharing data (a row of tiles) share it in the sample too.
  std::int64_t blocks = 64;
  std::int64_t max_instructions = std::int64_t{1} << 18;  // warp instructions, over every sampled warp
  std::int64_t min_instructions_per_warp = 128;            // each sampled warp runs at least this far
  std::int64_t max_sectors = std::int64_t{1} << 19;       // sectors recorded, over every sampled warp
};

// Throws what the emulator throws (InputError for a warp that runs away, Interrupted).
ReuseTable sample_reuse(const DecodedModule& decoded, std::uint32_t entry, Dim3 grid, Dim3 block,
                        const std::vector<std::optional<std::uint64_t>>& values, const EmulatorOptions& options,
                        const ReuseSampling& sampling = {});

// The LRU stack distance of each access in `sectors` (in order): the distinct sectors touched
// since the same sector was last touched, or -1 for a first touch.
std::vector<std::int64_t> stack_distances(const std::vector<std::uint64_t>& sectors);

}  // namespace warpsim::ptx

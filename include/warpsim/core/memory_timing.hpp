// The memory-aware model's price of one annotated memory instruction (docs/model.md, "Memory-aware
// timing"): how long it holds the core package's front end, when its data arrives, and how much
// of the package's share of DRAM bandwidth it takes. Built per launch from a GPU profile
// (sim/grid/memory_defaults.hpp); the core package only reads it.
#pragma once

#include <cstdint>

#include "warpsim/isa/program.hpp"

namespace warpsim::sim::core {

using isa::Millicycles;

struct MemoryTiming {
  Millicycles issue_per_transaction = 1000;  // t_m: per 128-byte line, shared pass or constant address
  Millicycles global_latency = 0;            // global/local/texture load that misses the cache (DRAM)
  Millicycles cache_latency = 0;             // one that hits the L2 cache
  double cache_bytes_per_block = 0;          // L2 capacity over the blocks resident on the GPU
  Millicycles shared_latency = 0;            // shared load without conflict
  Millicycles constant_latency = 0;          // constant-cache hit, one address
  Millicycles constant_serialisation = 32'000;  // per further distinct constant address (seed 001, M1)
  Millicycles dram_per_sector = 0;           // package's DRAM share: time to move one 32-byte sector
  std::int32_t unknown_sectors = 4;          // sectors assumed where the frontend could not tell
  // Atomics: one update of one address at the L2 takes `atomic_interval` (assumed one cycle;
  // docs/model.md, "Atomics"); the package's share of the launch's busiest address, like its DRAM
  // share, is that times the packages that share it.
  Millicycles atomic_interval = 1'000;
  Millicycles atomic_per_update = 0;
  // The package's share of L2 bandwidth: time to pass one 32-byte sector (every global, local or
  // tex sector, hit or miss, load or store, goes through the L2); 0: no L2 limit (no figure).
  Millicycles l2_per_sector = 0;

  bool operator==(const MemoryTiming&) const = default;
};

struct AccessCost {
  Millicycles issue = 0;    // front end held (the clock advances by this)
  Millicycles latency = 0;  // from issue to data, without bandwidth queueing
  Millicycles dram = 0;     // time on the package's DRAM share
  Millicycles atomic = 0;   // time on the package's share of the launch's busiest atomic address
  Millicycles l2 = 0;       // time on the package's share of L2 bandwidth
};

// Requires op.space != unspecified.
AccessCost price_access(const isa::Op& op, const MemoryTiming& timing);

// The fraction of an access's sectors served by the cache: its reused fraction, in full while the
// reuse distance scaled to every resident block fits the cache, else by the random-access rate
// C/m of seed 004 (eq. 9) with m that scaled distance.
double cache_hit_rate(const isa::CacheReuse& reuse, double cache_bytes_per_block);

// Which warps of a core package form one block, for barriers: a run's warps, block by block, are
// dealt round-robin to the packages (docs/model.md), so package p's k-th warp is the run's warp
// k * packages + p, of block (k * packages + p) / warps_per_block. warps_per_block 0: all warps
// are one block.
struct BarrierLayout {
  std::int64_t packages = 1;
  std::int64_t warps_per_block = 0;
  std::int64_t package = 0;  // which of the SM's packages (they differ when warps_per_block is not a multiple of packages)
  std::int64_t block_of(std::int64_t warp) const {
    return warps_per_block == 0 ? 0 : (warp * packages + package) / warps_per_block;
  }
  bool operator==(const BarrierLayout&) const = default;
};

}  // namespace warpsim::sim::core

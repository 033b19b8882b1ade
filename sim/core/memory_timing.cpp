#include "warpsim/core/memory_timing.hpp"

#include <algorithm>
#include <cmath>

namespace warpsim::sim::core {

double cache_hit_rate(const isa::CacheReuse& reuse, double cache_bytes_per_block) {
  const double reused = reuse.permille / 1000.0;
  if (reuse.distance_bytes <= 0 || reused == 0) return reused;
  return reused * std::min(1.0, cache_bytes_per_block / static_cast<double>(reuse.distance_bytes));
}

AccessCost price_access(const isa::Op& op, const MemoryTiming& timing) {
  const Millicycles t = timing.issue_per_transaction;
  const std::int64_t given = op.transactions;
  // No lane active: the instruction issues (its cost is the issue slot, charged by the engine)
  // but moves no data, so it holds no front end, waits for nothing and takes no bandwidth.
  if (given == isa::kNoLanes) return {0, 0, 0};
  switch (op.space) {
    case isa::MemorySpace::shared: {  // n-way conflict: n passes; a broadcast is one
      const std::int64_t ways = std::max<std::int64_t>(1, given);
      return {ways * t, timing.shared_latency + (ways - 1) * t, 0};
    }
    case isa::MemorySpace::constant: {  // distinct addresses are served one after another
      const std::int64_t addresses = std::max<std::int64_t>(1, given);
      return {t, timing.constant_latency + (addresses - 1) * timing.constant_serialisation, 0};
    }
    default: {  // global, local, texture: one front-end pass per 128-byte line touched
      const std::int64_t sectors = given > 0 ? given : timing.unknown_sectors;
      const std::int64_t lines = op.lines > 0 ? op.lines : isa::fewest_lines(static_cast<std::int32_t>(sectors));
      const double hits = cache_hit_rate(op.reuse, timing.cache_bytes_per_block);
      // A hit saves a load its DRAM read; a store's sectors reach DRAM all the same, since the L2
      // writes back: a sector written over a cached line is written back when the line leaves.
      // (A rewrite of a line still dirty would share that write-back, but the sampled reuse does
      // not tell a dirty line from a clean one, such as y's in y = a*x + y, loaded just before.)
      const double from_dram = op.kind == isa::OpKind::store ? 1.0 : 1 - hits;
      const auto dram = static_cast<Millicycles>(
          std::ceil(static_cast<double>(sectors) * static_cast<double>(timing.dram_per_sector) * from_dram));
      const auto latency = static_cast<Millicycles>(std::llround(
          hits * static_cast<double>(timing.cache_latency) + (1 - hits) * static_cast<double>(timing.global_latency)));
      // An atomic's lanes on one address update it one after another; its updates to the launch's
      // busiest address queue there behind every other warp's (the package's share of it).
      const Millicycles serial = std::max(0, op.same_address - 1) * timing.atomic_interval;
      const auto atomic = static_cast<Millicycles>(
          std::ceil(static_cast<double>(op.hot_updates_milli) / 1000.0 * static_cast<double>(timing.atomic_per_update)));
      return {lines * t, latency + (lines - 1) * t + serial, dram, atomic, sectors * timing.l2_per_sector};
    }
  }
}

}  // namespace warpsim::sim::core

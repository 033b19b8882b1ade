#include "sim/core/memory_timing.hpp"

#include <cmath>

namespace warpsim::sim::core {

AccessCost price_access(const isa::Op& op, const MemoryTiming& timing) {
  const Millicycles t = timing.issue_per_transaction;
  const std::int64_t given = op.transactions;
  switch (op.space) {
    case isa::MemorySpace::shared: {  // n-way conflict: n passes; a broadcast is one
      const std::int64_t ways = std::max<std::int64_t>(1, given);
      return {ways * t, timing.shared_latency + (ways - 1) * t, 0};
    }
    case isa::MemorySpace::constant: {  // distinct addresses are served one after another
      const std::int64_t addresses = std::max<std::int64_t>(1, given);
      return {t, timing.constant_latency + (addresses - 1) * timing.constant_serialisation, 0};
    }
    default: {  // global, local, texture: one front-end pass per 128-byte line (4 sectors)
      const std::int64_t sectors = given > 0 ? given : timing.unknown_sectors;
      const std::int64_t lines = (sectors + 3) / 4;
      const auto dram = static_cast<Millicycles>(
          std::ceil(static_cast<double>(sectors) * static_cast<double>(timing.dram_per_sector) * timing.dram_fraction));
      return {lines * t, timing.global_latency + (lines - 1) * t, dram};
    }
  }
}

}  // namespace warpsim::sim::core

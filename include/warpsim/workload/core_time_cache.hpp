// T_c memoised across the points of a sweep or the trials of a calibration: the same program,
// warp count and t_m recur constantly (a sweep over N asks for a handful of warp counts). The
// cache holds one entry per program (what determines it, its durations and t_m), each with its
// T_c by warp count, so a caller finds its program's entry once and then asks by warp count
// alone. Safe to share between threads; two threads may both compute a missing T_c, which is
// harmless (the result is the same).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "warpsim/isa/time.hpp"

namespace warpsim::sim::workload {

// What identifies a program's core-package simulations: its isa::Program::timing_identity()
// followed by the ModelSpec's fingerprint() (ProgramCoreTimes); contents, never addresses.
using CoreTimeKey = std::vector<std::int64_t>;

class CoreTimeCache {
 public:
  // One program's T_c by warp count. Lives as long as the cache. Warp counts up to kDirectWarps
  // (a GPU's core package holds a few dozen warps) are read and written without a lock.
  class ProgramTimes {
   public:
    static constexpr std::size_t kDirectWarps = 64;

    explicit ProgramTimes(CoreTimeCache& cache);
    std::optional<isa::Millicycles> find(std::int64_t warps) const {
      if (warps < 0 || static_cast<std::size_t>(warps) > kDirectWarps) return find_beyond(warps);
      const isa::Millicycles cycles = direct_[static_cast<std::size_t>(warps)].load(std::memory_order_relaxed);
      return cycles == kUnknown ? std::nullopt : std::optional(cycles);
    }
    void insert(std::int64_t warps, isa::Millicycles cycles);  // counts a miss

   private:
    static constexpr isa::Millicycles kUnknown = -1;
    std::optional<isa::Millicycles> find_beyond(std::int64_t warps) const;

    CoreTimeCache& cache_;
    std::array<std::atomic<isa::Millicycles>, kDirectWarps + 1> direct_;  // kUnknown where not known yet
    mutable std::mutex mutex_;
    std::vector<std::pair<std::int64_t, isa::Millicycles>> beyond_;  // larger warp counts, sorted
  };

  CoreTimeCache();
  ~CoreTimeCache();
  CoreTimeCache(const CoreTimeCache&) = delete;
  CoreTimeCache& operator=(const CoreTimeCache&) = delete;

  // The entry for `key`, made empty on first use.
  ProgramTimes& program(CoreTimeKey key);

  // Lookups the cache answered: callers count their own and report them (ProgramCoreTimes, as it
  // goes), so a lookup costs no shared counter.
  void count_hits(std::int64_t n);
  std::int64_t hits() const;
  std::int64_t misses() const;  // simulations stored

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::sim::workload

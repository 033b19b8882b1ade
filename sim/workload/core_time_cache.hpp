// T_c memoised across the points of a sweep or the trials of a calibration: the same program,
// warp count and t_m recur constantly (a sweep over N asks for a handful of warp counts). The
// cache holds one entry per program (what determines it, its durations and t_m), each with its
// T_c by warp count, so a caller finds its program's entry once and then asks by warp count
// alone. Safe to share between threads; two threads may both compute a missing T_c, which is
// harmless (the result is the same).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "isa/time.hpp"

namespace warpsim::sim::workload {

// What identifies a program's core-package simulations: the caller packs whatever determines its
// program (workload id, program parameters, durations) followed by t_m.
using CoreTimeKey = std::vector<std::int64_t>;

class CoreTimeCache {
 public:
  // One program's T_c by warp count. Lives as long as the cache.
  class ProgramTimes {
   public:
    explicit ProgramTimes(CoreTimeCache& cache) : cache_(cache) { times_.reserve(16); }
    std::optional<isa::Millicycles> find(std::int64_t warps) const;
    void insert(std::int64_t warps, isa::Millicycles cycles);  // counts a miss

   private:
    CoreTimeCache& cache_;
    mutable std::mutex mutex_;
    std::vector<std::pair<std::int64_t, isa::Millicycles>> times_;  // sorted by warp count
  };

  CoreTimeCache();
  ~CoreTimeCache();
  CoreTimeCache(const CoreTimeCache&) = delete;
  CoreTimeCache& operator=(const CoreTimeCache&) = delete;

  // The entry for `key`, made empty on first use.
  ProgramTimes& program(CoreTimeKey key);

  // Lookups answered by the cache or a caller's own memo in front of it (ProgramCoreTimes).
  void count_hits(std::int64_t n);
  std::int64_t hits() const;
  std::int64_t misses() const;  // simulations stored

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::sim::workload

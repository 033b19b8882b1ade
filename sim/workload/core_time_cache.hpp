// T_c memoised across the points of a sweep or the trials of a calibration: the same program,
// warp count and t_m recur constantly (a sweep over N asks for a handful of warp counts). Safe to
// share between threads: a oneTBB concurrent unordered map; two threads may both compute a missing
// entry, which is harmless (the result is the same).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "isa/time.hpp"

namespace warpsim::sim::workload {

// What identifies a core-package simulation: the caller packs whatever determines its program
// (workload id, program parameters, durations) followed by the warp count and t_m.
using CoreTimeKey = std::vector<std::int64_t>;

class CoreTimeCache {
 public:
  CoreTimeCache();
  ~CoreTimeCache();
  CoreTimeCache(const CoreTimeCache&) = delete;
  CoreTimeCache& operator=(const CoreTimeCache&) = delete;

  // The cached T_c for `key`, or compute() stored under it. Computed outside any lock: a long
  // simulation does not block other threads' lookups.
  template <typename Compute>
  isa::Millicycles get(const CoreTimeKey& key, Compute&& compute) {
    if (const std::optional<isa::Millicycles> found = find(key)) return *found;
    const isa::Millicycles value = compute();
    insert(key, value);
    return value;
  }
  std::optional<isa::Millicycles> find(const CoreTimeKey& key);
  void insert(const CoreTimeKey& key, isa::Millicycles value);
  // Lookups answered by a caller's own memo in front of the cache (ProgramCoreTimes).
  void count_hits(std::int64_t n);
  std::int64_t hits() const;
  std::int64_t misses() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::sim::workload

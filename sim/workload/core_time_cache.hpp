// T_c memoised across the points of a sweep or the trials of a calibration: the same program,
// warp count and t_m recur constantly (a sweep over N asks for a handful of warp counts). Safe to
// share between threads: a TBB concurrent hash map; two threads may both compute a missing
// entry, which is harmless (the result is the same).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

  isa::Millicycles get(const CoreTimeKey& key, const std::function<isa::Millicycles()>& compute);
  std::int64_t hits() const;
  std::int64_t misses() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::sim::workload

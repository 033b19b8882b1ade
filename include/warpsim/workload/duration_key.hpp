// Pieces shared by the workload models: naming d1, d2, ..., applying a calibration's durations,
// and timing a launch with T_c memoised under a CoreTimeKey.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/program.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/core_time_cache.hpp"
#include "warpsim/workload/model_overrides.hpp"

namespace warpsim::sim::workload {

// "d1 (load, line 4)", ... for each memory instruction of the program.
std::vector<std::string> memory_duration_names(const isa::Program& program);
// The durations of those memory instructions, in the same order.
std::vector<isa::Millicycles> memory_durations(const isa::Program& program);

// Appends the calibration's durations (0 for "the program's own") to a cache key.
void append_durations(CoreTimeKey& key, const gpus::Calibration& calibration);

// The program with the calibration's durations, or the program itself when they change nothing.
isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration);

// T_c of one program at any warp count, for one calibration: the cache's entry for `identity`
// (what identifies the program) + the durations and t_m, else the simulation (visits compiled
// once). Not thread-safe: one per thread; `program` and `cache` must outlive it.
class ProgramCoreTimes {
 public:
  ProgramCoreTimes(const isa::Program& program, std::span<const std::int64_t> identity,
                   const gpus::Calibration& calibration, CoreTimeCache& cache);
  ProgramCoreTimes(const ProgramCoreTimes&) = delete;
  ProgramCoreTimes& operator=(const ProgramCoreTimes&) = delete;
  ~ProgramCoreTimes();
  isa::Millicycles operator()(std::int64_t warps) {
    if (const std::optional<isa::Millicycles> known = shared_.find(warps)) {
      ++hits_;
      return *known;
    }
    return simulate(warps);
  }

 private:
  isa::Millicycles simulate(std::int64_t warps);  // and stores the result in the cache

  CoreTimeCache& cache_;
  CoreTimeCache::ProgramTimes& shared_;
  const isa::Program& program_;
  isa::Millicycles tm_;
  std::optional<core::CoreSimulator> simulator_;  // made on the first lookup the cache misses
  std::int64_t hits_ = 0;
};

// T_k of one launch where every warp runs `program` (Algorithm 1), each T_c looked up in `cache`
// under `identity` (what identifies the program) + the durations, the warp count and t_m.
grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, const gpus::Calibration& calibration,
                             const isa::Program& program, std::span<const std::int64_t> identity, CoreTimeCache& cache);

}  // namespace warpsim::sim::workload

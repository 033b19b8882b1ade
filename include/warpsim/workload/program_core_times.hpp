// Pieces shared by the workload models: naming d1, d2, ..., applying a calibration's durations,
// and timing a launch with T_c memoised under the program's timing identity plus the ModelSpec's
// fingerprint (ProgramCoreTimes, time_launch).
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
#include "warpsim/workload/model_spec.hpp"

namespace warpsim::sim::workload {

// "d1 (load, line 4)", ... for each memory instruction of the program.
std::vector<std::string> memory_duration_names(const isa::Program& program);
// The durations of those memory instructions, in the same order.
std::vector<isa::Millicycles> memory_durations(const isa::Program& program);

// The program with the calibration's durations, or the program itself when they change nothing.
isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration);

// T_c of one bound program at any warp count under one ModelSpec: the cache's entry for the
// program's timing_identity() + the spec's fingerprint(), else the simulation (visits compiled
// once). Not thread-safe: one per thread; `program` and `cache` must outlive it.
class ProgramCoreTimes {
 public:
  ProgramCoreTimes(const isa::Program& program, const ModelSpec& spec, CoreTimeCache& cache);
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
  const ModelSpec spec_;  // its own copy: the simulator's options point into it
  std::optional<core::CoreSimulator> simulator_;  // made on the first lookup the cache misses
  std::int64_t hits_ = 0;
};

// T_k of one launch where every warp runs `program` (Algorithm 1, with the spec's N_cp), each T_c
// looked up in `cache` as ProgramCoreTimes does.
grid::GridTiming time_launch(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us, const isa::Program& program,
                             const ModelSpec& spec, CoreTimeCache& cache);

}  // namespace warpsim::sim::workload

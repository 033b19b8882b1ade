// Lowered PTX kernels shared by every point, trial and thread of a run, so that a calibration
// lowers each measured point once for all its trials and a sweep lowers each distinct launch
// once whatever the GPUs. The key is everything lower_kernel reads: the file's text (PtxSource),
// the kernel, grid, block, parameter values, emulator options and emulate_all. Not the load and
// store cycles: entries are lowered with ptx::kDefaultMemoryCycles and callers re-time their
// programs (with_load_store_durations), as they do for a calibration's trials anyway.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/ptx_source.hpp"

namespace warpsim::sim::workload {

// Grid timings already computed from one lowered kernel, by a key of everything else the timing
// reads (PtxWorkloadModel::predict): points that differ only in what does not change the timing,
// such as register counts that give the same occupancy, time once. Thread-safe; at most kMax kept.
class LoweredTimings {
 public:
  static constexpr std::size_t kMax = 4096;
  std::optional<grid::GridTiming> find(const std::string& key) const;
  void insert(std::string key, const grid::GridTiming& timing);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, grid::GridTiming> timings_;
};

class LoweringCache {
 public:
  struct Lowered {
    ptx::LoweredKernel kernel;
    std::vector<std::string> warnings;  // ptx::warning_lines
    std::shared_ptr<LoweredTimings> timings = std::make_shared<LoweredTimings>();
  };
  struct Stats {
    std::int64_t lowerings = 0;  // lower_kernel calls that finished
    std::int64_t hits = 0;       // requests answered from the cache
    std::int64_t kept = 0;       // entries held
    std::int64_t bytes = 0;      // their estimated size (lowered_bytes)
  };

  static constexpr std::int64_t kDefaultBudgetBytes = std::int64_t{256} << 20;

  explicit LoweringCache(std::int64_t budget_bytes = kDefaultBudgetBytes) : budget_bytes_(budget_bytes) {}

  // The cache of the process, for models not given one of their own.
  static const std::shared_ptr<LoweringCache>& process_wide();

  // The kernel lowered for `options`, from the cache or lowered now (outside the lock: two threads
  // may lower the same launch at once; both get the entry kept first). options.progress and
  // options.cancel are passed on; lower_kernel's exceptions pass through and keep nothing.
  std::shared_ptr<const Lowered> lower(const PtxSource& source, const ptx::LoweringOptions& options);

  Stats stats() const;
  // Drops every entry and its timings (a benchmark's iterations each start cold).
  void clear();

 private:
  std::int64_t budget_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const Lowered>> entries_;
  Stats stats_;
};

// What the lowering cache is keyed on (a byte string; equal keys lower to the same kernel).
std::string lowering_key(const PtxSource& source, const ptx::LoweringOptions& options);

// The estimated memory a lowered kernel holds: its programs with their notes, and the map from
// warps to programs, sized by emulated_classes.
std::int64_t lowered_bytes(const ptx::LoweredKernel& kernel);

}  // namespace warpsim::sim::workload

// Running a suite: every point of every GPU x workload, evaluated in parallel (oneTBB) and
// delivered in suite order, whatever the number of threads (docs/cli.md, `sweep`).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "sim/driver/suite.hpp"
#include "sim/workload/prediction.hpp"

namespace warpsim::sim::driver {

struct SweepRow {
  const gpus::Profile* gpu = nullptr;
  const workload::WorkloadModel* workload = nullptr;
  workload::Point point;
  workload::Prediction prediction;
};

struct SweepOptions {
  int jobs = 0;                                  // worker threads; 0: every core
  std::int64_t chunk = 32;                       // at most this many points per task
  const std::atomic<bool>* stop = nullptr;       // set (e.g. by SIGINT) to stop early
  // Called from the delivering thread after each chunk, with points delivered and the total.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
};

struct SweepStats {
  std::int64_t points = 0;  // delivered
  bool stopped = false;     // `stop` was set before every point was delivered
  std::int64_t cache_hits = 0;
  std::int64_t cache_misses = 0;
  // Per workload with any, the first point (in suite order) whose prediction warned, and its
  // warnings: the same whatever the thread count.
  struct Warnings {
    const workload::WorkloadModel* workload = nullptr;
    workload::Point point;
    std::vector<std::string> lines;
  };
  std::vector<Warnings> warnings;
};

// Evaluates the points in parallel and calls `emit` for each, in order: GPU, then workload,
// then the workload's axes (last fastest), from one thread at a time. Core-package times are
// shared between points and threads. A point that cannot be predicted throws InputError naming
// it, after the points before it were delivered.
SweepStats run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit, const SweepOptions& options = {});

}  // namespace warpsim::sim::driver

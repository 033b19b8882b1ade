// Running a sweep: every point of a suite (every GPU x workload x axes) or of a point list,
// evaluated in parallel (oneTBB) and delivered in order, whatever the number of threads
// (docs/cli.md, `sweep`).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/suite.hpp"
#include "warpsim/workload/prediction.hpp"

namespace warpsim::sim::driver {

struct SweepRow {
  const gpus::Profile* gpu = nullptr;
  const workload::WorkloadModel* workload = nullptr;
  workload::Point point;
  workload::Prediction prediction;
  const std::vector<std::string>* cells = nullptr;  // a point list's input row, copied to the output
};

// The points a sweep predicts, in output order.
class SweepPoints {
 public:
  virtual ~SweepPoints() = default;
  virtual std::int64_t total() const = 0;
  // Fills the point's GPU, model, axis values and cells into `row` (reusing its storage) and
  // returns the workload (model and overrides) it belongs to.
  virtual const SuiteWorkload& fill(std::int64_t index, SweepRow& row) const = 0;
  // Where a point that cannot be predicted is reported: the suite, or a point list's row.
  virtual SourceLocation location(std::int64_t index) const = 0;
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

// The stats' warnings as lines "WORKLOAD POINT: MESSAGE", once per workload.
std::vector<std::string> warning_lines(const SweepStats& stats);

// Evaluates the points in parallel and calls `emit` for each, in order, from one thread at a
// time. Core-package times are shared between points and threads. A point that cannot be
// predicted throws InputError naming it, after the points before it were delivered.
SweepStats run_sweep(const SweepPoints& points, const std::function<void(const SweepRow&)>& emit,
                     const SweepOptions& options = {});
// A suite's points in order: GPU, then workload, then the workload's axes (last fastest).
std::unique_ptr<SweepPoints> suite_points(const Suite& suite);
SweepStats run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit, const SweepOptions& options = {});

}  // namespace warpsim::sim::driver

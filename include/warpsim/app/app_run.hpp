// Predicting an app (docs/apps.md): every step of every row, with seed 003's no-overlap sum.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/app/app.hpp"
#include "warpsim/driver/sweep.hpp"

namespace warpsim::sim::app {

struct StepTime {
  double time_us = 0;                  // the step's cost, times its repeat count
  std::optional<std::int64_t> bytes;   // copies and collectives: the bytes of one run of the step
  std::int64_t repeat = 1;
};

struct AppRow {
  const gpus::Profile* gpu = nullptr;  // one of the App's: the App must outlive the rows
  std::int64_t gpu_count = 1;          // M
  workload::Point axes;                // the app's axes, in order
  std::vector<StepTime> steps;         // one per app step
  double total_us = 0;                 // the sum of the steps; steps with `overlap` count their group's longest
  double speedup = 0;                  // total_us at M = 1 (same GPU and axes) over total_us
};

struct AppRun {
  std::vector<AppRow> rows;            // GPU, then M, then the axes (last fastest)
  std::vector<std::string> warnings;   // per kernel step with any, its first point's
};

// Throws InputError located at the step (or its expression) that cannot be priced at a row.
AppRun run_app(const App& app, const driver::SweepOptions& options = {});

// Seed 003's transfer costs in microseconds, for `bytes` in all, split evenly over M GPUs.
// Copy: latency + (bytes / M) / (bw * 1e3), bw = host_link_gbs / M on a shared link.
double copy_time_us(double bytes, std::int64_t gpu_count, const gpus::SystemFigures& figures);
// Collectives over the network (broadcast, scatter, gather, allreduce, alltoall; docs/apps.md).
double collective_time_us(StepKind kind, double bytes, std::int64_t gpu_count, const gpus::SystemFigures& figures);
// ceil(log2 M): the rounds of a binomial-tree broadcast (MPI's, seed 003).
std::int64_t tree_rounds(std::int64_t gpu_count);

}  // namespace warpsim::sim::app

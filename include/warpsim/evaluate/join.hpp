// Joining predicted times (a `warpsim sweep` CSV) with measured ones (docs/formats.md,
// "Measurements") on their key columns, and grouping the joined points into experiments.
#pragma once

#include <string>
#include <vector>

#include "warpsim/evaluate/metrics.hpp"
#include "warpsim/report/csv_table.hpp"

namespace warpsim::sim::evaluate {

struct JoinOptions {
  // Key columns; empty: gpu, workload and every other column both files have that is not a known
  // result column (time_us, blocks, samples, launch_us, ...; see is_result_column).
  std::vector<std::string> keys;
  std::string x = "N";         // the key column on the x axis of an experiment
  bool allow_missing = false;  // skip measured rows without a prediction instead of failing
};

struct JoinedData {
  std::vector<std::string> keys;         // the key columns used, gpu and workload first
  std::vector<Experiment> experiments;   // in order of first appearance in the measured file
  std::vector<int> skipped_lines;        // measured rows without a prediction (allow_missing)
  std::size_t points = 0;
};

// True for the columns that hold results rather than parameters: the sweep's output columns
// after its parameters, and the measurement columns (time_us_min, time_us_sd, samples,
// launch_us, kernel_us, ...).
bool is_result_column(const std::string& name);

// Throws InputError (file and line) for: a missing gpu, workload, time_us or key column; a time
// that is not a positive finite number, or an x value that is not a number; two rows of one file
// with the same keys; a measured row without a prediction (unless allow_missing); no rows in
// common. Key values that are numbers match by value ("8" and "8.0").
JoinedData join(const report::CsvTable& predicted, const report::CsvTable& measured, const JoinOptions& options);

}  // namespace warpsim::sim::evaluate

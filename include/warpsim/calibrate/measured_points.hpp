// The measurements a calibration fits: the rows of a measurements CSV (docs/formats.md,
// "Measurements") for one GPU and one workload, as points of the workload's axes with their
// measured time and, when the file has a launch_us column, the measured launch overhead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "warpsim/point_list/point_list.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::calibrate {

struct MeasuredPoint {
  workload::Point point;  // the workload's axes, in its order
  double time_us = 0;     // measured time of the whole workload at the point (all launches)
  std::optional<double> launch_us;  // measured launch overhead; empty cell or no column: none
  int line = 0;           // line of the row in the file
  const workload::WorkloadModel* model = nullptr;  // a point list row's own launch; null: the calibration's model
};

struct MeasuredData {
  std::string source;
  bool has_launch_column = false;
  std::vector<MeasuredPoint> points;  // in file order

  // The median launch_us over the points that have one (the mean of the middle two for an even
  // count); nullopt when none has.
  std::optional<double> median_launch_us() const;
  double min_time_us() const;
};

// The rows whose `gpu` is `gpu_id` and whose `workload` is `label`. Throws InputError with the
// file and line for: a missing gpu, workload or time_us column, or a missing column for one of
// `axes` (line 1); an axis value that is not a whole number; a time_us that is not a positive
// finite number; a launch_us that is not a non-negative finite number (an empty cell is
// allowed); no matching row (naming the gpus and workloads the file has).
MeasuredData select_measured_points(const report::CsvTable& table, const std::string& gpu_id, const std::string& label,
                                    const std::vector<std::string>& axes);

// The rows of a point list (`calibrate --points`) on the GPU `gpu_id` whose kernel is named
// `label` (every row's, when empty), each predicted from its own launch (MeasuredPoint::model,
// owned by the list); the measured time is the list's time_us column. Throws InputError with the
// file and line for: no time_us column; a bad time_us or launch_us (as above); a tp_us or tm cell
// (the calibration sets them); rows of different kernels; no matching row.
MeasuredData select_point_list_rows(const driver::PointList& list, const std::string& gpu_id, const std::string& label);

}  // namespace warpsim::sim::calibrate

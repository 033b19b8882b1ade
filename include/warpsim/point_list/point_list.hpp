// Point lists (docs/formats.md, "Point lists"): a CSV whose rows each name one launch to predict
// (gpu, kernel, entry, grid, block, param:NAME, tp_us, tm). Every column is copied to the
// output, so a measurements file is its own point list.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/driver/sweep.hpp"

namespace warpsim::sim::driver {

struct PointRow {
  int line = 0;  // in the CSV
  const gpus::Profile* gpu = nullptr;
  const SuiteWorkload* workload = nullptr;
  workload::Point point;           // the param: cells given, by parameter
  std::vector<std::string> cells;  // the row as read
};

class PointList final : public SweepPoints {
 public:
  PointList() = default;
  PointList(PointList&&) = default;  // rows point into the maps, whose nodes a move keeps
  PointList(const PointList&) = delete;

  std::string source;
  std::vector<std::string> columns;  // the input's columns as output: time_us becomes measured_time_us
  std::vector<PointRow> rows;

  std::int64_t total() const override { return static_cast<std::int64_t>(rows.size()); }
  const SuiteWorkload& fill(std::int64_t index, SweepRow& row) const override;
  // Every row timed under `model` (--model, over the list's `model` column).
  void use_model(Model model) {
    for (auto& [key, workload] : workloads_) workload.overrides.model = model;
  }
  SourceLocation location(std::int64_t index) const override;

 private:
  friend class PointListReader;
  std::map<std::string, gpus::Profile> gpus_;       // by the cell that names them
  std::map<std::string, SuiteWorkload> workloads_;  // rows with the same kernel, launch, parameters and calibration
};

// Throws InputError with the file and the row's line for a missing column, an unknown GPU, an
// unreadable kernel, a malformed grid or block, a param: column that names no parameter, a
// non-numeric tp_us or tm, and for a file without rows.
PointList parse_point_list(const std::string& text, const std::string& source);
PointList load_point_list(const std::string& path);

}  // namespace warpsim::sim::driver

#include "warpsim/calibrate/measured_points.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"

namespace warpsim::sim::calibrate {

std::optional<double> MeasuredData::median_launch_us() const {
  std::vector<double> values;
  for (const MeasuredPoint& p : points) {
    if (p.launch_us) values.push_back(*p.launch_us);
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double MeasuredData::min_time_us() const {
  double smallest = points.empty() ? 0 : points.front().time_us;
  for (const MeasuredPoint& p : points) smallest = std::min(smallest, p.time_us);
  return smallest;
}

namespace {

std::optional<std::size_t> optional_column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) return std::nullopt;
  return static_cast<std::size_t>(it - header.begin());
}

// The row's time_us and launch_us (an empty launch_us cell: none).
void read_times(const std::vector<std::string>& row, std::size_t time_column, std::optional<std::size_t> launch_column,
                const SourceLocation& where, MeasuredPoint& point) {
  const std::optional<double> time = report::parse_number(row[time_column]);
  point.time_us = time.value_or(0);
  if (!time || !std::isfinite(*time) || *time <= 0) {
    throw InputError(where, "time_us = " + quote_for_message(row[time_column]) + " is not a positive number of microseconds");
  }
  if (launch_column && !row[*launch_column].empty()) {
    const std::optional<double> launch = report::parse_number(row[*launch_column]);
    if (!launch || !std::isfinite(*launch) || *launch < 0) {
      throw InputError(where, "launch_us = " + quote_for_message(row[*launch_column]) +
                                  " is not a non-negative number of microseconds");
    }
    point.launch_us = launch;
  }
}

}  // namespace

MeasuredData select_measured_points(const report::CsvTable& table, const std::string& gpu_id, const std::string& label,
                                    const std::vector<std::string>& axes) {
  MeasuredData data;
  data.source = table.source;
  const std::size_t gpu_column = table.column("gpu", "the profile id of each row");
  const std::size_t workload_column = table.column("workload", "the workload of each row");
  const std::size_t time_column = table.column("time_us", "the measured time");
  std::vector<std::size_t> axis_columns;
  const std::string all = join_commas(axes);
  for (const std::string& axis : axes) {
    axis_columns.push_back(table.column(axis, "an axis of " + label + ", which has " + all));
  }
  const std::optional<std::size_t> launch_column = optional_column(table.header, "launch_us");
  data.has_launch_column = launch_column.has_value();

  std::set<std::string> gpus, workloads;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<std::string>& row = table.rows[r];
    const SourceLocation where{table.source, table.lines[r], 0};
    gpus.insert(row[gpu_column]);
    workloads.insert(row[workload_column]);
    if (row[gpu_column] != gpu_id || row[workload_column] != label) continue;
    MeasuredPoint point;
    point.line = table.lines[r];
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::string& text = row[axis_columns[a]];
      std::int64_t value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        throw InputError(where, axes[a] + " = " + quote_for_message(text) + " is not a whole number");
      }
      point.point.emplace_back(axes[a], value);
    }
    read_times(row, time_column, launch_column, where, point);
    data.points.push_back(std::move(point));
  }
  if (data.points.empty()) {
    throw InputError(SourceLocation{table.source, 0, 0},
                     "no rows with gpu = " + quote_for_message(gpu_id) + " and workload = " + quote_for_message(label) +
                         " (gpus: " + join_commas(gpus, "none") + "; workloads: " + join_commas(workloads, "none") + "; --label NAME matches another workload name)");
  }
  return data;
}

MeasuredData select_point_list_rows(const driver::PointList& list, const std::string& gpu_id, const std::string& label) {
  MeasuredData data;
  data.source = list.source;
  const std::optional<std::size_t> time_column = optional_column(list.columns, "measured_time_us");
  if (!time_column) throw InputError(SourceLocation{list.source, 1, 0}, "no column 'time_us' (the measured time)");
  const std::optional<std::size_t> launch_column = optional_column(list.columns, "launch_us");
  data.has_launch_column = launch_column.has_value();
  std::set<std::string> gpus, kernels;
  for (const driver::PointRow& row : list.rows) {
    const workload::WorkloadModel& model = *row.workload->model;
    gpus.insert(row.gpu->id);
    kernels.insert(model.name());
    if (row.gpu->id != gpu_id || (!label.empty() && model.name() != label)) continue;
    const SourceLocation where{list.source, row.line, 0};
    for (const char* fixed : {"tp_us", "tm"}) {
      const std::optional<std::size_t> column = optional_column(list.columns, fixed);
      if (column && !row.cells[*column].empty()) {
        throw InputError(where, std::string(fixed) + " is given: the calibration sets it (--tp, --tm, --fit), leave it empty");
      }
    }
    if (!data.points.empty() && data.points.front().model->kernel() != model.kernel()) {
      throw InputError(where, "kernel " + model.kernel() + " is not line " + std::to_string(data.points.front().line) +
                                  "'s " + data.points.front().model->kernel() +
                                  ": calibrate one kernel at a time (--workload NAME selects its rows)");
    }
    MeasuredPoint point;
    point.line = row.line;
    point.point = row.point;
    point.model = &model;
    read_times(row.cells, *time_column, launch_column, where, point);
    data.points.push_back(std::move(point));
  }
  if (data.points.empty()) {
    throw InputError(SourceLocation{list.source, 0, 0},
                     "no rows with gpu = " + quote_for_message(gpu_id) +
                         (label.empty() ? "" : " and kernel = " + quote_for_message(label)) + " (gpus: " +
                         join_commas(gpus, "none") + "; kernels: " + join_commas(kernels, "none") + ")");
  }
  return data;
}

}  // namespace warpsim::sim::calibrate

#include "sim/calibrate/measured_points.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "isa/input_error.hpp"
#include "isa/text_list.hpp"

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
  std::optional<std::size_t> launch_column;
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    if (table.header[i] == "launch_us") launch_column = i;
  }
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
    data.points.push_back(std::move(point));
  }
  if (data.points.empty()) {
    throw InputError(SourceLocation{table.source, 0, 0},
                     "no rows with gpu = " + quote_for_message(gpu_id) + " and workload = " + quote_for_message(label) +
                         " (gpus: " + join_commas(gpus, "none") + "; workloads: " + join_commas(workloads, "none") + "; --label NAME matches another workload name)");
  }
  return data;
}

}  // namespace warpsim::sim::calibrate

#include "sim/evaluate/join.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "isa/input_error.hpp"
#include "sim/report/number_format.hpp"
#include "sim/report/sweep_report.hpp"

namespace warpsim::sim::evaluate {
namespace {

using report::CsvTable;

bool parse_number(const std::string& text, double& value) {
  const std::optional<double> number = report::parse_number(text);
  value = number.value_or(0);
  return number && std::isfinite(*number);
}

// Numbers compare by value: "8", "8.0" and "8e0" are the same key.
std::string normalised(const std::string& text) {
  double value = 0;
  return parse_number(text, value) ? report::shortest(value) : text;
}

struct Row {
  std::vector<std::string> key;  // normalised values of the key columns
  double x = 0;
  double time_us = 0;
  int line = 0;
};

std::string describe_key(const std::vector<std::string>& names, const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? " " : "") + names[i] + "=" + values[i];
  return out;
}

// The rows of one file, keyed; duplicates, bad times and (when `need_x`) x values that are not
// numbers are errors at their line. A predicted row without x (a sweep row that lacks the axis)
// simply matches nothing.
std::vector<Row> read_rows(const CsvTable& table, const std::vector<std::string>& keys, std::size_t x_key, bool need_x) {
  std::vector<std::size_t> columns;
  for (const std::string& name : keys) columns.push_back(table.column(name));
  const std::size_t time = table.column("time_us");
  std::vector<Row> rows;
  std::map<std::vector<std::string>, int> seen;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& cells = table.rows[r];
    const SourceLocation at{table.source, table.lines[r], 0};
    Row row;
    row.line = table.lines[r];
    for (const std::size_t c : columns) row.key.push_back(normalised(cells[c]));
    if (!parse_number(cells[time], row.time_us)) {
      throw InputError(at, "time_us " + quote_for_message(cells[time]) + " is not a number");
    }
    if (!(row.time_us > 0)) throw InputError(at, "time_us " + cells[time] + " is not positive");
    if (!parse_number(cells[columns[x_key]], row.x) && need_x) {
      throw InputError(at, keys[x_key] + " " + quote_for_message(cells[columns[x_key]]) + " is not a number");
    }
    const auto [it, added] = seen.emplace(row.key, row.line);
    if (!added) {
      throw InputError(at, "duplicate row: " + describe_key(keys, row.key) + " is also on line " + std::to_string(it->second));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> choose_keys(const CsvTable& predicted, const CsvTable& measured, const JoinOptions& options) {
  for (const char* required : {"gpu", "workload", "time_us"}) {
    predicted.column(required);
    measured.column(required);
  }
  std::vector<std::string> keys = options.keys;
  if (keys.empty()) {
    keys = {"gpu", "workload"};
    for (const std::string& name : measured.header) {
      const bool shared = std::find(predicted.header.begin(), predicted.header.end(), name) != predicted.header.end();
      if (shared && name != "gpu" && name != "workload" && !is_result_column(name)) keys.push_back(name);
    }
  }
  std::string list;
  for (const std::string& k : keys) list += (list.empty() ? "" : ",") + k;
  for (const char* required : {"gpu", "workload"}) {
    if (std::find(keys.begin(), keys.end(), required) == keys.end()) {
      throw InputError("--keys " + list + ": the keys must include " + required);
    }
  }
  if (std::find(keys.begin(), keys.end(), options.x) == keys.end()) {
    throw InputError("--x " + options.x + ": not one of the key columns (" + list + ")");
  }
  if (std::find(keys.begin(), keys.end(), "time_us") != keys.end()) {
    throw InputError("--keys " + list + ": time_us is the time, not a key");
  }
  return keys;
}

}  // namespace

bool is_result_column(const std::string& name) {
  static const std::set<std::string> measured = {"time_us_min", "time_us_max", "time_us_sd", "samples",
                                                 "launch_us", "kernel_us", "kernel_us_min", "kernel_us_sd",
                                                 "span_us", "api_launch_us"};
  if (measured.count(name)) return true;
  const std::vector<std::string> sweep = report::sweep_columns({});  // gpu, workload, then the results
  return name != "gpu" && name != "workload" && std::find(sweep.begin(), sweep.end(), name) != sweep.end();
}

JoinedData join(const CsvTable& predicted, const CsvTable& measured, const JoinOptions& options) {
  JoinedData out;
  out.keys = choose_keys(predicted, measured, options);
  const auto position = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(out.keys.begin(), out.keys.end(), name) - out.keys.begin());
  };
  const std::size_t x = position(options.x), g = position("gpu"), w = position("workload");
  std::map<std::vector<std::string>, double> predictions;
  for (Row& row : read_rows(predicted, out.keys, x, false)) predictions.emplace(std::move(row.key), row.time_us);

  std::map<std::vector<std::string>, std::size_t> experiment_index;  // key without x -> experiment
  for (const Row& row : read_rows(measured, out.keys, x, true)) {
    const auto prediction = predictions.find(row.key);
    if (prediction == predictions.end()) {
      if (options.allow_missing) {
        out.skipped_lines.push_back(row.line);
        continue;
      }
      throw InputError(SourceLocation{measured.source, row.line, 0},
                       "no prediction for " + describe_key(out.keys, row.key) + " in " + predicted.source);
    }
    std::vector<std::string> group = row.key;
    group.erase(group.begin() + static_cast<std::ptrdiff_t>(x));
    const auto [it, added] = experiment_index.emplace(group, out.experiments.size());
    if (added) {
      Experiment e{row.key[g], row.key[w], {}, {}};
      for (std::size_t k = 0; k < out.keys.size(); ++k) {
        if (k != x && k != g && k != w) e.keys.emplace_back(out.keys[k], row.key[k]);
      }
      out.experiments.push_back(std::move(e));
    }
    out.experiments[it->second].points.push_back({row.x, prediction->second, row.time_us});
    ++out.points;
  }
  if (out.points == 0) {
    throw InputError(SourceLocation{measured.source}, "no measured row has a prediction in " + predicted.source);
  }
  for (Experiment& e : out.experiments) {
    std::sort(e.points.begin(), e.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  }
  return out;
}

}  // namespace warpsim::sim::evaluate

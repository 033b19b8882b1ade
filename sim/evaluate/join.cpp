#include "warpsim/evaluate/join.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/sweep_columns.hpp"

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

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

// Why two rows of a file collide: the non-key columns in which they differ, which the join did
// not use (a sweep over an axis the other file lacks), with what to do about it.
std::string differing_columns(const CsvTable& table, std::size_t a, std::size_t b, const std::vector<std::string>& keys) {
  std::vector<std::string> differ;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    const std::string& name = table.header[c];
    if (name == "time_us" || std::find(keys.begin(), keys.end(), name) != keys.end()) continue;
    if (normalised(table.rows[a][c]) != normalised(table.rows[b][c])) differ.push_back(name);
  }
  std::string why = " (joined on " + joined(keys);
  if (!differ.empty()) {
    why += "; the rows differ in " + joined(differ) + ", not a key: the other file lacks it, or name it with --keys";
  }
  return why + ")";
}

std::set<std::string> values_of(const CsvTable& table, const std::string& column) {
  const std::size_t c = table.column(column);
  std::set<std::string> values;
  for (const auto& row : table.rows) values.insert(normalised(row[c]));
  return values;
}

// At most a few values, for a message.
std::string listed(const std::set<std::string>& values) {
  constexpr std::size_t kShown = 4;
  std::string out;
  std::size_t shown = 0;
  for (const std::string& v : values) {
    if (shown++ == kShown) return out + " and " + std::to_string(values.size() - kShown) + " more";
    out += (out.empty() ? "" : " ") + v;
  }
  return out.empty() ? "none" : out;
}

// No measured row found its prediction: what the join tried, and the key columns whose values
// the two files do not share at all (the usual cause: another GPU id, workload name or axis).
std::string mismatch(const CsvTable& predicted, const CsvTable& measured, const std::vector<std::string>& keys) {
  std::string out = "no measured row has a prediction in " + predicted.source + ": joined on " + joined(keys);
  bool named = false;
  for (const std::string& k : keys) {
    const std::set<std::string> p = values_of(predicted, k), m = values_of(measured, k);
    if (std::any_of(m.begin(), m.end(), [&](const std::string& v) { return p.contains(v); })) continue;
    out += "; " + k + ": predicted " + listed(p) + ", measured " + listed(m);
    named = true;
  }
  return named ? out : out + "; each column shares values, but no row has the same combination";
}

// The rows of one file, keyed; duplicates, bad times and (when `need_x`) x values that are not
// numbers are errors at their line. A predicted row without x (a sweep row that lacks the axis)
// simply matches nothing.
std::vector<Row> read_rows(const CsvTable& table, const std::vector<std::string>& keys, std::size_t x_key, bool need_x) {
  std::vector<std::size_t> columns;
  for (const std::string& name : keys) columns.push_back(table.column(name));
  const std::size_t time = table.column("time_us");
  std::vector<Row> rows;
  std::map<std::vector<std::string>, std::size_t> seen;  // key -> row index
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
    const auto [it, added] = seen.emplace(row.key, r);
    if (!added) {
      throw InputError(at, "duplicate row: " + describe_key(keys, row.key) + " is also on line " +
                               std::to_string(table.lines[it->second]) + differing_columns(table, it->second, r, keys));
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
  const std::string list = joined(keys);
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
  const std::vector<std::string>& sweep = report::sweep_result_columns();
  return std::find(sweep.begin(), sweep.end(), name) != sweep.end();
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
  const std::vector<Row> rows = read_rows(measured, out.keys, x, true);
  // With no row in common the first row's error would hide the cause: a mismatch of keys.
  const bool any_match = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return predictions.contains(r.key); });
  for (const Row& row : rows) {
    const auto prediction = predictions.find(row.key);
    if (prediction == predictions.end()) {
      if (options.allow_missing) {
        out.skipped_lines.push_back(row.line);
        continue;
      }
      if (!any_match) throw InputError(SourceLocation{measured.source}, mismatch(predicted, measured, out.keys));
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
  if (out.points == 0) throw InputError(SourceLocation{measured.source}, mismatch(predicted, measured, out.keys));
  for (Experiment& e : out.experiments) {
    std::sort(e.points.begin(), e.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  }
  return out;
}

}  // namespace warpsim::sim::evaluate

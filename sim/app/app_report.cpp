#include "warpsim/app/app_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/line_chart.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::sim::app {
namespace {

using report::number_json;

// One table, rendered as CSV (full precision) or text (rounded).
std::vector<std::vector<std::string>> table(const App& app, const AppRun& run, bool rounded) {
  std::vector<std::string> header = {"gpu", "gpus"};
  for (const driver::Axis& axis : app.axes) header.push_back(axis.name);
  for (const Step& step : app.steps) header.push_back(step.label + "_us");
  header.insert(header.end(), {"total_us", "speedup"});
  std::vector<std::vector<std::string>> rows = {header};
  const auto number = [&](double value, int decimals) { return rounded ? report::fixed(value, decimals) : report::shortest(value); };
  for (const AppRow& row : run.rows) {
    std::vector<std::string> cells = {row.gpu->id, std::to_string(row.gpu_count)};
    for (const auto& axis : row.axes) cells.push_back(std::to_string(axis.second));
    for (const StepTime& step : row.steps) cells.push_back(number(step.time_us, 3));
    cells.push_back(number(row.total_us, 3));
    cells.push_back(number(row.speedup, 2));
    rows.push_back(std::move(cells));
  }
  return rows;
}

}  // namespace

nlohmann::ordered_json app_json(const App& app, const AppRun& run) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const AppRow& row : run.rows) {
    nlohmann::ordered_json out;
    out["gpu"] = row.gpu->id;
    out["gpus"] = row.gpu_count;
    for (const auto& [axis, value] : row.axes) out[axis] = value;
    out["total_us"] = number_json(row.total_us);
    out["speedup"] = number_json(row.speedup);
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < row.steps.size(); ++i) {
      const Step& step = app.steps[i];
      nlohmann::ordered_json s;
      s["name"] = step.label;
      s["kind"] = kind_name(step.kind);
      s["time_us"] = number_json(row.steps[i].time_us);
      if (row.steps[i].bytes) s["bytes"] = *row.steps[i].bytes;
      if (step.repeat) s["repeat"] = row.steps[i].repeat;
      if (step.overlaps_previous) s["overlap"] = true;
      steps.push_back(std::move(s));
    }
    out["steps"] = std::move(steps);
    rows.push_back(std::move(out));
  }
  nlohmann::ordered_json out;
  out["app"] = app.name;
  out["rows"] = std::move(rows);
  if (!run.warnings.empty()) out["warnings"] = run.warnings;
  return out;
}

std::string app_csv(const App& app, const AppRun& run) {
  std::string out;
  for (const std::vector<std::string>& row : table(app, run, false)) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + report::csv_field(row[i]);
    out += '\n';
  }
  return out;
}

std::string app_text(const App& app, const AppRun& run) {
  std::vector<std::vector<std::string>> rows = table(app, run, true);
  report::TextTable text(rows.front());
  for (std::size_t i = 1; i < rows.size(); ++i) text.add_row(std::move(rows[i]));
  return (app.name.empty() ? "" : app.name + "\n") + text.render();
}

std::string scaling_chart_svg(const App& app, const AppRun& run) {
  if (std::none_of(run.rows.begin(), run.rows.end(), [](const AppRow& row) { return row.total_us > 0; })) {
    throw InputError(SourceLocation{app.source}, "the scaling chart has nothing to draw: every row takes 0 us");
  }
  std::map<std::string, report::Series> times, speedups;  // by label: GPU and axis point
  std::vector<std::string> order;
  std::int64_t most_gpus = 1;
  for (const AppRow& row : run.rows) {
    std::string label = app.gpus.size() > 1 ? row.gpu->id : "";
    const std::string point = workload::describe_point(row.axes);
    label += (label.empty() || point.empty() ? "" : " ") + point;
    if (label.empty()) label = row.gpu->id;
    if (!times.contains(label)) order.push_back(label);
    const auto m = static_cast<double>(row.gpu_count);
    // A log axis cannot show 0 (an app of collectives alone on one GPU), nor a speed-up over nothing.
    if (row.total_us > 0) times[label].points.emplace_back(m, row.total_us);
    if (std::isfinite(row.speedup)) speedups[label].points.emplace_back(m, row.speedup);
    most_gpus = std::max(most_gpus, row.gpu_count);
  }
  std::vector<report::Series> time_series, speedup_series;
  for (std::size_t i = 0; i < order.size(); ++i) {
    time_series.push_back({order[i], times[order[i]].points, i});
    speedup_series.push_back({order[i], speedups[order[i]].points, i});
  }
  report::Series ideal{"ideal (M)", {}, std::nullopt, 1};
  for (std::int64_t m = 1; m <= most_gpus; m *= 2) ideal.points.emplace_back(static_cast<double>(m), static_cast<double>(m));
  if (ideal.points.back().first != static_cast<double>(most_gpus)) ideal.points.emplace_back(static_cast<double>(most_gpus), static_cast<double>(most_gpus));
  ideal.colour = time_series.size();
  speedup_series.push_back(std::move(ideal));
  const std::string title = app.name.empty() ? "application" : app.name;
  report::ChartSpec time_spec{title + ": predicted time", "GPUs (M)", "total time (us)", true, true};
  report::ChartSpec speedup_spec{title + ": speed-up over one GPU", "GPUs (M)", "speed-up", true, false};
  const bool overlap = std::any_of(app.steps.begin(), app.steps.end(), [](const Step& s) { return s.overlaps_previous; });
  speedup_spec.notes = {overlap ? "steps with overlap run at once (beyond seed 003)" : "no overlap of steps (seed 003, eq. 1)"};
  return report::render_chart_panels_svg({{std::move(time_series), time_spec}, {std::move(speedup_series), speedup_spec}});
}

}  // namespace warpsim::sim::app

#include "warpsim/calibrate/calibration_report.hpp"

#include <cmath>
#include <cstdint>

#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::sim::calibrate {
namespace {

using report::fixed;
using report::shortest;

std::string percent(double fraction) { return fixed(100 * fraction, 3) + " %"; }

std::string values_text(const ModelValues& v) {
  std::string text = "tp_us = " + shortest(v.tp_us) + ", tm = " + isa::format_cycles(v.tm);
  for (std::size_t i = 0; i < v.durations.size(); ++i) {
    if (v.durations[i]) text += ", d" + std::to_string(i + 1) + " = " + isa::format_cycles(*v.durations[i]);
  }
  return text;
}

// 100000 rather than 1e+05.
std::string bound_text(double value) {
  return value == std::floor(value) && std::abs(value) < 1e15 ? std::to_string(static_cast<std::int64_t>(value)) : shortest(value);
}

std::string bounds_text(const std::vector<FitParameter>& fit) {
  std::string text;
  for (const FitParameter& p : fit) {
    text += (text.empty() ? "" : ", ") + p.name() + " in [" + bound_text(p.lower) + ", " + bound_text(p.upper) + "] " + p.unit();
  }
  return text.empty() ? "nothing" : text;
}

nlohmann::ordered_json values_json(const ModelValues& v, const Accuracy& a) {
  nlohmann::ordered_json j;
  j["tp_us"] = v.tp_us;
  j["tm"] = report::cycles_json(v.tm);
  nlohmann::ordered_json durations = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < v.durations.size(); ++i) {
    if (v.durations[i]) durations["d" + std::to_string(i + 1)] = report::cycles_json(*v.durations[i]);
  }
  j["durations"] = durations;
  j["mean_error"] = a.mean_error;
  j["max_error"] = a.max_error;
  return j;
}

std::string summary_comment(const CalibrationReport& r) {
  const CalibrationProblem& p = *r.problem;
  const CalibrationResult& res = *r.result;
  std::string text;
  text += "# warpsim calibrate: " + p.model->name() + " on " + p.gpu->id + ", " + std::to_string(p.data.points.size()) +
          " points of " + p.data.source + "\n";
  text += "# fitted: " + bounds_text(p.fit) + "; t_p: " + r.tp_origin + "\n";
  text += "# before: E = " + percent(res.before.accuracy.mean_error) + ", E^ = " + percent(res.before.accuracy.max_error) +
          " (" + values_text(res.before.values) + ")\n";
  text += "# after:  E = " + percent(res.after.accuracy.mean_error) + ", E^ = " + percent(res.after.accuracy.max_error) + "\n";
  text += "# " + std::to_string(res.evaluations) + " evaluations (" + std::to_string(res.trials) + " distinct), " +
          std::to_string(res.simulations) + " core-package simulations, " + fixed(res.seconds, 2) + " s; " + res.method + "\n";
  return text;
}

}  // namespace

std::string section_name(const CalibrationProblem& problem) {
  return problem.section.empty() ? problem.model->kernel() : problem.section;
}

std::string calibration_section(const CalibrationProblem& problem, const ModelValues& values) {
  std::string text = "[calibration." + section_name(problem) + "]\n";
  text += "tp_us = " + shortest(values.tp_us) + "\n";
  text += "tm = " + isa::format_cycles(values.tm) + "\n";
  for (std::size_t i = 0; i < values.durations.size(); ++i) {
    if (values.durations[i]) text += "d" + std::to_string(i + 1) + " = " + isa::format_cycles(*values.durations[i]) + "\n";
  }
  return text;
}

std::string render_calibration_toml(const CalibrationReport& r) {
  return summary_comment(r) + calibration_section(*r.problem, r.result->after.values);
}

nlohmann::ordered_json calibration_json(const CalibrationReport& r) {
  const CalibrationProblem& p = *r.problem;
  const CalibrationResult& res = *r.result;
  nlohmann::ordered_json j;
  j["workload"] = p.model->name();
  j["kernel"] = p.model->kernel();
  j["section"] = section_name(p);
  j["gpu"] = p.gpu->id;
  j["measured"] = p.data.source;
  j["points"] = p.data.points.size();
  nlohmann::ordered_json fitted = nlohmann::ordered_json::array();
  for (const FitParameter& f : p.fit) {
    nlohmann::ordered_json e;
    e["name"] = f.name();
    e["lower"] = f.lower;
    e["upper"] = f.upper;
    e["unit"] = f.unit();
    fitted.push_back(e);
  }
  j["fitted"] = fitted;
  j["tp_origin"] = r.tp_origin;
  j["before"] = values_json(res.before.values, res.before.accuracy);
  j["after"] = values_json(res.after.values, res.after.accuracy);
  j["evaluations"] = res.evaluations;
  j["distinct_evaluations"] = res.trials;
  j["simulations"] = res.simulations;
  j["seconds"] = res.seconds;
  j["method"] = res.method;
  j["calibration"] = calibration_section(p, res.after.values);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < p.data.points.size(); ++k) {
    const MeasuredPoint& point = p.data.points[k];
    nlohmann::ordered_json row;
    row["line"] = point.line;
    for (const auto& [axis, value] : point.point) row[axis] = value;
    row["measured_us"] = point.time_us;
    row["before_us"] = res.before.accuracy.predicted_us[k];
    row["after_us"] = res.after.accuracy.predicted_us[k];
    row["ratio_before"] = res.before.accuracy.ratios[k];
    row["ratio_after"] = res.after.accuracy.ratios[k];
    rows.push_back(row);
  }
  j["rows"] = rows;
  return j;
}

std::string render_calibration_text(const CalibrationReport& r) {
  const CalibrationProblem& p = *r.problem;
  const CalibrationResult& res = *r.result;
  std::string text = p.model->name() + " on " + p.gpu->id + ": " + std::to_string(p.data.points.size()) + " points of " +
                     p.data.source + "; fitted " + bounds_text(p.fit) + "; t_p: " + r.tp_origin + "\n\n";
  report::TextTable summary({"", "E", "E^", "values"});
  summary.add_row({"before", percent(res.before.accuracy.mean_error), percent(res.before.accuracy.max_error),
                   values_text(res.before.values)});
  summary.add_row({"after", percent(res.after.accuracy.mean_error), percent(res.after.accuracy.max_error),
                   values_text(res.after.values)});
  text += summary.render() + "\n";
  std::vector<std::string> headers;
  if (!p.data.points.empty()) {
    for (const auto& [axis, value] : p.data.points.front().point) headers.push_back(axis);
  }
  for (const char* h : {"measured_us", "before_us", "after_us", "r_before", "r_after"}) headers.emplace_back(h);
  report::TextTable points(headers);
  for (std::size_t k = 0; k < p.data.points.size(); ++k) {
    std::vector<std::string> cells;
    for (const auto& [axis, value] : p.data.points[k].point) cells.push_back(std::to_string(value));
    cells.push_back(fixed(p.data.points[k].time_us, 3));
    cells.push_back(fixed(res.before.accuracy.predicted_us[k], 3));
    cells.push_back(fixed(res.after.accuracy.predicted_us[k], 3));
    cells.push_back(fixed(res.before.accuracy.ratios[k], 4));
    cells.push_back(fixed(res.after.accuracy.ratios[k], 4));
    points.add_row(std::move(cells));
  }
  text += points.render() + "\n";
  text += std::to_string(res.evaluations) + " evaluations (" + std::to_string(res.trials) + " distinct), " +
          std::to_string(res.simulations) + " core-package simulations, " + fixed(res.seconds, 2) + " s; " + res.method + "\n\n";
  text += calibration_section(p, res.after.values);
  return text;
}

}  // namespace warpsim::sim::calibrate

#include "warpsim/evaluate/ratio_charts.hpp"

#include <algorithm>

#include "warpsim/report/line_chart.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::sim::evaluate {
namespace {

std::string percent(double fraction) { return report::fixed(100 * fraction, 1) + " %"; }

std::string safe_name(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                       c == '_' || c == '-';
    out += plain ? c : '_';
  }
  return out;
}

std::string keys_for_file(const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string out;
  for (const auto& [name, value] : keys) out += "-" + safe_name(name + value);
  return out;
}

report::ChartSpec spec_for(const std::string& title, const std::string& x_label, const std::string& y_label,
                           bool positive_x) {
  report::ChartSpec spec;
  spec.title = title;
  spec.x_label = x_label;
  spec.y_label = y_label;
  spec.log_x = positive_x;
  spec.power_of_two_x = positive_x;
  spec.log_y = false;
  spec.linear_y_from_zero = false;  // the deviations from 1 are what matters
  return spec;
}

}  // namespace

std::string describe_keys(const std::vector<std::pair<std::string, std::string>>& keys) {
  std::string out;
  for (const auto& [name, value] : keys) out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

std::string render_ratio_chart(const Experiment& experiment, const ExperimentErrors& errors, const std::string& x_label) {
  report::Series ratios{"r = t_model / t_measured", {}};
  bool positive_x = true;
  for (std::size_t k = 0; k < experiment.points.size(); ++k) {
    ratios.points.emplace_back(experiment.points[k].x, errors.ratios[k]);
    positive_x = positive_x && experiment.points[k].x > 0;
  }
  const double low = experiment.points.front().x, high = experiment.points.back().x;
  report::Series one{"r = 1", {{low, 1.0}, {high, 1.0}}};
  const std::string keys = describe_keys(experiment.keys);
  auto spec = spec_for(experiment.gpu + " " + experiment.workload + (keys.empty() ? "" : " " + keys) +
                           ": modelled to measured time ratios",
                       x_label, "r = t_model / t_measured", positive_x);
  spec.notes = {"\u0112 = " + percent(errors.mean_error) + "  (mean |1 - r|)",
                "\u00ca = " + percent(errors.max_error) + "  (max |1 - r|)",
                "t_min = " + report::shortest(errors.t_min_us) + " us",
                "t_max = " + report::shortest(errors.t_max_us) + " us",
                std::to_string(experiment.points.size()) + " points"};
  return report::render_line_chart_svg({ratios, one}, spec);
}

std::string render_time_ratio_chart(const RatioExperiment& experiment, const std::string& a, const std::string& b,
                                    const std::string& x_label) {
  report::Series measured{"R(d): measured", {}}, predicted{"R(m): model", {}};
  bool positive_x = true;
  for (const RatioPoint& p : experiment.points) {
    measured.points.emplace_back(p.x, p.measured);
    predicted.points.emplace_back(p.x, p.predicted);
    positive_x = positive_x && p.x > 0;
  }
  const std::string keys = describe_keys(experiment.keys);
  auto spec = spec_for(experiment.gpu + (keys.empty() ? "" : " " + keys) + ": " + a + " to " + b + " time ratios", x_label,
                       "R = t(" + a + ") / t(" + b + ")", positive_x);
  spec.notes = {"\u0112R = " + percent(experiment.mean_error) + "  (mean |Rd - Rm| / Rd)",
                "\u00caR = " + percent(experiment.max_error) + "  (max)",
                std::to_string(experiment.points.size()) + " points"};
  return report::render_line_chart_svg({measured, predicted}, spec);
}

std::string chart_file_name(const Experiment& experiment) {
  return safe_name(experiment.gpu) + "-" + safe_name(experiment.workload) + keys_for_file(experiment.keys) + ".svg";
}

std::string ratio_chart_file_name(const RatioExperiment& experiment, const std::string& a, const std::string& b) {
  return safe_name(experiment.gpu) + "-" + safe_name(a) + "_vs_" + safe_name(b) + keys_for_file(experiment.keys) + ".svg";
}

}  // namespace warpsim::sim::evaluate

// warpsim::evaluate: accuracy of predictions against measurements (paper 002, eq. 15-22).
#include <set>

#include "warpsim/evaluate/evaluation_report.hpp"
#include "warpsim/evaluate/ratio_charts.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

namespace ev = sim::evaluate;

// The pair of workloads of eq. 21/22: `ratio` A/B, else the two workloads when there are exactly
// two (the first in the measurements first). Explicit pairs must exist and share experiments.
std::optional<ev::RatioSummary> choose_ratio(const ev::JoinedData& data, const ev::Summary& summary,
                                             const std::optional<std::pair<std::string, std::string>>& ratio) {
  if (!ratio) {
    if (summary.workloads.size() != 2) return std::nullopt;
    ev::RatioSummary r = ev::ratio_errors(data.experiments, summary.workloads[0].workload, summary.workloads[1].workload);
    return r.experiments.empty() ? std::nullopt : std::optional(r);
  }
  const auto& [a, b] = *ratio;
  const std::string text = a + "/" + b;
  if (a.empty() || b.empty() || a == b) {
    throw InputError("--ratio " + quote_for_message(text) + ": expected A/B, two different workloads");
  }
  std::string known;
  for (const auto& w : summary.workloads) known += (known.empty() ? "" : ", ") + w.workload;
  for (const std::string& name : {a, b}) {
    bool found = false;
    for (const auto& w : summary.workloads) found = found || w.workload == name;
    if (!found) throw InputError("--ratio " + text + ": no workload " + quote_for_message(name) + " was evaluated (" + known + ")");
  }
  ev::RatioSummary r = ev::ratio_errors(data.experiments, a, b);
  if (r.experiments.empty()) {
    throw InputError("--ratio " + text + ": no experiment of " + a + " has one of " + b + " with the same gpu and keys at a common x");
  }
  return r;
}

// (file name, SVG) for every experiment and ratio experiment; names made unique with -2, -3, ...
std::vector<std::pair<std::string, std::string>> render_charts(const ev::Evaluation& e) {
  std::vector<std::pair<std::string, std::string>> charts;
  for (std::size_t i = 0; i < e.data.experiments.size(); ++i) {
    const auto& x = e.data.experiments[i];
    charts.emplace_back(ev::chart_file_name(x), ev::render_ratio_chart(x, e.summary.experiments[i], e.x));
  }
  if (e.ratio) {
    for (const auto& x : e.ratio->experiments) {
      charts.emplace_back(ev::ratio_chart_file_name(x, e.ratio->a, e.ratio->b),
                          ev::render_time_ratio_chart(x, e.ratio->a, e.ratio->b, e.x));
    }
  }
  std::set<std::string> used;
  for (auto& [name, svg] : charts) {
    const std::string stem = name.substr(0, name.size() - 4);
    for (int n = 2; !used.insert(name).second; ++n) name = stem + "-" + std::to_string(n) + ".svg";
  }
  return charts;
}

}  // namespace

namespace detail {
struct EvaluateReport {
  ev::Evaluation evaluation;
};
}  // namespace detail

EvaluateResult evaluate(const EvaluateRequest& request) {
  auto report = std::make_shared<detail::EvaluateReport>();
  ev::Evaluation& e = report->evaluation;
  e.predicted_source = request.predicted;
  e.measured_source = request.measured;
  e.x = request.x;
  ev::JoinOptions join_options;
  join_options.keys = request.keys;
  join_options.x = e.x;
  join_options.allow_missing = request.allow_missing;
  e.data = ev::join(sim::report::read_csv(e.predicted_source), sim::report::read_csv(e.measured_source), join_options);
  e.summary = ev::summarize(e.data.experiments);
  e.ratio = choose_ratio(e.data, e.summary, request.ratio);
  const auto experiments = static_cast<std::int64_t>(e.data.experiments.size());
  const auto points = static_cast<std::int64_t>(e.data.points);
  return {experiments, points, std::move(report)};
}

nlohmann::ordered_json to_json(const EvaluateResult& result) { return ev::evaluation_json(result.report->evaluation); }
std::string to_csv(const EvaluateResult& result) { return ev::render_evaluation_csv(result.report->evaluation); }
std::string to_text(const EvaluateResult& result) { return ev::render_evaluation_text(result.report->evaluation); }
std::vector<std::pair<std::string, std::string>> to_svg_charts(const EvaluateResult& result) {
  return render_charts(result.report->evaluation);
}

}  // namespace warpsim

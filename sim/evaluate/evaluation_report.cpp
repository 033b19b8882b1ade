#include "warpsim/evaluate/evaluation_report.hpp"

#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::sim::evaluate {
namespace {

using report::fixed;
using report::shortest;
using report::csv_field;

std::string percent(double fraction) { return fixed(100 * fraction, 1) + "%"; }

// The key columns that name an experiment besides gpu and workload (K, say).
std::vector<std::string> other_keys(const Evaluation& e) {
  std::vector<std::string> out;
  for (const std::string& k : e.data.keys) {
    if (k != "gpu" && k != "workload" && k != e.x) out.push_back(k);
  }
  return out;
}

std::size_t points_of(const std::vector<RatioExperiment>& experiments) {
  std::size_t n = 0;
  for (const auto& r : experiments) n += r.points.size();
  return n;
}

nlohmann::ordered_json keys_json(const std::vector<std::pair<std::string, std::string>>& keys) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, value] : keys) out[name] = value;
  return out;
}

}  // namespace

std::string render_evaluation_text(const Evaluation& e) {
  const std::vector<std::string> keys = other_keys(e);
  std::vector<std::string> headers = {"gpu", "workload"};
  headers.insert(headers.end(), keys.begin(), keys.end());
  for (const char* h : {"points", "t_min_us", "t_max_us", "E_mean", "E_max"}) headers.emplace_back(h);
  report::TextTable experiments(headers);
  for (std::size_t i = 0; i < e.data.experiments.size(); ++i) {
    const Experiment& x = e.data.experiments[i];
    const ExperimentErrors& r = e.summary.experiments[i];
    std::vector<std::string> row = {x.gpu, x.workload};
    for (const auto& [name, value] : x.keys) row.push_back(value);
    for (const std::string& cell : {std::to_string(x.points.size()), fixed(r.t_min_us, 3), fixed(r.t_max_us, 3),
                                    percent(r.mean_error), percent(r.max_error)}) {
      row.push_back(cell);
    }
    experiments.add_row(std::move(row));
  }
  std::string out = "Experiments: r = t_model / t_measured per " + e.x +
                    " (eq. 15); E_mean = mean |1 - r|, E_max = max |1 - r| (eq. 16)\n" + experiments.render();

  report::TextTable workloads({"workload", "experiments", "E_mean", "E_max"});
  std::size_t count = 0;
  for (const WorkloadErrors& w : e.summary.workloads) {
    workloads.add_row({w.workload, std::to_string(w.experiments), percent(w.mean_error), percent(w.max_error)});
    count += w.experiments;
  }
  workloads.add_row({"overall", std::to_string(count), percent(e.summary.mean_error), percent(e.summary.max_error)});
  out += "\nPer workload (eq. 19): mean of the experiments' E_mean, max of their E_max; overall: mean and max "
         "over the workloads\n" + workloads.render();

  if (e.ratio) {
    const RatioSummary& r = *e.ratio;
    std::vector<std::string> ratio_headers = {"gpu"};
    ratio_headers.insert(ratio_headers.end(), keys.begin(), keys.end());
    for (const char* h : {"points", "E_mean", "E_max"}) ratio_headers.emplace_back(h);
    report::TextTable ratios(ratio_headers);
    for (const RatioExperiment& x : r.experiments) {
      std::vector<std::string> row = {x.gpu};
      for (const auto& [name, value] : x.keys) row.push_back(value);
      for (const std::string& cell : {std::to_string(x.points.size()), percent(x.mean_error), percent(x.max_error)}) {
        row.push_back(cell);
      }
      ratios.add_row(std::move(row));
    }
    std::vector<std::string> overall = {"overall"};
    overall.resize(1 + keys.size());
    for (const std::string& cell : {std::to_string(points_of(r.experiments)), percent(r.mean_error), percent(r.max_error)}) {
      overall.push_back(cell);
    }
    ratios.add_row(std::move(overall));
    out += "\nTime ratios R = t(" + r.a + ") / t(" + r.b + ") (eq. 21, 22): error |R_measured - R_model| / R_measured\n" +
           ratios.render();
  }
  if (!e.data.skipped_lines.empty()) {
    out += "\nSkipped " + std::to_string(e.data.skipped_lines.size()) + " measured rows without a prediction (lines";
    for (const int line : e.data.skipped_lines) out += " " + std::to_string(line);
    out += ")\n";
  }
  return out;
}

nlohmann::ordered_json evaluation_json(const Evaluation& e) {
  nlohmann::ordered_json out;
  out["predicted"] = e.predicted_source;
  out["measured"] = e.measured_source;
  out["keys"] = e.data.keys;
  out["x"] = e.x;
  out["experiments"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < e.data.experiments.size(); ++i) {
    const Experiment& x = e.data.experiments[i];
    const ExperimentErrors& r = e.summary.experiments[i];
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < x.points.size(); ++k) {
      points.push_back({{"x", report::number_json(x.points[k].x)}, {"predicted_us", x.points[k].predicted_us},
                        {"measured_us", x.points[k].measured_us}, {"ratio", r.ratios[k]}});
    }
    out["experiments"].push_back({{"gpu", x.gpu}, {"workload", x.workload}, {"keys", keys_json(x.keys)},
                                  {"points", x.points.size()}, {"t_min_us", r.t_min_us}, {"t_max_us", r.t_max_us},
                                  {"mean_error", r.mean_error}, {"max_error", r.max_error}, {"data", points}});
  }
  out["workloads"] = nlohmann::ordered_json::array();
  for (const WorkloadErrors& w : e.summary.workloads) {
    out["workloads"].push_back({{"workload", w.workload}, {"experiments", w.experiments},
                                {"mean_error", w.mean_error}, {"max_error", w.max_error}});
  }
  out["overall"] = {{"experiments", e.data.experiments.size()}, {"points", e.data.points},
                    {"mean_error", e.summary.mean_error}, {"max_error", e.summary.max_error}};
  out["ratio"] = nullptr;
  if (e.ratio) {
    nlohmann::ordered_json experiments = nlohmann::ordered_json::array();
    for (const RatioExperiment& x : e.ratio->experiments) {
      nlohmann::ordered_json points = nlohmann::ordered_json::array();
      for (const RatioPoint& p : x.points) {
        points.push_back({{"x", report::number_json(p.x)}, {"measured", p.measured}, {"predicted", p.predicted}, {"error", p.error}});
      }
      experiments.push_back({{"gpu", x.gpu}, {"keys", keys_json(x.keys)}, {"points", x.points.size()},
                             {"mean_error", x.mean_error}, {"max_error", x.max_error}, {"data", points}});
    }
    out["ratio"] = {{"a", e.ratio->a}, {"b", e.ratio->b}, {"experiments", experiments},
                    {"mean_error", e.ratio->mean_error}, {"max_error", e.ratio->max_error}};
  }
  out["skipped_lines"] = e.data.skipped_lines;
  return out;
}

std::string render_evaluation_csv(const Evaluation& e) {
  const std::vector<std::string> keys = other_keys(e);
  std::string out = "level,gpu,workload";
  for (const std::string& k : keys) out += "," + csv_field(k);
  out += ",experiments,points,t_min_us,t_max_us,mean_error,max_error\n";
  const auto line = [&](const std::string& level, const std::string& gpu, const std::string& workload,
                        const std::vector<std::pair<std::string, std::string>>& values, const std::string& experiments,
                        std::size_t points, const std::string& t_min, const std::string& t_max, double mean, double max) {
    out += level + "," + csv_field(gpu) + "," + csv_field(workload);
    for (std::size_t k = 0; k < keys.size(); ++k) out += "," + (k < values.size() ? csv_field(values[k].second) : "");
    out += "," + experiments + "," + std::to_string(points) + "," + t_min + "," + t_max + "," + shortest(mean) + "," +
           shortest(max) + "\n";
  };
  for (std::size_t i = 0; i < e.data.experiments.size(); ++i) {
    const Experiment& x = e.data.experiments[i];
    const ExperimentErrors& r = e.summary.experiments[i];
    line("experiment", x.gpu, x.workload, x.keys, "1", x.points.size(), shortest(r.t_min_us), shortest(r.t_max_us),
         r.mean_error, r.max_error);
  }
  for (const WorkloadErrors& w : e.summary.workloads) {
    std::size_t points = 0;
    for (const Experiment& x : e.data.experiments) points += x.workload == w.workload ? x.points.size() : 0;
    line("workload", "", w.workload, {}, std::to_string(w.experiments), points, "", "", w.mean_error, w.max_error);
  }
  line("overall", "", "", {}, std::to_string(e.data.experiments.size()), e.data.points, "", "", e.summary.mean_error,
       e.summary.max_error);
  if (e.ratio) {
    const std::string pair = e.ratio->a + "/" + e.ratio->b;
    for (const RatioExperiment& x : e.ratio->experiments) {
      line("ratio", x.gpu, pair, x.keys, "1", x.points.size(), "", "", x.mean_error, x.max_error);
    }
    line("ratio_overall", "", pair, {}, std::to_string(e.ratio->experiments.size()), points_of(e.ratio->experiments), "",
         "", e.ratio->mean_error, e.ratio->max_error);
  }
  return out;
}

}  // namespace warpsim::sim::evaluate

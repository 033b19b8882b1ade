#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/evaluate/evaluation_report.hpp"
#include "warpsim/evaluate/ratio_charts.hpp"
#include "warpsim/report/csv_table.hpp"

namespace warpsim::cli {
namespace {

namespace ev = sim::evaluate;


// The pair of workloads of eq. 21/22: --ratio A/B, else the two workloads when there are exactly two
// (the first in the measurements first). Explicit pairs must exist and share experiments.
std::optional<ev::RatioSummary> choose_ratio(const ev::JoinedData& data, const ev::Summary& summary,
                                             const po::variables_map& v) {
  if (!v.count("ratio")) {
    if (summary.workloads.size() != 2) return std::nullopt;
    ev::RatioSummary r = ev::ratio_errors(data.experiments, summary.workloads[0].workload, summary.workloads[1].workload);
    return r.experiments.empty() ? std::nullopt : std::optional(r);
  }
  const std::string text = v["ratio"].as<std::string>();
  const std::size_t slash = text.find('/');
  const std::string a = text.substr(0, slash), b = slash == std::string::npos ? "" : text.substr(slash + 1);
  if (slash == std::string::npos || a.empty() || b.empty() || a == b) {
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

int run_evaluate(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("predicted", po::value<std::string>()->required(), "predicted times: a `warpsim sweep` CSV")
      ("measured", po::value<std::string>()->required(), "measured times: a measurements CSV (docs/formats.md)")
      ("format", po::value<std::string>(), "text|json|csv (default: from --out, else text)")
      ("out,o", po::value<std::string>(), "write to FILE instead of stdout")
      ("charts", po::value<std::string>(), "write an SVG chart per experiment and ratio experiment into DIR")
      ("keys", po::value<std::string>(), "key columns, e.g. gpu,workload,K,N (default: the parameter columns both files have)")
      ("x", po::value<std::string>()->default_value("N"), "the key column along which an experiment runs")
      ("ratio", po::value<std::string>(), "A/B: time-ratio errors of workload A to B (default: the two workloads, when two)")
      ("allow-missing", "skip measured rows without a prediction (default: an error)");
  po::positional_options_description positional;
  positional.add("predicted", 1).add("measured", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim evaluate PREDICTED.csv MEASURED.csv [--format text|json|csv] [-o FILE] [--charts DIR]\n"
                      "       [--keys gpu,workload,K,N] [--x N] [--ratio A/B] [--allow-missing]",
                      "Compares predicted with measured times as paper 002 does: r = t_model / t_measured per point\n"
                      "(eq. 15), mean and max |1 - r| per experiment (eq. 16), per workload and overall (eq. 19), and\n"
                      "the errors of predicted time ratios between two workloads (eq. 21, 22). docs/evaluation-metrics.md.",
                      options);
  }
  const auto& v = line.values;
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  std::string format_name = v.count("format") ? v["format"].as<std::string>() : "text";
  if (!v.count("format") && out.ends_with(".json")) format_name = "json";
  if (!v.count("format") && out.ends_with(".csv")) format_name = "csv";
  const Format format = parse_format(format_name, {"text", "json", "csv"});

  ev::Evaluation e;
  e.predicted_source = v["predicted"].as<std::string>();
  e.measured_source = v["measured"].as<std::string>();
  e.x = v["x"].as<std::string>();
  ev::JoinOptions join_options;
  if (v.count("keys")) join_options.keys = split_names(v["keys"].as<std::string>(), "--keys");
  join_options.x = e.x;
  join_options.allow_missing = v.count("allow-missing") > 0;
  e.data = ev::join(sim::report::read_csv(e.predicted_source), sim::report::read_csv(e.measured_source), join_options);
  e.summary = ev::summarize(e.data.experiments);
  e.ratio = choose_ratio(e.data, e.summary, v);

  // Everything is computed before anything is written.
  const std::string text = format == Format::json  ? ev::evaluation_json(e).dump(2) + '\n'
                           : format == Format::csv ? ev::render_evaluation_csv(e)
                                                   : ev::render_evaluation_text(e);
  const auto charts = v.count("charts") ? render_charts(e) : std::vector<std::pair<std::string, std::string>>{};
  const std::filesystem::path dir = v.count("charts") ? v["charts"].as<std::string>() : "";
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
      throw InputError(SourceLocation{dir.string()}, "cannot create the folder" + (ec ? ": " + ec.message() : std::string()));
    }
  }
  write_output(text, out);
  if (!dir.empty()) {
    for (const auto& [name, svg] : charts) {
      const std::string path = (dir / name).string();
      write_output(svg, path);
      std::cerr << "warpsim: wrote " << path << '\n';
    }
  }
  return 0;
}

}  // namespace warpsim::cli

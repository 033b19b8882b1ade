#include <filesystem>
#include <iostream>

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {
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
  const std::string format = output_format(v, {{{".json", "json"}, {".csv", "csv"}}, "text", {"text", "json", "csv"}});
  EvaluateRequest request;
  request.predicted = v["predicted"].as<std::string>();
  request.measured = v["measured"].as<std::string>();
  if (v.count("keys")) request.keys = parse_names(v["keys"].as<std::string>(), "--keys");
  request.x = v["x"].as<std::string>();
  if (v.count("ratio")) {
    const std::string text = v["ratio"].as<std::string>();
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos) throw InputError("--ratio " + quote_for_message(text) + ": expected A/B, two different workloads");
    request.ratio.emplace(text.substr(0, slash), text.substr(slash + 1));
  }
  request.allow_missing = v.count("allow-missing") > 0;
  // Everything is computed before anything is written.
  const EvaluateResult result = evaluate(request);
  const std::string text = format == "json" ? to_json(result).dump(2) + '\n' : format == "csv" ? to_csv(result) : to_text(result);
  const std::vector<std::pair<std::string, std::string>> charts =
      v.count("charts") ? to_svg_charts(result) : std::vector<std::pair<std::string, std::string>>{};
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

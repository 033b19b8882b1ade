#include <cctype>
#include <map>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/line_chart.hpp"

namespace warpsim::cli {
namespace {


double number_at(const sim::report::CsvTable& table, std::size_t row, std::size_t column) {
  const std::string& text = table.rows[row][column];
  const std::optional<double> value = sim::report::parse_number(text);
  if (!value) {
    throw InputError(SourceLocation{table.source, table.lines[row], 0},
                     table.header[column] + " " + quote_for_message(text) + " is not a number");
  }
  return *value;
}

}  // namespace

int run_plot(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("results", po::value<std::string>()->required(), "a CSV with a header, e.g. from `warpsim sweep --out`")
      ("x", po::value<std::string>()->default_value("N"), "column on the x axis")
      ("y", po::value<std::string>()->default_value("time_us"), "column on the y axis")
      ("by", po::value<std::string>()->default_value("gpu,workload"), "columns whose values name a series")
      ("where", po::value<std::vector<std::string>>()->composing(), "COLUMN=VALUE: keep only matching rows (repeatable)")
      ("out,o", po::value<std::string>()->required(), "the chart, as SVG")
      ("title", po::value<std::string>(), "chart title (default: Y vs X)")
      ("linear-x", "linear x axis (default logarithmic)")
      ("linear-y", "linear y axis (default logarithmic)");
  po::positional_options_description positional;
  positional.add("results", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim plot RESULTS.csv --x N --y time_us --by gpu,workload [--where K=8] -o chart.svg",
                      "Draws one line per series (rows sharing the --by values) of y against x, log axes by default "
                      "(an x axis of powers of two is ticked 2^k). With two or more --by columns, colour follows the "
                      "first and the dash the others; the --where filter is named under the title.",
                      options);
  }
  const auto& v = line.values;
  const sim::report::CsvTable table = sim::report::read_csv(v["results"].as<std::string>());
  const std::size_t x = table.column(v["x"].as<std::string>()), y = table.column(v["y"].as<std::string>());
  std::vector<std::size_t> by;
  for (const std::string& name : split_commas(v["by"].as<std::string>())) {
    if (!name.empty()) by.push_back(table.column(name));
  }
  std::vector<std::pair<std::size_t, std::string>> filters;
  for (const std::string& entry : v.count("where") ? v["where"].as<std::vector<std::string>>() : Args{}) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) throw InputError("--where " + quote_for_message(entry) + ": expected COLUMN=VALUE");
    filters.emplace_back(table.column(entry.substr(0, equals)), entry.substr(equals + 1));
  }
  std::map<std::string, std::size_t> series_index;  // label -> position, in order of appearance
  std::vector<sim::report::Series> series;
  // With two or more --by columns, colour follows the first (the GPU) and dash the rest (the
  // kernel), in order of appearance: a series can be told apart both ways.
  std::map<std::string, std::size_t> colours, dashes;
  const auto index_of = [](std::map<std::string, std::size_t>& seen, const std::string& value) {
    return seen.emplace(value, seen.size()).first->second;
  };
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    bool keep = true;
    for (const auto& [column, value] : filters) keep = keep && table.rows[r][column] == value;
    if (!keep) continue;
    std::string label, rest;
    for (const std::size_t column : by) {
      if (column != by.front()) rest += table.rows[r][column] + '\x1f';
      // Numbers are named ("K=8"); names speak for themselves ("rtx2080").
      const std::string& value = table.rows[r][column];
      const bool numeric = !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) != 0);
      label += (label.empty() ? "" : " ") + (numeric ? table.header[column] + "=" + value : value);
    }
    const auto [it, added] = series_index.emplace(label, series.size());
    if (added) {
      series.push_back({label.empty() ? table.header[y] : label, {}});
      if (by.size() >= 2) {
        series.back().colour = index_of(colours, table.rows[r][by.front()]);
        series.back().dash = index_of(dashes, rest);
      }
    }
    series[it->second].points.emplace_back(number_at(table, r, x), number_at(table, r, y));
  }
  sim::report::ChartSpec spec;
  spec.x_label = table.header[x];
  spec.y_label = table.header[y];
  spec.title = v.count("title") ? v["title"].as<std::string>() : spec.y_label + " vs " + spec.x_label;
  for (const auto& [column, value] : filters) {
    spec.subtitle += (spec.subtitle.empty() ? "where " : ", ") + table.header[column] + "=" + value;
  }
  spec.log_x = !v.count("linear-x");
  spec.log_y = !v.count("linear-y");
  write_output(sim::report::render_line_chart_svg(std::move(series), spec), v["out"].as<std::string>());
  return 0;
}

}  // namespace warpsim::cli

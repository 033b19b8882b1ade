// warpsim::plot: the series of a results CSV, one per value of the --by columns, and its SVG.
#include <cctype>
#include <map>

#include "warpsim/isa/text_list.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/line_chart.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
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

Chart plot(const PlotRequest& request) {
  const sim::report::CsvTable table = sim::report::read_csv(request.results);
  const std::size_t x = table.column(request.x), y = table.column(request.y);
  std::vector<std::size_t> by;
  for (const std::string& name : split_commas(request.by)) {
    if (!name.empty()) by.push_back(table.column(name));
  }
  std::vector<std::pair<std::size_t, std::string>> filters;
  for (const std::string& entry : request.where) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) throw InputError("--where " + quote_for_message(entry) + ": expected COLUMN=VALUE");
    filters.emplace_back(table.column(entry.substr(0, equals)), entry.substr(equals + 1));
  }
  Chart chart;
  std::map<std::string, std::size_t> series_index;  // label -> position, in order of appearance
  // With two or more `by` columns, colour follows the first (the GPU) and dash the rest (the
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
    const auto [it, added] = series_index.emplace(label, chart.series.size());
    if (added) {
      chart.series.push_back({label.empty() ? table.header[y] : label, {}, {}, {}});
      if (by.size() >= 2) {
        chart.series.back().colour = index_of(colours, table.rows[r][by.front()]);
        chart.series.back().dash = index_of(dashes, rest);
      }
    }
    chart.series[it->second].points.emplace_back(number_at(table, r, x), number_at(table, r, y));
  }
  chart.x_label = table.header[x];
  chart.y_label = table.header[y];
  chart.title = request.title ? *request.title : chart.y_label + " vs " + chart.x_label;
  for (const auto& [column, value] : filters) {
    chart.subtitle += (chart.subtitle.empty() ? "where " : ", ") + table.header[column] + "=" + value;
  }
  chart.log_x = !request.linear_x;
  chart.log_y = !request.linear_y;
  return chart;
}

std::string to_svg(const Chart& chart) {
  std::vector<sim::report::Series> series;
  for (const ChartSeries& s : chart.series) series.push_back({s.label, s.points, s.colour, s.dash});
  sim::report::ChartSpec spec;
  spec.title = chart.title;
  spec.subtitle = chart.subtitle;
  spec.x_label = chart.x_label;
  spec.y_label = chart.y_label;
  spec.log_x = chart.log_x;
  spec.log_y = chart.log_y;
  return sim::report::render_line_chart_svg(std::move(series), spec);
}

}  // namespace warpsim

// Line charts as SVG (log or linear axes), for sweep results: `warpsim plot`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::sim::report {

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in x order
  // Styles by index into the palette and the dash patterns; unset: the series' own colour
  // (its position) and a solid line. Series that differ in two ways (GPU and kernel) take one
  // from each, so that both can be read.
  std::optional<std::size_t> colour{};
  std::optional<std::size_t> dash{};
};

struct ChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = true;
  bool log_y = true;
  bool power_of_two_x = false;       // a log x axis ticked at powers of two, labelled 2^k
                                     // (also when every x is a power of two)
  bool linear_y_from_zero = true;    // a linear y axis starts at 0 (else at the data, padded)
  std::vector<std::string> notes{};  // lines of text under the legend
  std::string subtitle{};            // under the title, e.g. the rows' filter ("where K=8")
};

// Throws InputError when a log axis gets a value <= 0 or there is nothing to draw.
std::string render_line_chart_svg(std::vector<Series> series, const ChartSpec& spec);
// Several charts stacked top to bottom in one SVG (e.g. time and speed-up against M).
std::string render_chart_panels_svg(std::vector<std::pair<std::vector<Series>, ChartSpec>> panels);

}  // namespace warpsim::sim::report

// Line charts as SVG (log or linear axes), for sweep results: `warpsim plot`.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace warpsim::sim::report {

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in x order
};

struct ChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = true;
  bool log_y = true;
  bool power_of_two_x = false;       // a log x axis ticked at powers of two, labelled 2^k
  bool linear_y_from_zero = true;    // a linear y axis starts at 0 (else at the data, padded)
  std::vector<std::string> notes{};  // lines of text under the legend
};

// Throws InputError when a log axis gets a value <= 0 or there is nothing to draw.
std::string render_line_chart_svg(std::vector<Series> series, const ChartSpec& spec);

}  // namespace warpsim::sim::report

// Horizontal bar charts as SVG: one bar per label on a linear axis from 0 (`simulate --gpu a,b
// --chart`: time per GPU).
#pragma once

#include <string>
#include <vector>

namespace warpsim::sim::report {

struct Bar {
  std::string label;  // left of the bar
  double value = 0;   // its length; not negative
  std::string note;   // right of the bar, after the value (e.g. "1.53x")
};

struct BarChartSpec {
  std::string title;
  std::string subtitle;     // under the title
  std::string value_label;  // the axis, e.g. "time (us)"
};

// Throws InputError when there is no bar or a value is negative or not finite.
std::string render_bar_chart_svg(const std::vector<Bar>& bars, const BarChartSpec& spec);

}  // namespace warpsim::sim::report

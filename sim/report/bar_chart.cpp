#include "warpsim/report/bar_chart.hpp"

#include <algorithm>
#include <cmath>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/chart_ticks.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/svg_text.hpp"

namespace warpsim::sim::report {
namespace {

constexpr double kLabelWidth = 150, kTop = 60, kBarHeight = 22, kGap = 8, kPlotWidth = 520, kNoteWidth = 200;

std::string number(double v) { return shortest(std::round(v * 100) / 100); }

}  // namespace

std::string render_bar_chart_svg(const std::vector<Bar>& bars, const BarChartSpec& spec) {
  if (bars.empty()) throw InputError("nothing to chart: no bars");
  double high = 0;
  for (const Bar& bar : bars) {
    if (!std::isfinite(bar.value) || bar.value < 0) throw InputError("cannot chart " + shortest(bar.value) + " as a bar");
    high = std::max(high, bar.value);
  }
  const std::vector<double> ticks = linear_ticks(0, high > 0 ? high : 1);
  const double top_tick = std::max(ticks.empty() ? 1.0 : ticks.back(), high > 0 ? high : 1);
  const auto x = [&](double v) { return kLabelWidth + v / top_tick * kPlotWidth; };
  const double plot_height = static_cast<double>(bars.size()) * (kBarHeight + kGap) + kGap;
  const double width = kLabelWidth + kPlotWidth + kNoteWidth, height = kTop + plot_height + 50;
  std::string svg = svg_header(width, height);
  svg += "<text x=\"" + number(width / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">" +
         escape_xml(spec.title) + "</text>\n";
  if (!spec.subtitle.empty()) {
    svg += "<text x=\"" + number(width / 2) + "\" y=\"40\" text-anchor=\"middle\" fill=\"#555\">" +
           escape_xml(spec.subtitle) + "</text>\n";
  }
  const double bottom = kTop + plot_height;
  for (const double t : ticks) {
    svg += "<line x1=\"" + number(x(t)) + "\" y1=\"" + number(kTop) + "\" x2=\"" + number(x(t)) + "\" y2=\"" +
           number(bottom) + "\" stroke=\"#ddd\"/>\n";
    svg += "<text x=\"" + number(x(t)) + "\" y=\"" + number(bottom + 16) + "\" text-anchor=\"middle\">" +
           escape_xml(tick_label(t)) + "</text>\n";
  }
  svg += "<line x1=\"" + number(kLabelWidth) + "\" y1=\"" + number(kTop) + "\" x2=\"" + number(kLabelWidth) + "\" y2=\"" +
         number(bottom) + "\" stroke=\"#000\"/>\n";
  svg += "<text x=\"" + number(kLabelWidth + kPlotWidth / 2) + "\" y=\"" + number(bottom + 36) +
         "\" text-anchor=\"middle\">" + escape_xml(spec.value_label) + "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& bar = bars[i];
    const double y = kTop + kGap + static_cast<double>(i) * (kBarHeight + kGap);
    const double middle = y + kBarHeight / 2 + 4;
    svg += "<text x=\"" + number(kLabelWidth - 6) + "\" y=\"" + number(middle) + "\" text-anchor=\"end\">" +
           escape_xml(bar.label) + "</text>\n";
    svg += "<rect x=\"" + number(kLabelWidth) + "\" y=\"" + number(y) + "\" width=\"" + number(x(bar.value) - kLabelWidth) +
           "\" height=\"" + number(kBarHeight) + "\" fill=\"" + palette_colour(0) + "\"/>\n";
    svg += "<text x=\"" + number(x(bar.value) + 6) + "\" y=\"" + number(middle) + "\">" +
           escape_xml(shortest(bar.value) + (bar.note.empty() ? "" : "  " + bar.note)) + "</text>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace warpsim::sim::report

#include "warpsim/report/line_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/chart_ticks.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/svg_text.hpp"

namespace warpsim::sim::report {
namespace {

constexpr double kLeft = 80, kTop = 40, kPlotWidth = 640, kPlotHeight = 400, kLegendWidth = 240;
const char* const kPalette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2",
                                "#b279a2", "#eeca3b", "#9d755d", "#ff9da6", "#bab0ac"};
const char* const kDashes[] = {"", "7 4", "2 3", "9 3 2 3", "14 5", "4 2 4 6"};
// Fewer labelled ticks than this and a value cannot be read off the axis.
constexpr std::size_t kMinTicks = 4;

struct Axis {
  double low, high;
  bool log;
  bool powers_of_two = false;  // log axis ticked at 2^k
  double map(double v, double length) const {
    const double a = log ? std::log10(low) : low, b = log ? std::log10(high) : high;
    const double t = log ? std::log10(v) : v;
    return b == a ? length / 2 : (t - a) / (b - a) * length;
  }
  // Decades on a log axis (with 2 and 5 when it spans less than two); 1-2-5 steps on a linear one.
  std::vector<double> ticks() const {
    std::vector<double> out;
    if (log && powers_of_two) {  // at most 16 ticks: every power of two, or every second, ...
      const double first = std::ceil(std::log2(low)), last = std::floor(std::log2(high));
      const double step = std::max(1.0, std::ceil((last - first + 1) / 16));
      for (double k = first; k <= last; k += step) out.push_back(std::exp2(k));
      return out;
    }
    if (log) {  // decades; then 1-2-5 and 1..9 within them until there are enough to read
      for (const std::vector<double>& marks : {std::vector<double>{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
        out.clear();
        for (double decade = std::pow(10.0, std::floor(std::log10(low))); decade <= high * 1.0001; decade *= 10) {
          for (const double m : marks) {
            const double v = decade * m;
            if (v >= low * 0.9999 && v <= high * 1.0001) out.push_back(v);
          }
        }
        if (out.size() >= kMinTicks) break;
      }
      return out;
    }
    return linear_ticks(low, high);
  }
};

bool touches_zero(const std::vector<Series>& series, bool is_x) {
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      if ((is_x ? x : y) == 0) return true;
    }
  }
  return false;
}

bool all_powers_of_two(const std::vector<Series>& series) {
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      if (!(x > 0) || std::exp2(std::round(std::log2(x))) != x) return false;
    }
  }
  return true;
}

Axis make_axis(const std::vector<Series>& series, bool is_x, bool log, const std::string& name, bool from_zero = true) {
  double low = INFINITY, high = -INFINITY;
  for (const auto& s : series) {
    for (const auto& [x, y] : s.points) {
      const double v = is_x ? x : y;
      if (log && !(v > 0)) throw InputError("cannot put " + shortest(v) + " on the logarithmic " + name + " axis (use --linear-" + (is_x ? "x" : "y") + ")");
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  if (!log && low > 0 && !is_x && from_zero) low = 0;  // linear y axes start at zero unless told
  // A little room so that no point sits on the frame (a zero on a from-zero axis too).
  if (log) {
    const double pad = std::pow(high / low, 0.04);
    low /= pad == 1 ? 1.5 : pad;
    high *= pad == 1 ? 1.5 : pad;
  } else if (high > low) {
    const double pad = (high - low) * 0.04;
    high += pad;
    low -= (!is_x && from_zero && low == 0 && !touches_zero(series, is_x)) ? 0 : pad;
  } else {
    low -= 1;
    high += 1;
  }
  return {low, high, log};
}

}  // namespace

// Tick labels without exponents for whole numbers ("100000", not "1e+05"), and without the
// rounding noise of adding up steps ("0.6", not "0.6000000000000001").
std::string tick_label(double v) {
  if (std::abs(v) < 1e15 && std::nearbyint(v) == v) return std::to_string(static_cast<long long>(v));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g", v);
  return buffer;
}

std::vector<double> linear_ticks(double low, double high) {
  std::vector<double> out;
  const double raw = (high - low) / 6;
  const double power = std::pow(10.0, std::floor(std::log10(raw > 0 ? raw : 1)));
  double step = 10 * power;
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * power) {
      step = m * power;
      break;
    }
  }
  for (double v = std::ceil(low / step) * step; v <= high + step * 1e-9; v += step) out.push_back(v);
  return out;
}

const char* palette_colour(std::size_t i) { return kPalette[i % std::size(kPalette)]; }

namespace {

constexpr double kChartWidth = kLeft + kPlotWidth + 30 + kLegendWidth, kChartHeight = kTop + kPlotHeight + 60;

// The chart's elements, without the SVG header and footer.
std::string chart_body(std::vector<Series> series, const ChartSpec& spec) {
  std::erase_if(series, [](const Series& s) { return s.points.empty(); });
  if (series.empty()) throw InputError("nothing to plot: no rows matched");
  for (auto& s : series) std::sort(s.points.begin(), s.points.end());
  Axis x = make_axis(series, true, spec.log_x, "x");
  const Axis y = make_axis(series, false, spec.log_y, "y", spec.linear_y_from_zero);
  x.powers_of_two = spec.power_of_two_x || all_powers_of_two(series);
  const auto px = [&](double v) { return kLeft + x.map(v, kPlotWidth); };
  const auto py = [&](double v) { return kTop + kPlotHeight - y.map(v, kPlotHeight); };

  std::string svg = "<rect width=\"" + fixed(kChartWidth, 0) + "\" height=\"" + fixed(kChartHeight, 0) + "\" fill=\"white\"/>\n";
  svg += "<text x=\"" + fixed(kLeft, 0) + "\" y=\"" + (spec.subtitle.empty() ? "22" : "17") +
         "\" font-size=\"14\" font-weight=\"bold\">" + escape_xml(spec.title) + "</text>\n";
  if (!spec.subtitle.empty()) {
    svg += "<text x=\"" + fixed(kLeft, 0) + "\" y=\"32\" font-size=\"11\">" + escape_xml(spec.subtitle) + "</text>\n";
  }
  for (const double t : x.ticks()) {
    svg += "<line x1=\"" + fixed(px(t), 2) + "\" y1=\"" + fixed(kTop, 2) + "\" x2=\"" + fixed(px(t), 2) + "\" y2=\"" +
           fixed(kTop + kPlotHeight, 2) + "\" stroke=\"#e3e3e3\"/>\n<text x=\"" + fixed(px(t), 2) + "\" y=\"" +
           fixed(kTop + kPlotHeight + 16, 2) + "\" text-anchor=\"middle\">" +
           (x.powers_of_two && x.log ? "2<tspan dy=\"-5\" font-size=\"9\">" + tick_label(std::log2(t)) + "</tspan>" : tick_label(t)) +
           "</text>\n";
  }
  for (const double t : y.ticks()) {
    svg += "<line x1=\"" + fixed(kLeft, 2) + "\" y1=\"" + fixed(py(t), 2) + "\" x2=\"" + fixed(kLeft + kPlotWidth, 2) +
           "\" y2=\"" + fixed(py(t), 2) + "\" stroke=\"#e3e3e3\"/>\n<text x=\"" + fixed(kLeft - 6, 2) + "\" y=\"" +
           fixed(py(t) + 4, 2) + "\" text-anchor=\"end\">" + tick_label(t) + "</text>\n";
  }
  svg += "<rect x=\"" + fixed(kLeft, 2) + "\" y=\"" + fixed(kTop, 2) + "\" width=\"" + fixed(kPlotWidth, 2) +
         "\" height=\"" + fixed(kPlotHeight, 2) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg += "<text x=\"" + fixed(kLeft + kPlotWidth / 2, 2) + "\" y=\"" + fixed(kTop + kPlotHeight + 38, 2) +
         "\" text-anchor=\"middle\">" + escape_xml(spec.x_label) + (spec.log_x ? " (log)" : "") + "</text>\n";
  svg += "<text transform=\"translate(18," + fixed(kTop + kPlotHeight / 2, 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escape_xml(spec.y_label) + (spec.log_y ? " (log)" : "") + "</text>\n";
  for (std::size_t i = 0; i < series.size(); ++i) {
    const char* colour = kPalette[series[i].colour.value_or(i) % std::size(kPalette)];
    const std::string dash = kDashes[series[i].dash.value_or(0) % std::size(kDashes)];
    const std::string dash_attribute = dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"";
    std::string path;
    for (const auto& [vx, vy] : series[i].points) path += (path.empty() ? "" : " ") + fixed(px(vx), 2) + "," + fixed(py(vy), 2);
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.8\"" + dash_attribute +
           " points=\"" + path + "\"/>\n";
    for (const auto& [vx, vy] : series[i].points) {
      svg += "<circle cx=\"" + fixed(px(vx), 2) + "\" cy=\"" + fixed(py(vy), 2) + "\" r=\"2.6\" fill=\"" + colour +
             "\"><title>" + escape_xml(series[i].label) + ": " + shortest(vx) + ", " + shortest(vy) + "</title></circle>\n";
    }
    const double ly = kTop + 8 + 18 * static_cast<double>(i);
    svg += "<line x1=\"" + fixed(kLeft + kPlotWidth + 30, 2) + "\" y1=\"" + fixed(ly, 2) + "\" x2=\"" +
           fixed(kLeft + kPlotWidth + 58, 2) + "\" y2=\"" + fixed(ly, 2) + "\" stroke=\"" + colour +
           "\" stroke-width=\"3\"" + dash_attribute + "/>\n<text x=\"" + fixed(kLeft + kPlotWidth + 64, 2) + "\" y=\"" + fixed(ly + 4, 2) + "\">" +
           escape_xml(series[i].label) + "</text>\n";
  }
  for (std::size_t i = 0; i < spec.notes.size(); ++i) {
    const double ny = kTop + 8 + 18 * static_cast<double>(series.size() + i) + 10;
    svg += "<text x=\"" + fixed(kLeft + kPlotWidth + 30, 2) + "\" y=\"" + fixed(ny + 4, 2) + "\">" + escape_xml(spec.notes[i]) + "</text>\n";
  }
  return svg;
}

}  // namespace

std::string render_line_chart_svg(std::vector<Series> series, const ChartSpec& spec) {
  return svg_header(kChartWidth, kChartHeight) + chart_body(std::move(series), spec) + "</svg>\n";
}

std::string render_chart_panels_svg(std::vector<std::pair<std::vector<Series>, ChartSpec>> panels) {
  std::string svg = svg_header(kChartWidth, kChartHeight * static_cast<double>(panels.size()));
  for (std::size_t i = 0; i < panels.size(); ++i) {
    svg += "<g transform=\"translate(0," + fixed(kChartHeight * static_cast<double>(i), 0) + ")\">\n" +
           chart_body(std::move(panels[i].first), panels[i].second) + "</g>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace warpsim::sim::report

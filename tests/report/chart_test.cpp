#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/bar_chart.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/line_chart.hpp"
#include "support/located_error.hpp"

namespace warpsim::sim::report {
namespace {

TEST(CsvTable, ReadsQuotedFieldsAndKeepsLines) {
  const CsvTable t = parse_csv("a,b\r\n1,\"x,\"\"y\"\"\"\n\n2,z\n", "t.csv");
  EXPECT_EQ(t.header, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0][1], "x,\"y\"");
  EXPECT_EQ(t.lines, (std::vector<int>{2, 4}));
  EXPECT_EQ(t.column("b"), 1u);
  EXPECT_THROW(t.column("c"), InputError);
}

TEST(CsvTable, MalformedFilesNameTheLine) {
  const auto parse = [](const std::string& text, const std::string& file) { return parse_csv(text, file); };
  testing_support::expect_located_error(parse, {"a,b\n1,2\n3\n", 3, "1 fields where the header has 2"}, "t.csv");
  testing_support::expect_located_error(parse, {"a,b\n1,\"2\n", 2, "unterminated"}, "t.csv");
  testing_support::expect_located_error(parse, {"", 0, "empty"}, "t.csv");
}

TEST(BarChart, OneBarPerLabelFromZero) {
  const std::string svg = render_bar_chart_svg({{"a100", 12.5, "1.00x"}, {"h<100>", 25, "0.50x"}}, {"t", "s", "time (us)"});
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 5, true);
  EXPECT_NE(svg.find(">a100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">h&lt;100&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">25  0.50x</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0</text>"), std::string::npos);  // the axis starts at 0
  EXPECT_EQ(svg.find("<rect", svg.find("<rect") + 1) != std::string::npos, true);  // two bars
  EXPECT_THROW(render_bar_chart_svg({}, {}), InputError);
  EXPECT_THROW(render_bar_chart_svg({{"x", -1, ""}}, {}), InputError);
}

TEST(LineChart, DrawsOneLinePerSeriesWithLogAxes) {
  const std::string svg = render_line_chart_svg(
      {{"a", {{60, 6.2}, {128, 6.3}, {1 << 20, 37.0}}}, {"b <&>", {{60, 30.0}, {1 << 20, 129.0}}}}, {"t", "N", "time_us"});
  std::size_t polylines = 0;
  for (std::size_t at = 0; (at = svg.find("<polyline", at)) != std::string::npos; ++at) ++polylines;
  EXPECT_EQ(polylines, 2u);
  EXPECT_NE(svg.find("b &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">1000000<"), std::string::npos);  // a decade tick, written out
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

TEST(LineChart, PowersOfTwoAreTickedAsSuch) {
  const std::string svg = render_line_chart_svg({{"a", {{64, 1.0}, {1024, 2.0}, {1 << 20, 3.0}}}}, {"t", "N", "time_us"});
  EXPECT_NE(svg.find(">2<tspan dy=\"-5\" font-size=\"9\">20</tspan>"), std::string::npos);  // 2^20
  EXPECT_EQ(svg.find(">1000000<"), std::string::npos);
}

TEST(LineChart, ALogAxisWithinADecadeStillHasLabelsToReadAValueBy) {
  // 6.2 .. 37 spans less than a decade: 1-2-5 gives 10 and 20 only, so 1..9 per decade are used.
  const std::string svg = render_line_chart_svg({{"a", {{64, 6.2}, {128, 37.0}}}}, {"t", "N", "time_us"});
  EXPECT_GE(count(svg, "text-anchor=\"end\""), 4u);
  for (const char* label : {">7<", ">8<", ">10<", ">20<", ">30<"}) EXPECT_NE(svg.find(label), std::string::npos) << label;
}

TEST(LineChart, SeriesStyledTwoWaysAndTheFilterUnderTheTitle) {
  ChartSpec spec{"t", "N", "time_us"};
  spec.subtitle = "where K=8";
  const std::string svg = render_line_chart_svg(
      {{"h100 A", {{64, 1.0}, {128, 2.0}}, 0, 0}, {"h100 B", {{64, 2.0}, {128, 3.0}}, 0, 1},
       {"a100 A", {{64, 3.0}, {128, 4.0}}, 1, 0}},
      spec);
  EXPECT_NE(svg.find(">where K=8</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"#4c78a8\""), 4u);  // two series of the first colour, line and legend each
  EXPECT_EQ(count(svg, "stroke-dasharray=\"7 4\""), 2u);  // the second dash: one series, line and legend
}

TEST(LineChart, NoPointSitsOnTheFrame) {
  // A linear y axis from zero with a zero value, and a linear x axis: the frame is at y = 440 and
  // x = 80 and 720; every point lies strictly inside.
  const std::string svg = render_line_chart_svg({{"a", {{1, 0.0}, {2, 5.0}, {3, 10.0}}}}, {"t", "x", "y", false, false});
  for (std::size_t at = 0; (at = svg.find("<circle cx=\"", at)) != std::string::npos; ++at) {
    const double cx = std::stod(svg.substr(at + 12));
    const double cy = std::stod(svg.substr(svg.find("cy=\"", at) + 4));
    EXPECT_GT(cx, 80.0);
    EXPECT_LT(cx, 720.0);
    EXPECT_GT(cy, 40.0);
    EXPECT_LT(cy, 440.0);
  }
}

TEST(LineChart, RefusesNonPositiveValuesOnLogAxesAndEmptyCharts) {
  EXPECT_THROW(render_line_chart_svg({{"a", {{0, 1}}}}, {"t", "x", "y"}), InputError);
  EXPECT_NO_THROW(render_line_chart_svg({{"a", {{0, 1}}}}, {"t", "x", "y", false, true}));
  EXPECT_THROW(render_line_chart_svg({}, {"t", "x", "y"}), InputError);
}

}  // namespace
}  // namespace warpsim::sim::report

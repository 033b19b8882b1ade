#include <gtest/gtest.h>

#include "isa/input_error.hpp"
#include "sim/report/csv_table.hpp"
#include "sim/report/line_chart.hpp"
#include "tests/support/located_error.hpp"

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

TEST(LineChart, DrawsOneLinePerSeriesWithLogAxes) {
  const std::string svg = render_line_chart_svg(
      {{"a", {{64, 6.2}, {128, 6.3}, {1 << 20, 37.0}}}, {"b <&>", {{64, 30.0}, {1 << 20, 129.0}}}}, {"t", "N", "time_us"});
  std::size_t polylines = 0;
  for (std::size_t at = 0; (at = svg.find("<polyline", at)) != std::string::npos; ++at) ++polylines;
  EXPECT_EQ(polylines, 2u);
  EXPECT_NE(svg.find("b &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">1000000<"), std::string::npos);  // a decade tick, written out
}

TEST(LineChart, RefusesNonPositiveValuesOnLogAxesAndEmptyCharts) {
  EXPECT_THROW(render_line_chart_svg({{"a", {{0, 1}}}}, {"t", "x", "y"}), InputError);
  EXPECT_NO_THROW(render_line_chart_svg({{"a", {{0, 1}}}}, {"t", "x", "y", false, true}));
  EXPECT_THROW(render_line_chart_svg({}, {"t", "x", "y"}), InputError);
}

}  // namespace
}  // namespace warpsim::sim::report

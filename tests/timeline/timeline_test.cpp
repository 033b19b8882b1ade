#include "warpsim/timeline/timeline.hpp"

#include <expat.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "warpsim/isa/kp_format.hpp"
#include "warpsim/core/simulate_core.hpp"

namespace warpsim::sim::report {
namespace {

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

TimelineRun listing1_run(const char* file) {
  const isa::Program program = isa::load_kp_file(kSourceDir + file);
  TimelineRun run;
  run.title = program.name();
  run.warps = 3;
  run.total = core::simulate_core(program, 3, 2'000, {.events = &run.events});
  return run;
}

struct SvgCounts {
  int elements = 0;
  std::map<std::string, int> rect_classes;
};

// Parses the SVG with expat (fails the test on malformed XML) and counts rects by class.
SvgCounts parse_svg(const std::string& svg) {
  SvgCounts counts;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &counts);
  XML_SetStartElementHandler(parser, [](void* data, const XML_Char* name, const XML_Char** attributes) {
    auto& c = *static_cast<SvgCounts*>(data);
    ++c.elements;
    if (std::string(name) != "rect") return;
    for (int i = 0; attributes[i]; i += 2) {
      if (std::string(attributes[i]) == "class") ++c.rect_classes[attributes[i + 1]];
    }
  });
  const bool ok = XML_Parse(parser, svg.data(), static_cast<int>(svg.size()), 1) == XML_STATUS_OK;
  EXPECT_TRUE(ok) << XML_ErrorString(XML_GetErrorCode(parser)) << " at line " << XML_GetCurrentLineNumber(parser);
  XML_ParserFree(parser);
  return counts;
}

// Figure 7 (load variant): calc periods and front ends fill [0,6], [15,54], [61,73], [74,86],
// [87,99]; the core package idles while every warp waits: 6-15, 54-61, 73-74, 86-87, and
// 99-112 for the last store's transaction.
TEST(Timeline, IdlePeriodsOfFigure7) {
  const TimelineRun run = listing1_run("/workloads/examples/listing1_load.kp");
  const std::vector<std::pair<isa::Millicycles, isa::Millicycles>> expected = {
      {6'000, 15'000}, {54'000, 61'000}, {73'000, 74'000}, {86'000, 87'000}, {99'000, 112'000}};
  EXPECT_EQ(idle_periods(run), expected);
}

// Figure 8 (store variant): after the first loads (0-6, idle to 15) the warps run back to back
// to 90, then the core package waits for w2's first store until 111.
TEST(Timeline, IdlePeriodsOfFigure8) {
  const TimelineRun run = listing1_run("/workloads/examples/listing1_store.kp");
  const std::vector<std::pair<isa::Millicycles, isa::Millicycles>> expected = {{6'000, 15'000}, {90'000, 111'000}};
  EXPECT_EQ(idle_periods(run), expected);
}

TEST(Timeline, SvgIsWellFormedAndDrawsEveryPart) {
  const TimelineRun run = listing1_run("/workloads/examples/listing1_load.kp");
  const std::string svg = render_timeline_svg(run);
  const SvgCounts counts = parse_svg(svg);
  // 9 calcs, 9 memory accesses (each a front end and a transaction), 5 idle periods, plus one
  // legend swatch of each class.
  EXPECT_EQ(counts.rect_classes.at("calc"), 9 + 1);
  EXPECT_EQ(counts.rect_classes.at("frontend"), 9 + 1);
  EXPECT_EQ(counts.rect_classes.at("load"), 6 + 1);
  EXPECT_EQ(counts.rect_classes.at("store"), 3 + 1);
  EXPECT_EQ(counts.rect_classes.at("idle"), 5 + 1);
  EXPECT_NE(svg.find("T_c = 112 cycles"), std::string::npos);
}

TEST(Timeline, LongRunsAreSummarisedAndStayWellFormed) {
  const isa::Program program = isa::parse_kp("repeat 500\n  load 300\n  calc 7\nend\n", "long.kp");
  TimelineRun run;
  run.title = "long <run> & more";  // escaped in the SVG
  run.warps = 48;
  run.total = core::simulate_core(program, 48, 4'000, {.events = &run.events});
  const std::string svg = render_timeline_svg(run);
  const SvgCounts counts = parse_svg(svg);
  EXPECT_LE(counts.rect_classes.at("calc") + counts.rect_classes.at("load"), static_cast<int>(kMaxTimelineEvents) + 2);
  EXPECT_NE(svg.find("showing the first"), std::string::npos);
}

// Required fields of the trace-event format: every event has name, ph, pid; X events ts, dur,
// tid; C events ts and numeric args; M events args.name.
TEST(Timeline, TraceHasTheRequiredFields) {
  const TimelineRun run = listing1_run("/workloads/examples/listing1_load.kp");
  const auto trace = nlohmann::json::parse(render_trace_json(run));
  ASSERT_TRUE(trace.contains("traceEvents"));
  int slices = 0, transactions = 0, counters = 0, max_waiting = 0;
  for (const auto& e : trace["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e.contains("ph") && e.contains("pid")) << e;
    const std::string ph = e["ph"];
    if (ph == "X") {
      ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e["tid"].is_number()) << e;
      EXPECT_GE(e["dur"].get<double>(), 0);
      ++slices;
      transactions += e["name"].get<std::string>().ends_with("transaction");
    } else if (ph == "C") {
      ASSERT_TRUE(e["ts"].is_number() && e["args"]["warps"].is_number()) << e;
      ++counters;
      max_waiting = std::max(max_waiting, e["args"]["warps"].get<int>());
    } else {
      ASSERT_EQ(ph, "M");
      ASSERT_TRUE(e["args"]["name"].is_string()) << e;
    }
  }
  EXPECT_EQ(slices, 18 + 9);  // 18 instructions, 9 of them memory accesses with a transaction slice
  EXPECT_EQ(transactions, 9);
  EXPECT_GT(counters, 1);
  EXPECT_EQ(max_waiting, 3);  // all three warps wait for their first loads at once
}

}  // namespace
}  // namespace warpsim::sim::report

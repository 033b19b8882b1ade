// Seeing a core-package run: the per-warp timeline of the paper's Figs 7 and 8 as SVG, and the
// same events in the Chrome trace-event format (Perfetto, chrome://tracing).
#pragma once

#include <string>
#include <vector>

#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::report {

struct TimelineRun {
  std::string title;                     // e.g. "listing1_load, 3 warps, t_m = 2"
  std::size_t warps = 0;
  isa::Millicycles total = 0;            // T_c
  std::vector<core::CoreEvent> events;   // as recorded by the engine
};

// Above 20 events a warp (at most 3000) the SVG shows the run's first rounds, where the schedule
// settles, and says what it left out; the trace keeps everything.
inline constexpr std::size_t kTimelineEventsPerWarp = 20;
inline constexpr std::size_t kMaxTimelineEvents = 3000;

// One row per warp: calc periods, the SIMT front end of each memory access (t_m), its
// transaction, and the periods when the whole core package is idle; legend, axis and T_c.
std::string render_timeline_svg(const TimelineRun& run);

// Chrome trace events: one track per warp for calc and front ends, one per warp for memory
// transactions, and a counter of warps with a load outstanding. Time unit: 1 cycle = 1 "us".
std::string render_trace_json(const TimelineRun& run);

// Periods in which no warp calculates or issues (the paper's grey idle periods), [start, end).
std::vector<std::pair<isa::Millicycles, isa::Millicycles>> idle_periods(const TimelineRun& run);

}  // namespace warpsim::sim::report

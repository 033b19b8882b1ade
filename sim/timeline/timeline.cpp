#include "warpsim/timeline/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "warpsim/report/number_format.hpp"
#include "warpsim/report/svg_text.hpp"

namespace warpsim::sim::report {
namespace {

using isa::Millicycles;
using isa::OpKind;

constexpr double kPlotWidth = 900, kLeft = 56, kTop = 44, kRight = 24;

// Axis step of 1, 2 or 5 times a power of ten giving about eight ticks.
double tick_step(double span) {
  const double raw = span / 8;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * power) return m * power;
  }
  return 10 * power;
}

std::string rect(double x, double y, double w, double h, const std::string& css_class, const std::string& tip) {
  return "<rect class=\"" + css_class + "\" x=\"" + fixed(x, 2) + "\" y=\"" + fixed(y, 2) + "\" width=\"" +
         fixed(std::max(w, 0.5), 2) + "\" height=\"" + fixed(h, 2) + "\"><title>" + tip + "</title></rect>\n";
}

}  // namespace

std::vector<std::pair<Millicycles, Millicycles>> idle_periods(const TimelineRun& run) {
  // Calc periods and front ends never overlap and the engine records them in issue order, which
  // is time order; the gaps between them, up to T_c, are the idle periods.
  std::vector<std::pair<Millicycles, Millicycles>> busy, idle;
  for (const auto& e : run.events) busy.emplace_back(e.start, e.issue_end);
  Millicycles cursor = 0;
  for (const auto& [start, end] : busy) {
    if (start > cursor) idle.emplace_back(cursor, start);
    cursor = std::max(cursor, end);
  }
  if (run.total > cursor) idle.emplace_back(cursor, run.total);
  return idle;
}

std::string render_timeline_svg(const TimelineRun& run) {
  // Long runs: draw the beginning, up to kMaxTimelineEvents events, and say so.
  Millicycles shown_until = run.total;
  std::size_t shown_events = run.events.size();
  const std::size_t cap = std::min(kMaxTimelineEvents, std::max<std::size_t>(60, kTimelineEventsPerWarp * run.warps));
  if (run.events.size() > cap) {
    shown_events = cap;
    shown_until = run.events[cap].start;
  }
  const double span = std::max(isa::to_cycles(shown_until), 1.0);
  const double row = run.warps > 24 ? std::max(8.0, 480.0 / static_cast<double>(run.warps)) : 22.0;
  const double plot_height = row * static_cast<double>(run.warps);
  const double height = kTop + plot_height + 78;
  const double width = kLeft + kPlotWidth + kRight;
  const auto x_of = [&](Millicycles t) { return kLeft + isa::to_cycles(t) / span * kPlotWidth; };
  const auto clip = [&](Millicycles t) { return std::min(t, shown_until); };

  std::string svg = svg_header(width, height);
  svg +=
      "<defs><pattern id=\"hatch-load\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fde7c6\"/><line x1=\"0\" y1=\"0\" "
      "x2=\"0\" y2=\"6\" stroke=\"#d9822b\" stroke-width=\"2\"/></pattern>"
      "<pattern id=\"hatch-store\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
      "patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" fill=\"#d8f0dc\"/><line x1=\"0\" y1=\"0\" "
      "x2=\"0\" y2=\"6\" stroke=\"#2e8b57\" stroke-width=\"2\"/></pattern></defs>\n"
      "<style>.calc{fill:#4c78a8;stroke:white;stroke-width:0.6}.frontend{fill:#111}.load{fill:url(#hatch-load);stroke:#d9822b;stroke-width:0.5}"
      ".store{fill:url(#hatch-store);stroke:#2e8b57;stroke-width:0.5}.idle{fill:#bbb;opacity:0.45}"
      ".grid{stroke:#ddd}.axis{stroke:#333}</style>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + fixed(kLeft, 0) + "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" + escape_xml(run.title) +
         ": T_c = " + isa::format_cycles(run.total) + " cycles</text>\n";
  if (shown_until < run.total) {
    svg += "<text x=\"" + fixed(kLeft, 0) + "\" y=\"36\" fill=\"#a33\">showing the first " +
           isa::format_cycles(shown_until) + " cycles (" + std::to_string(shown_events) + " of " +
           std::to_string(run.events.size()) + " instructions); the trace (--trace) has them all</text>\n";
  }
  // Axis with ticks and a light grid.
  const double step = tick_step(span);
  const double axis_y = kTop + plot_height;
  for (double t = 0; t <= span + 1e-9; t += step) {
    const double x = kLeft + t / span * kPlotWidth;
    svg += "<line class=\"grid\" x1=\"" + fixed(x, 2) + "\" y1=\"" + fixed(kTop, 2) + "\" x2=\"" + fixed(x, 2) +
           "\" y2=\"" + fixed(axis_y, 2) + "\"/>\n<text x=\"" + fixed(x, 2) + "\" y=\"" + fixed(axis_y + 16, 2) +
           "\" text-anchor=\"middle\">" + shortest(t) + "</text>\n";
  }
  svg += "<line class=\"axis\" x1=\"" + fixed(kLeft, 2) + "\" y1=\"" + fixed(axis_y, 2) + "\" x2=\"" +
         fixed(kLeft + kPlotWidth, 2) + "\" y2=\"" + fixed(axis_y, 2) + "\"/>\n<text x=\"" +
         fixed(kLeft + kPlotWidth / 2, 2) + "\" y=\"" + fixed(axis_y + 34, 2) +
         "\" text-anchor=\"middle\">time (cycles)</text>\n";
  // Idle periods of the whole core package, behind the warps.
  for (const auto& [start, end] : idle_periods(run)) {
    if (start >= shown_until) break;
    svg += rect(x_of(start), kTop, x_of(clip(end)) - x_of(start), plot_height, "idle",
                "idle " + isa::format_cycles(start) + "-" + isa::format_cycles(end));
  }
  const bool label_every_row = row >= 12;
  for (std::size_t w = 0; w < run.warps; ++w) {
    if (label_every_row || w % 5 == 0) {
      svg += "<text x=\"" + fixed(kLeft - 8, 2) + "\" y=\"" + fixed(kTop + row * (static_cast<double>(w) + 0.5) + 4, 2) +
             "\" text-anchor=\"end\">w" + std::to_string(w) + "</text>\n";
    }
  }
  // Transactions of one warp may overlap (a store still in flight when the next one issues): two
  // lanes per row keep both visible.
  std::vector<Millicycles> lane_free(run.warps * 2, 0);
  for (std::size_t i = 0; i < shown_events; ++i) {
    const core::CoreEvent& e = run.events[i];
    const double y = kTop + row * e.warp;
    const std::string when = isa::format_cycles(e.start) + "-" + isa::format_cycles(e.end);
    if (e.kind == OpKind::calc) {
      svg += rect(x_of(e.start), y + row * 0.15, x_of(clip(e.end)) - x_of(e.start), row * 0.7, "calc", "calc " + when);
      continue;
    }
    const std::string kind = isa::to_string(e.kind);
    // The transaction as a thinner hatched bar from the issue to its completion, the front end on top.
    const std::size_t lane = lane_free[2 * e.warp] <= e.start ? 0 : 1;
    lane_free[2 * e.warp + lane] = std::max(lane_free[2 * e.warp + lane], e.end);
    svg += rect(x_of(e.start), y + row * (0.2 + 0.32 * static_cast<double>(lane)), x_of(clip(e.end)) - x_of(e.start),
                row * 0.28, kind, kind + " transaction " + when);
    svg += rect(x_of(e.start), y + row * 0.15, x_of(clip(e.issue_end)) - x_of(e.start), row * 0.7, "frontend",
                kind + " SIMT front end " + isa::format_cycles(e.start) + "-" + isa::format_cycles(e.issue_end));
  }
  // Legend.
  const double legend_y = axis_y + 50;
  double legend_x = kLeft;
  for (const auto& [css, label] : std::vector<std::pair<std::string, std::string>>{
           {"calc", "calc"}, {"frontend", "SIMT front end (t_m)"}, {"load", "load transaction"},
           {"store", "store transaction"}, {"idle", "core package idle"}}) {
    svg += rect(legend_x, legend_y, 18, 12, css, label);
    svg += "<text x=\"" + fixed(legend_x + 24, 2) + "\" y=\"" + fixed(legend_y + 11, 2) + "\">" + label + "</text>\n";
    legend_x += 40 + 7.0 * static_cast<double>(label.size());
  }
  svg += "</svg>\n";
  return svg;
}

std::string render_trace_json(const TimelineRun& run) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  const auto meta = [&](int tid, const std::string& name) {
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", name}}}});
  };
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0},
                    {"args", {{"name", run.title + " (time unit: 1 cycle)"}}}});
  for (std::size_t w = 0; w < run.warps; ++w) {
    meta(static_cast<int>(2 * w + 1), "w" + std::to_string(w));
    meta(static_cast<int>(2 * w + 2), "w" + std::to_string(w) + " transactions");
  }
  for (const core::CoreEvent& e : run.events) {
    const int tid = static_cast<int>(2 * e.warp + 1);
    const std::string kind = isa::to_string(e.kind);
    const Millicycles issue_end = e.kind == OpKind::calc ? e.end : e.issue_end;
    events.push_back({{"name", e.kind == OpKind::calc ? kind : kind + " front end"}, {"ph", "X"}, {"pid", 1},
                      {"tid", tid}, {"ts", isa::to_cycles(e.start)}, {"dur", isa::to_cycles(issue_end - e.start)}});
    if (e.kind == OpKind::calc) continue;
    events.push_back({{"name", kind + " transaction"}, {"ph", "X"}, {"pid", 1}, {"tid", tid + 1},
                      {"ts", isa::to_cycles(e.start)}, {"dur", isa::to_cycles(e.end - e.start)}});
  }
  // The counter: a warp counts from the issue of a load until its last overlapping load completes.
  std::map<Millicycles, int> waiting_changes;
  std::vector<std::vector<std::pair<Millicycles, Millicycles>>> per_warp(run.warps);
  for (const core::CoreEvent& e : run.events) {
    if (e.kind != OpKind::load) continue;
    auto& list = per_warp[e.warp];
    if (!list.empty() && e.start < list.back().second) {
      list.back().second = std::max(list.back().second, e.end);
    } else {
      list.emplace_back(e.start, e.end);
    }
  }
  for (const auto& list : per_warp) {
    for (const auto& [start, end] : list) {
      ++waiting_changes[start];
      --waiting_changes[end];
    }
  }
  int waiting = 0;
  events.push_back({{"name", "warps with loads outstanding"}, {"ph", "C"}, {"pid", 1}, {"ts", 0}, {"args", {{"warps", 0}}}});
  for (const auto& [time, change] : waiting_changes) {
    if (change == 0) continue;
    waiting += change;
    events.push_back({{"name", "warps with loads outstanding"}, {"ph", "C"}, {"pid", 1},
                      {"ts", isa::to_cycles(time)}, {"args", {{"warps", waiting}}}});
  }
  nlohmann::ordered_json trace;
  trace["traceEvents"] = std::move(events);
  trace["displayTimeUnit"] = "ns";
  trace["otherData"] = {{"title", run.title}, {"T_c_cycles", cycles_json(run.total)}, {"time_unit", "cycles"}};
  return trace.dump() + '\n';
}

}  // namespace warpsim::sim::report

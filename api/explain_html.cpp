// `warpsim explain --format html`: one self-contained page (inline CSS and SVG, no script, nothing
// fetched), and its charts: the Occupancy Calculator's three graphs and the roofline.
#include <algorithm>
#include <cmath>
#include <map>

#include "explain.hpp"
#include "explain_parts.hpp"
#include "limits.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/line_chart.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/svg_text.hpp"

namespace warpsim {
namespace {

using sim::report::escape_xml;
using sim::report::shortest;

// A source listing longer than this shows the hot lines with a few lines around each.
constexpr std::size_t kWholeListing = 2000;
constexpr int kContext = 3;

std::string axis_label(const std::string& axis) {
  if (axis == "block_size") return "threads per block";
  if (axis == "registers") return "registers per thread";
  return "shared memory per block (bytes)";
}

// An SVG document's drawing without its XML declaration, to sit inside HTML.
std::string inline_svg(const std::string& svg) {
  const auto start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

// A share as a horizontal bar with its percentage.
std::string bar(double share) {
  const double width = std::clamp(share, 0.0, 1.0) * 100;
  return "<td class=\"bar\"><div style=\"width:" + sim::report::fixed(width, 1) + "%\"></div></td><td>" +
         escape_xml(api::percent(share)) + "</td>";
}

// The file with the most time on its lines, with a heat margin: each line's share of the warps' time.
std::string listing(const std::vector<HotLine>& hot) {
  std::map<std::string, double> per_file;
  for (const HotLine& h : hot) per_file[h.file] += h.share;
  std::string file;
  double most = -1;
  for (const auto& [f, share] : per_file) {
    if (!f.empty() && share > most) file = f, most = share;
  }
  const std::vector<std::string> lines = api::file_lines(file);
  if (lines.empty()) return "";
  std::map<int, double> share;
  double hottest = 0;
  for (const HotLine& h : hot) {
    if (h.file != file) continue;
    share[h.line] += h.share;
    hottest = std::max(hottest, share[h.line]);
  }
  std::vector<bool> shown(lines.size() + 1, lines.size() <= kWholeListing);
  for (const auto& [line, s] : share) {
    for (int k = std::max(1, line - kContext); k <= std::min<int>(static_cast<int>(lines.size()), line + kContext); ++k) shown[k] = true;
  }
  std::string html = "<h2>Source: " + escape_xml(file) + "</h2>\n<table class=\"src\">\n";
  bool gap = false;
  for (std::size_t n = 1; n <= lines.size(); ++n) {
    if (!shown[n]) {
      if (!gap) html += "<tr><td></td><td></td><td class=\"gap\">&#8942;</td></tr>\n";
      gap = true;
      continue;
    }
    gap = false;
    const auto it = share.find(static_cast<int>(n));
    const double s = it == share.end() ? 0 : it->second;
    const double heat = hottest > 0 ? s / hottest : 0;
    html += "<tr><td class=\"heat\" style=\"background:rgba(214,39,40," + sim::report::fixed(heat, 3) + ")\">" +
            (s > 0 ? escape_xml(api::percent(s)) : "") + "</td><td class=\"n\">" + std::to_string(n) + "</td><td><code>" +
            escape_xml(lines[n - 1]) + "</code></td></tr>\n";
  }
  return html + "</table>\n";
}

std::string hot_table(const std::string& title, const std::vector<HotLine>& lines) {
  if (lines.empty()) return "";
  std::string html = "<h2>" + title + "</h2>\n<table>\n<tr><th>line</th><th colspan=\"2\">share of the warps' time</th><th>code</th></tr>\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(lines.size(), 20); ++i) {
    const HotLine& h = lines[i];
    html += "<tr><td>" + escape_xml(h.line == 0 ? std::string("-") : h.file + ":" + std::to_string(h.line)) + "</td>" + bar(h.share) +
            "<td><code>" + escape_xml(h.line == 0 ? "(the paper's calc-period opener)" : h.text) + "</code></td></tr>\n";
  }
  return html + "</table>\n";
}

// The Source view's SASS column: the hot SASS instructions with their control bits.
std::string sass_table(const std::vector<HotSass>& lines) {
  if (lines.empty()) return "";
  std::string html = "<h2>Hot SASS instructions</h2>\n<p>Each PTX line's time split over the SASS ptxas made of it.</p>\n"
                     "<table>\n<tr><th>PTX line</th><th colspan=\"2\">share of the warps' time</th><th>stall</th><th>waits on</th>"
                     "<th>sets</th><th>SASS</th></tr>\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(lines.size(), 20); ++i) {
    const HotSass& h = lines[i];
    html += "<tr><td>" + std::to_string(h.ptx_line) + "</td>" + bar(h.share) + "<td>" + std::to_string(h.stall) + "</td><td>" +
            escape_xml(h.waits_on) + "</td><td>" + escape_xml(h.sets) + "</td><td><code>" + escape_xml(h.text) + "</code></td></tr>\n";
  }
  return html + "</table>\n";
}

// Guided advice: each finding with its place, evidence and the re-simulated speed-up.
std::string findings_table(const std::vector<Finding>& findings) {
  std::string html = "<h2>Findings</h2>\n";
  if (findings.empty()) return html + "<p>No cause re-simulated away gives 1.05x or more.</p>\n";
  html += "<p>Each cause removed and the launch simulated again; the speed-up is the whole launch's.</p>\n"
          "<table class=\"findings\">\n<tr><th>speed-up</th><th>finding</th><th>where</th><th>evidence</th><th>re-simulated</th></tr>\n";
  for (const Finding& f : findings) {
    std::string where = f.source_line > 0 ? f.source_file + ":" + std::to_string(f.source_line) : f.line > 0 ? f.file + ":" + std::to_string(f.line) : "the launch";
    if (f.source_line > 0 && f.line > 0) where += " (PTX line " + std::to_string(f.line) + ")";
    std::string evidence;
    for (const auto& [name, value] : f.evidence) evidence += (evidence.empty() ? "" : "<br>") + escape_xml(name + " " + shortest(std::round(value * 100) / 100));
    html += "<tr><td><b>" + escape_xml(sim::report::fixed(f.speedup, 2)) + "x</b></td><td><b>" + escape_xml(f.kind) + "</b>: " +
            escape_xml(f.message) + "</td><td>" + escape_xml(where) +
            (f.source_text.empty() ? "" : "<br><code>" + escape_xml(f.source_text) + "</code>") +
            (f.sass.empty() ? "" : "<br><code>" + escape_xml(f.sass.front()) + "</code>") + "</td><td>" + evidence + "</td><td>" +
            escape_xml(f.change) + ": " + escape_xml(sim::report::fixed(f.time_us, 3)) + " &micro;s</td></tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace

std::string occupancy_svg(const Explanation& e, const OccupancyCurve& curve) {
  sim::report::Series line{"occupancy", {}};
  for (const auto& [value, share] : curve.points) line.points.emplace_back(static_cast<double>(value), share * 100);
  sim::report::Series point{"this kernel", {}};
  for (const auto& [value, share] : curve.points) {
    if (value == curve.kernel_value) point.points.emplace_back(static_cast<double>(value), share * 100);
  }
  if (point.points.empty()) point.points.emplace_back(static_cast<double>(curve.kernel_value), e.occupancy.occupancy * 100);
  sim::report::ChartSpec spec;
  spec.title = "Occupancy against " + axis_label(curve.axis);
  spec.subtitle = e.occupancy.gpu + ": the other resources held at the kernel's";
  spec.x_label = axis_label(curve.axis);
  spec.y_label = "occupancy (% of the warps an SM holds)";
  spec.log_x = false;
  spec.log_y = false;
  return sim::report::render_line_chart_svg({line, point}, spec);
}

std::string roofline_svg(const Explanation& e) {
  const Roofline& r = e.roofline;
  if (r.peak_gips <= 0 || r.dram_gbs <= 0) throw InputError("roofline: the GPU profile gives no memory_bandwidth_gbs");
  // The roofs over three decades either side of the ridge (and of the kernel's point).
  double low = r.ridge / 1000, high = r.ridge * 1000;
  if (r.intensity > 0) low = std::min(low, r.intensity / 10), high = std::max(high, r.intensity * 10);
  sim::report::Series roof{"roofs: issue " + shortest(std::round(r.peak_gips)) + " GIPS, DRAM " + shortest(r.dram_gbs) + " GB/s", {}};
  for (const double x : {low, r.ridge, high}) roof.points.emplace_back(x, std::min(r.peak_gips, r.dram_gbs * x));
  std::vector<sim::report::Series> series{roof};
  sim::report::ChartSpec spec;
  spec.title = "Instruction roofline";
  spec.subtitle = e.occupancy.gpu + ": warp-instructions against DRAM bytes (Ding & Williams 2019)";
  spec.x_label = "warp-instructions per DRAM byte";
  spec.y_label = "GIPS (10^9 warp-instructions/s)";
  if (r.intensity > 0 && r.achieved_gips > 0) {
    series.push_back({"this kernel (" + r.bound + " side)", {{r.intensity, r.achieved_gips}}});
  } else {
    spec.notes.push_back("the kernel moves no DRAM bytes: not on this chart");
  }
  return sim::report::render_line_chart_svg(series, spec);
}

std::string to_html(const SimulateResult& result) {
  if (!result.explanation) throw InputError("HTML needs an explanation (warpsim explain, or simulate --explain)");
  const Explanation& e = *result.explanation;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>warpsim explain: " + escape_xml(result.kernel) +
      " on " + escape_xml(result.gpu) +
      "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;margin:0.5em 0}"
      "td,th{padding:2px 8px;text-align:left}td.bar{width:16em}td.bar div{background:#1f77b4;height:0.9em}"
      "table.src td{padding:0 6px}td.heat{width:4em;text-align:right;font-size:80%}td.n{color:#888;text-align:right}"
      "td.gap{color:#888}code{white-space:pre}table.findings td{vertical-align:top;border-top:1px solid #ddd}figure{display:inline-block;margin:0.5em}\n</style>\n</head>\n<body>\n";
  html += "<h1>" + escape_xml(result.kernel) + " on " + escape_xml(result.gpu) + "</h1>\n";
  html += "<p>Predicted <b>" + escape_xml(shortest(std::round(result.time_us * 1000) / 1000)) + " &micro;s</b> (" +
          escape_xml(shortest(std::round(result.cycles))) + " cycles) for " + std::to_string(result.blocks) + " blocks of " +
          std::to_string(result.threads) + " threads, pipes model.</p>\n";
  html += "<p><b>Why:</b> " + escape_xml(e.sentence) + "</p>\n";
  html += findings_table(e.findings);
  html += "<h2>Speed of light</h2>\n<table>\n<tr><th>resource</th><th colspan=\"2\">busy (share of T_c)</th><th>peak on this GPU</th></tr>\n";
  for (const ExplainResource& r : e.speed_of_light) {
    html += "<tr><td>" + escape_xml(r.name) + "</td>" + bar(r.busy) + "<td>" + escape_xml(r.peak) + "</td></tr>\n";
  }
  html += "</table>\n<h2>Where warps wait</h2>\n<table>\n<tr><th>cause</th><th colspan=\"2\">share of the warps' time</th><th>cycles per warp</th></tr>\n";
  for (const WaitShare& w : e.waits) {
    html += "<tr><td>" + escape_xml(w.cause) + "</td>" + bar(w.share) + "<td>" + escape_xml(shortest(std::round(w.cycles_per_warp * 10) / 10)) +
            "</td></tr>\n";
  }
  html += "</table>\n";
  html += hot_table("Hot CUDA lines", e.source_lines);
  html += hot_table("Hot PTX lines", e.ptx_lines);
  html += sass_table(e.sass_lines);
  html += listing(e.source_lines.empty() ? e.ptx_lines : e.source_lines);
  const OccupancyResult& o = e.occupancy;
  html += "<h2>Occupancy</h2>\n<p>" + std::to_string(o.active_blocks_per_sm) + " blocks per SM, " + std::to_string(o.active_warps_per_sm) +
          " of " + std::to_string(o.max_warps_per_sm) + " warps (" + escape_xml(api::percent(o.occupancy)) + "), limited by " +
          escape_xml(o.limited_by) + "; " + std::to_string(o.registers_per_thread) + " registers per thread (" + escape_xml(o.registers_source) +
          ").</p>\n";
  for (const OccupancyCurve& c : e.occupancy_curves) {
    if (!c.points.empty()) html += "<figure>" + inline_svg(occupancy_svg(e, c)) + "</figure>\n";
  }
  if (e.roofline.dram_gbs > 0) html += "<h2>Roofline</h2>\n<figure>" + inline_svg(roofline_svg(e)) + "</figure>\n";
  return html + "</body>\n</html>\n";
}

}  // namespace warpsim

// `warpsim explain` as JSON (full precision) and text (rounded, the top lines only).
#include <algorithm>
#include <cstdio>

#include "explain.hpp"
#include "limits.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::api {
namespace {

using sim::report::number_json;
using sim::report::shortest;

constexpr std::size_t kLinesInText = 10;

nlohmann::ordered_json lines_json(const std::vector<HotLine>& lines) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const HotLine& h : lines) {
    out.push_back({{"file", h.file}, {"line", h.line}, {"share", h.share}, {"warp_cycles", h.warp_cycles}, {"text", h.text}});
  }
  return out;
}

nlohmann::ordered_json sass_json(const std::vector<HotSass>& lines) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const HotSass& h : lines) {
    out.push_back({{"function", h.function}, {"offset", h.offset}, {"text", h.text}, {"ptx_line", h.ptx_line}, {"share", h.share},
                   {"warp_cycles", h.warp_cycles}, {"stall", h.stall}, {"waits_on", h.waits_on}, {"sets", h.sets}});
  }
  return out;
}

std::string sass_text(const std::vector<HotSass>& lines) {
  if (lines.empty()) return "";
  sim::report::TextTable table({"share", "ptx line", "offset", "stall", "waits", "sets", "SASS"});
  for (std::size_t i = 0; i < std::min(lines.size(), kLinesInText); ++i) {
    const HotSass& h = lines[i];
    char offset[16];
    std::snprintf(offset, sizeof offset, "%04llx", static_cast<unsigned long long>(h.offset));
    table.add_row({percent(h.share), std::to_string(h.ptx_line), offset, std::to_string(h.stall), h.waits_on.empty() ? "-" : h.waits_on,
                   h.sets.empty() ? "-" : h.sets, h.text});
  }
  return "hot SASS instructions (top " + std::to_string(std::min(lines.size(), kLinesInText)) + " of " +
         std::to_string(lines.size()) + "; a PTX line's time split over its SASS)\n" + table.render();
}

std::string lines_text(const std::string& title, const std::vector<HotLine>& lines) {
  if (lines.empty()) return "";
  sim::report::TextTable table({"share", "line", "code"});
  for (std::size_t i = 0; i < std::min(lines.size(), kLinesInText); ++i) {
    const HotLine& h = lines[i];
    table.add_row({percent(h.share), h.line == 0 ? "-" : h.file + ":" + std::to_string(h.line),
                   h.line == 0 ? "(the paper's calc-period opener)" : h.text});
  }
  return title + " (top " + std::to_string(std::min(lines.size(), kLinesInText)) + " of " + std::to_string(lines.size()) + ")\n" +
         table.render();
}

}  // namespace

nlohmann::ordered_json findings_json(const std::vector<Finding>& findings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Finding& f : findings) {
    nlohmann::ordered_json evidence = nlohmann::ordered_json::object();
    for (const auto& [name, value] : f.evidence) evidence[name] = value;
    out.push_back({{"kind", f.kind}, {"message", f.message}, {"speedup", f.speedup}, {"time_us", f.time_us},
                   {"file", f.file}, {"line", f.line}, {"source_file", f.source_file}, {"source_line", f.source_line},
                   {"source_text", f.source_text}, {"sass", f.sass}, {"evidence", evidence}, {"change", f.change}});
  }
  return out;
}

std::string findings_text(const std::vector<Finding>& findings) {
  if (findings.empty()) return "findings: none of at least 1.05x (each cause re-simulated away)\n";
  std::string text = "findings (each cause re-simulated away; the speed-up is the launch's)\n";
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    text += "  " + std::to_string(i + 1) + ". " + sim::report::fixed(f.speedup, 2) + "x  " + f.kind + ": " + f.message + "\n";
    if (f.line > 0) {
      text += "     at " + (f.source_line > 0 ? f.source_file + ":" + std::to_string(f.source_line) + " (PTX line " + std::to_string(f.line) + ")"
                                               : f.file + ":" + std::to_string(f.line));
      if (!f.source_text.empty()) text += ": " + f.source_text;
      text += "\n";
    }
    if (!f.sass.empty()) {
      text += "     SASS: " + f.sass.front() + (f.sass.size() > 1 ? " (+" + std::to_string(f.sass.size() - 1) + " more)" : "") + "\n";
    }
    text += "     re-simulated: " + f.change + ": " + sim::report::fixed(f.time_us, 3) + " us\n";
  }
  return text;
}

nlohmann::ordered_json explanation_json(const Explanation& e) {
  nlohmann::ordered_json out;
  out["package_cycles"] = number_json(e.package_cycles);
  out["warps"] = e.warps;
  nlohmann::ordered_json sol = nlohmann::ordered_json::array();
  for (const ExplainResource& r : e.speed_of_light) sol.push_back({{"resource", r.name}, {"busy", r.busy}, {"peak", r.peak}});
  out["speed_of_light"] = sol;
  out["limiter"] = e.limiter;
  out["reason"] = e.reason;
  out["sentence"] = e.sentence;
  out["findings"] = findings_json(e.findings);
  nlohmann::ordered_json waits;
  for (const WaitShare& w : e.waits) waits[w.cause] = {{"share", w.share}, {"cycles_per_warp", w.cycles_per_warp}};
  out["waits"] = waits;
  out["hot_lines"] = {{"ptx", lines_json(e.ptx_lines)}, {"source", lines_json(e.source_lines)}, {"sass", sass_json(e.sass_lines)}};
  nlohmann::ordered_json occupancy = to_json(e.occupancy);
  nlohmann::ordered_json curves = nlohmann::ordered_json::array();
  for (const OccupancyCurve& c : e.occupancy_curves) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& [value, share] : c.points) points.push_back({value, share});
    curves.push_back({{"axis", c.axis}, {"kernel_value", c.kernel_value}, {"points", points}});
  }
  occupancy["curves"] = curves;
  out["occupancy"] = occupancy;
  const Roofline& r = e.roofline;
  out["roofline"] = {{"warp_instructions", r.warp_instructions}, {"dram_bytes", r.dram_bytes}, {"global_bytes", r.global_bytes},
                     {"intensity", r.intensity}, {"achieved_gips", r.achieved_gips}, {"peak_gips", r.peak_gips},
                     {"dram_gbs", r.dram_gbs}, {"ridge", r.ridge}, {"bound", r.bound}};
  return out;
}

std::string explanation_text(const Explanation& e) {
  std::string text = "why: " + e.sentence + "\n" + findings_text(e.findings);
  sim::report::TextTable sol({"resource", "busy", "peak on this GPU"});
  for (const ExplainResource& r : e.speed_of_light) sol.add_row({r.name, percent(r.busy), r.peak});
  text += "speed of light (core package 0, " + std::to_string(e.warps) + " warps, T_c " + shortest(e.package_cycles) + " cycles)\n" +
          sol.render();
  sim::report::TextTable waits({"warps' time", "share", "cycles per warp"});
  for (const WaitShare& w : e.waits) waits.add_row({w.cause, percent(w.share), shortest(std::round(w.cycles_per_warp * 10) / 10)});
  text += waits.render();
  text += lines_text("hot PTX lines", e.ptx_lines);
  text += lines_text("hot CUDA lines", e.source_lines);
  text += sass_text(e.sass_lines);
  const OccupancyResult& o = e.occupancy;
  text += "occupancy: " + std::to_string(o.active_blocks_per_sm) + " blocks/SM, " + std::to_string(o.active_warps_per_sm) + " of " +
          std::to_string(o.max_warps_per_sm) + " warps (" + percent(o.occupancy) + "), limited by " + o.limited_by + "\n";
  const Roofline& r = e.roofline;
  text += "roofline: " + shortest(std::round(r.intensity * 1000) / 1000) + " warp-instructions per DRAM byte (ridge " +
          shortest(std::round(r.ridge * 1000) / 1000) + "): " + r.bound + " side; " + shortest(std::round(r.achieved_gips * 10) / 10) +
          " of " + shortest(std::round(r.peak_gips * 10) / 10) + " GIPS\n";
  return text;
}

}  // namespace warpsim::api

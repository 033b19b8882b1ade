// warpsim::compare_with_baseline: `explain AFTER --baseline BEFORE`, two kernels on one launch and
// GPU side by side: time, limiter, each resource's busy share, each line's time, what moved most.
#include <algorithm>
#include <cmath>
#include <map>

#include "explain.hpp"
#include "limits.hpp"
#include "simulate_on.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/svg_text.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

using sim::report::fixed;
using sim::report::shortest;

constexpr std::size_t kLinesInText = 10;

// The kernel's lines as time: its CUDA lines where the PTX has `.loc`, else its PTX (or .kp) lines.
const std::vector<HotLine>& timed_lines(const Explanation& e) { return e.source_lines.empty() ? e.ptx_lines : e.source_lines; }

std::string place_of(const HotLine& h) { return h.line == 0 ? "-" : h.file + ":" + std::to_string(h.line); }

// A line's code without its trailing `//` comment (a fix often edits only the comment).
std::string code_of(const std::string& text) {
  const std::string code = text.substr(0, text.find("//"));
  return code.substr(0, code.find_last_not_of(" \t") + 1);
}

// Lines are matched by their code (a version of a kernel moves lines about); a line without
// readable code by its place. Lines of equal code within one kernel are told apart by their order.
std::vector<LineChange> line_changes(const SimulateResult& before, const SimulateResult& after) {
  std::map<std::pair<std::string, int>, LineChange> by_key;
  std::vector<std::pair<std::string, int>> order;
  const auto add = [&](const SimulateResult& r, bool is_before) {
    std::map<std::string, int> seen;
    for (const HotLine& h : timed_lines(*r.explanation)) {
      const std::string key_text = h.text.empty() ? "@" + place_of(h) : code_of(h.text);
      const std::pair<std::string, int> key{key_text, seen[key_text]++};
      auto [it, added] = by_key.try_emplace(key);
      if (added) order.push_back(key);
      LineChange& c = it->second;
      c.text = h.text;
      (is_before ? c.before_place : c.after_place) = place_of(h);
      (is_before ? c.before_us : c.after_us) += h.share * r.time_us;
    }
  };
  add(before, true);
  add(after, false);
  std::vector<LineChange> out;
  for (const auto& key : order) out.push_back(by_key[key]);
  std::stable_sort(out.begin(), out.end(), [](const LineChange& a, const LineChange& b) {
    return std::abs(a.after_us - a.before_us) > std::abs(b.after_us - b.before_us);
  });
  return out;
}

std::vector<ResourceChange> resource_changes(const Explanation& before, const Explanation& after) {
  std::vector<ResourceChange> out;
  const auto find = [&](const std::string& name) {
    return std::find_if(out.begin(), out.end(), [&](const ResourceChange& c) { return c.resource == name; });
  };
  for (const ExplainResource& r : before.speed_of_light) out.push_back({r.name, r.busy, 0});
  for (const ExplainResource& r : after.speed_of_light) {
    if (const auto it = find(r.name); it != out.end()) {
      it->after = r.busy;
    } else {
      out.push_back({r.name, 0, r.busy});
    }
  }
  return out;
}

std::string sentence(const BaselineComparison& c) {
  std::string s = shortest(std::round(c.before.time_us * 1000) / 1000) + " -> " + shortest(std::round(c.after.time_us * 1000) / 1000) +
                  " us (" + fixed(c.speedup, 2) + "x " + (c.speedup >= 1 ? "faster" : "slower") + "); limiter " +
                  c.before.explanation->limiter + " -> " + c.after.explanation->limiter;
  const auto resource = std::max_element(c.resources.begin(), c.resources.end(), [](const ResourceChange& a, const ResourceChange& b) {
    return std::abs(a.after - a.before) < std::abs(b.after - b.before);
  });
  if (resource != c.resources.end()) {
    s += "; the resource that moved most: " + api::resource_name(resource->resource) + " " + api::percent(resource->before) + " -> " +
         api::percent(resource->after) + " busy";
  }
  if (!c.lines.empty()) {
    const LineChange& l = c.lines.front();
    s += "; the line that moved most: " + (l.text.empty() ? (l.after_place.empty() ? l.before_place : l.after_place) : l.text) + " " +
         fixed(l.before_us, 3) + " -> " + fixed(l.after_us, 3) + " us";
  }
  return s;
}

}  // namespace

BaselineComparison compare_with_baseline(const BaselineRequest& request) {
  SimulateRequest before = request.before, after = request.after;
  before.explain = after.explain = true;
  const gpus::Profile gpu = gpus::load_profile(after.gpu);
  BaselineComparison c;
  c.before = api::simulate_on(before, gpu);
  c.after = api::simulate_on(after, gpu);
  if (c.before.blocks != c.after.blocks || c.before.threads != c.after.threads) {
    throw InputError("--baseline: the baseline's launch (" + std::to_string(c.before.blocks) + " blocks of " + std::to_string(c.before.threads) +
                     " threads) differs from the kernel's (" + std::to_string(c.after.blocks) + " of " + std::to_string(c.after.threads) +
                     "): compare one launch, or explain each apart");
  }
  c.speedup = c.before.time_us / c.after.time_us;
  c.resources = resource_changes(*c.before.explanation, *c.after.explanation);
  c.lines = line_changes(c.before, c.after);
  c.moved_most = sentence(c);
  return c;
}

nlohmann::ordered_json to_json(const BaselineComparison& c) {
  nlohmann::ordered_json out;
  out["gpu"] = c.after.gpu;
  out["kernel"] = c.after.kernel;
  out["baseline_kernel"] = c.before.kernel;
  out["baseline_time_us"] = c.before.time_us;
  out["time_us"] = c.after.time_us;
  out["speedup"] = c.speedup;
  out["baseline_limiter"] = c.before.explanation->limiter;
  out["limiter"] = c.after.explanation->limiter;
  out["moved_most"] = c.moved_most;
  nlohmann::ordered_json resources = nlohmann::ordered_json::array();
  for (const ResourceChange& r : c.resources) resources.push_back({{"resource", r.resource}, {"baseline", r.before}, {"busy", r.after}});
  out["resources"] = resources;
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (const LineChange& l : c.lines) {
    lines.push_back({{"text", l.text}, {"baseline_place", l.before_place}, {"place", l.after_place}, {"baseline_us", l.before_us},
                     {"us", l.after_us}});
  }
  out["lines"] = lines;
  out["baseline"] = to_json(c.before);
  out["after"] = to_json(c.after);
  return out;
}

std::string to_text(const BaselineComparison& c) {
  std::string text = "before/after: " + c.before.kernel + " -> " + c.after.kernel + " on " + c.after.gpu + ", " + std::to_string(c.after.blocks) +
                     " blocks of " + std::to_string(c.after.threads) + " threads\n";
  text += "moved: " + c.moved_most + "\n";
  sim::report::TextTable resources({"resource", "baseline busy", "busy", "change"});
  for (const ResourceChange& r : c.resources) {
    resources.add_row({r.resource, api::percent(r.before), api::percent(r.after), (r.after >= r.before ? "+" : "") + fixed((r.after - r.before) * 100, 1) + " pts"});
  }
  text += resources.render();
  sim::report::TextTable lines({"baseline us", "us", "change", "baseline line", "line", "code"});
  for (std::size_t i = 0; i < std::min(c.lines.size(), kLinesInText); ++i) {
    const LineChange& l = c.lines[i];
    lines.add_row({fixed(l.before_us, 3), fixed(l.after_us, 3), (l.after_us >= l.before_us ? "+" : "") + fixed(l.after_us - l.before_us, 3),
                   l.before_place.empty() ? "-" : l.before_place, l.after_place.empty() ? "-" : l.after_place, l.text});
  }
  text += "lines that moved most (top " + std::to_string(std::min(c.lines.size(), kLinesInText)) + " of " + std::to_string(c.lines.size()) +
          "; a line's share of the warps' time times the kernel's time)\n" + lines.render();
  text += "findings on " + c.after.kernel + ":\n" + api::findings_text(c.after.explanation->findings);
  return text;
}

std::string to_html(const BaselineComparison& c) {
  using sim::report::escape_xml;
  std::string page = to_html(c.after);
  std::string html = "<h2>Before and after</h2>\n<p>" + escape_xml(c.before.kernel + " -> " + c.after.kernel + ": " + c.moved_most) + "</p>\n";
  html += "<table>\n<tr><th>resource</th><th>baseline busy</th><th>busy</th></tr>\n";
  for (const ResourceChange& r : c.resources) {
    html += "<tr><td>" + escape_xml(r.resource) + "</td><td>" + escape_xml(api::percent(r.before)) + "</td><td>" + escape_xml(api::percent(r.after)) + "</td></tr>\n";
  }
  html += "</table>\n<table>\n<tr><th>baseline &micro;s</th><th>&micro;s</th><th>baseline line</th><th>line</th><th>code</th></tr>\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(c.lines.size(), 20); ++i) {
    const LineChange& l = c.lines[i];
    html += "<tr><td>" + escape_xml(fixed(l.before_us, 3)) + "</td><td>" + escape_xml(fixed(l.after_us, 3)) + "</td><td>" + escape_xml(l.before_place) +
            "</td><td>" + escape_xml(l.after_place) + "</td><td><code>" + escape_xml(l.text) + "</code></td></tr>\n";
  }
  html += "</table>\n";
  // The comparison goes first, after the page's heading and prediction.
  const std::size_t at = page.find("<p><b>Why:</b>");
  return at == std::string::npos ? page + html : page.substr(0, at) + html + page.substr(at);
}

}  // namespace warpsim

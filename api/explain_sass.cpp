// Hot SASS instructions for `warpsim explain` under the SASS stream: the Source view's SASS column.
#include <algorithm>
#include <map>

#include "explain_parts.hpp"

namespace warpsim::api {
namespace {

std::string scoreboards(std::uint8_t mask) {
  std::string out;
  for (int b = 0; b < 6; ++b) {
    if ((mask >> b) & 1U) out += (out.empty() ? "SB" : " SB") + std::to_string(b);
  }
  return out;
}

}  // namespace

std::string sass_text(const sass::Instruction& in) {
  return (in.predicate.empty() ? "" : in.predicate + " ") + in.opcode + (in.operands.empty() ? "" : " " + in.operands);
}

std::vector<HotSass> hot_sass(const std::vector<HotLine>& ptx_lines, const std::string& file, const sass::Listing& listing) {
  std::map<int, double> cycles_of_line;  // the .ptx's own lines (not a .kp's, not CUDA's)
  double total = 0;
  for (const HotLine& h : ptx_lines) {
    if (h.file == file) cycles_of_line[h.line] += h.warp_cycles;
    if (h.warp_cycles > 0 && h.share > 0) total = h.warp_cycles / h.share;
  }
  std::map<int, std::int64_t> sass_per_line;
  for (const sass::Function& f : listing.functions) {
    for (std::size_t i = 0; i < f.padding_start(); ++i) ++sass_per_line[static_cast<int>(f.code[i].ptx_line)];
  }
  std::vector<HotSass> out;
  for (const sass::Function& f : listing.functions) {
    for (std::size_t i = 0; i < f.padding_start(); ++i) {
      const sass::Instruction& in = f.code[i];
      const auto line = static_cast<int>(in.ptx_line);
      const auto it = cycles_of_line.find(line);
      if (it == cycles_of_line.end() || it->second <= 0) continue;
      HotSass h;
      h.function = f.name;
      h.offset = in.offset;
      h.text = sass_text(in);
      h.ptx_line = line;
      h.warp_cycles = it->second / static_cast<double>(sass_per_line[line]);
      h.share = total > 0 ? h.warp_cycles / total : 0;
      h.stall = in.control.stall;
      h.waits_on = scoreboards(in.control.wait_mask);
      if (in.control.write_barrier >= 0) h.sets = "SB" + std::to_string(in.control.write_barrier);
      out.push_back(std::move(h));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const HotSass& a, const HotSass& b) { return a.warp_cycles > b.warp_cycles; });
  return out;
}

}  // namespace warpsim::api

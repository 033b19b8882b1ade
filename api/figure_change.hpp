// `--set FIGURE=VALUE` of simulate: a figure of the GPU profile or of the kernel, changed for a
// what-if run. VALUE is a number (the new value), xK (K times the baseline) or P% (P percent of it).
#pragma once

#include <string>
#include <vector>

namespace warpsim::api {

enum class ChangeForm { replace, multiply, percent };

struct ParsedChange {
  std::string figure;  // the figure's own name (an alias resolved)
  std::string given;   // VALUE as written
  ChangeForm form = ChangeForm::replace;
  double number = 0;   // the new value, K, or P
};

// The kernel's figures: registers per thread, and the launch's dynamic shared memory in bytes.
inline constexpr const char* kRegistersFigure = "registers";
inline constexpr const char* kSharedFigure = "shared";

// Every name FIGURE may take: the kernel's, then the GPU profile's (gpus::changeable_figures()).
std::vector<std::string> changeable_figure_names();

// "FIGURE=VALUE" (aliases: sms for sm_count, dram_bandwidth_gbs for memory_bandwidth_gbs).
// InputError naming --set: no '=', an unknown figure (listing the known ones), a malformed
// number, a negative value, x0 or 0%.
ParsedChange parse_change(const std::string& text);

// The value the change gives a figure whose baseline is `baseline`; whole-number figures get
// the nearest whole number of xK and P%.
double changed_value(const ParsedChange& change, double baseline, bool whole_number);

}  // namespace warpsim::api

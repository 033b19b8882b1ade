// The frontend's warnings for a lowered launch as message lines (without the "warpsim: warning:"
// prefix): what `lower` and `simulate` print, and what a sweep reports once per PTX workload.
#pragma once

#include <string>
#include <vector>

#include "warpsim/ptx/emulator.hpp"
#include "warpsim/ptx/lowering.hpp"

namespace warpsim::ptx {

// At most five decoding warnings ("FILE:LINE:COL: message"), a count of the rest, and a line on
// branches that depended on unknown values with the policy applied to them.
std::vector<std::string> warning_lines(const LoweredKernel& kernel, const std::string& file, const EmulatorOptions& options);

}  // namespace warpsim::ptx

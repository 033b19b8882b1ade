#include "warpsim/ptx/lowering_warnings.hpp"

#include "warpsim/ptx/assumptions.hpp"

namespace warpsim::ptx {
namespace {

constexpr std::size_t kWarningsShown = 5;

std::string position_text(const std::string& file, Position pos) {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

}  // namespace

std::vector<std::string> warning_lines(const LoweredKernel& kernel, const std::string& file, const EmulatorOptions& options) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < kernel.warnings.size() && i < kWarningsShown; ++i) {
    lines.push_back(position_text(file, kernel.warnings[i].pos) + ": " + kernel.warnings[i].message);
  }
  if (kernel.warnings.size() > kWarningsShown) {
    lines.push_back(std::to_string(kernel.warnings.size() - kWarningsShown) + " more warnings like these");
  }
  const UnknownBranchReport& unknown = kernel.unknown_branches;
  if (unknown.count > 0) {
    lines.push_back(position_text(file, unknown.first) + ": " + std::to_string(unknown.count) + " branch decision" +
                    (unknown.count == 1 ? "" : "s") + " " + unknown_branch_policy(options));
  }
  return lines;
}

}  // namespace warpsim::ptx

// The PTX lowering under the paper's model against a golden: for every committed kernel (under
// workloads/, tests/ptx/cases/, tests/ptx/regressions/), two parameter values and three launch
// shapes, each distinct warp program's warp count and its core-package time T_c at 1 and 6 warps
// (t_m = 31) with every op the paper's model does not time as memory turned into a calc of its
// duration, compared as warps per timing. The golden was written by the lowering before it annotated shared/local/const/
// texture accesses and barriers (then inside the calc periods): the annotated programs must time
// exactly as before under the paper's model. It is taken with the shared loads as written
// (LoweringOptions::merge_shared_loads off), since the merging came after it.
//
// WARPSIM_WRITE_PAPER_GOLDEN=1 rewrites tests/ptx/data/paper_timing_golden.txt instead of checking.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "support/committed_launches.hpp"
#include "support/paper_program.hpp"
#include "support/sanitizer_sample.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;
const std::string kGolden = kSource + "/tests/ptx/data/paper_timing_golden.txt";

// key -> "warps:T_c(1):T_c(6) ..." per program, or "error".
std::map<std::string, std::string> measure() {
  const std::vector<std::pair<Dim3, Dim3>> launches = {{{3, 1, 1}, {64, 1, 1}}, {{5, 3, 1}, {16, 8, 1}}, {{2, 1, 1}, {256, 1, 1}}};
  std::map<std::string, std::string> points;
  // workloads/measured/ (the validation kernels) came after the golden was written.
  testing_support::for_each_committed_launch(
      testing_support::committed_ptx(kSource, "/workloads/measured/"), {16, 100}, launches,
      [&](const std::filesystem::path& file, const Module& module, const LoweringOptions& options, std::int64_t value) {
        const std::string key = std::filesystem::relative(file, kSource).string() + " " + options.kernel + " value=" +
                                std::to_string(value) + " grid=" + std::to_string(options.grid.x) + "," +
                                std::to_string(options.grid.y) + " block=" + std::to_string(options.block.x) + "," +
                                std::to_string(options.block.y);
        std::ostringstream result;
        try {
          LoweringOptions as_written = options;
          as_written.merge_shared_loads = false;  // the golden predates it (shared_load_merging_test.cpp)
          const LoweredKernel kernel = lower_kernel(module, as_written);
          for (const WarpProgram& p : kernel.programs) {
            const isa::Program paper = testing_support::paper_program(p.program);
            result << ' ' << p.warps << ':' << sim::core::simulate_core(paper, 1, 31'000) << ':'
                   << sim::core::simulate_core(paper, 6, 31'000);
          }
        } catch (const InputError&) {
          result << " error";
        }
        points[key] = result.str();
      });
  return points;
}

// The programs' timings as a multiset: warps per distinct (T_c(1), T_c(6)), in that order. The
// lowering may split a program in two that differ only in what the paper's model does not read
// (e.g. the 128-byte lines of an access); the warps must still time the same.
std::string warps_per_timing(const std::string& programs) {
  if (programs == " error") return programs;
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> warps;
  std::istringstream in(programs);
  for (std::string entry; in >> entry;) {
    std::int64_t w = 0, t1 = 0, t6 = 0;
    char colon = 0;
    std::istringstream fields(entry);
    fields >> w >> colon >> t1 >> colon >> t6;
    warps[{t1, t6}] += w;
  }
  std::string out;
  for (const auto& [timing, w] : warps) {
    out += ' ' + std::to_string(w) + ':' + std::to_string(timing.first) + ':' + std::to_string(timing.second);
  }
  return out;
}

TEST(PtxPaperTiming, EveryCommittedKernelTimesAsTheGolden) {
  const std::map<std::string, std::string> points = measure();
  if (std::getenv("WARPSIM_WRITE_PAPER_GOLDEN") != nullptr) {
    ASSERT_EQ(testing_support::kSanitizerStride, 1) << "the sanitizer build measures a sample: write the golden from another";
    std::ofstream out(kGolden);
    for (const auto& [key, value] : points) out << key << " =" << value << '\n';
    GTEST_SKIP() << "wrote " << points.size() << " points to " << kGolden;
  }
  std::ifstream in(kGolden);
  ASSERT_TRUE(in) << kGolden;
  std::map<std::string, std::string> golden;
  for (std::string line; std::getline(in, line);) {
    const std::size_t eq = line.find(" =");
    ASSERT_NE(eq, std::string::npos) << line;
    golden[line.substr(0, eq)] = line.substr(eq + 2);
  }
  // Every golden point; in the sanitizer build a sample of them (support/sanitizer_sample.hpp).
  if (testing_support::kSanitizerStride == 1) {
    EXPECT_EQ(points.size(), golden.size());
  }
  std::int64_t checked = 0;
  for (const auto& [key, value] : points) {
    const auto it = golden.find(key);
    ASSERT_NE(it, golden.end()) << key << ": not in " << kGolden;
    EXPECT_EQ(warps_per_timing(value), warps_per_timing(it->second)) << key;
    ++checked;
  }
  EXPECT_GE(checked, testing_support::sample_count(300));
}

}  // namespace
}  // namespace warpsim::ptx

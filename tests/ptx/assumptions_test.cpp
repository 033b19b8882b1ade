// The assumptions a lowering reports: each kind with its exact count and first location, worked
// out by hand from the PTX (tests/ptx/cases/assumptions.ptx and the other committed cases).
#include <gtest/gtest.h>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

struct Seen {
  std::string kind;
  std::string name;  // the quoted name in the message, if any ("'mma'")
  int line, column;
  std::int64_t count;
  bool operator==(const Seen&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Seen& s) {
  return out << "{" << s.kind << " " << s.name << " at " << s.line << ":" << s.column << " x" << s.count << "}";
}

std::vector<Seen> assumptions(const std::string& file, Dim3 block, ParameterEntries params = {},
                              EmulatorOptions emulator = {}) {
  LoweringOptions options;
  options.grid = {1, 1, 1};
  options.block = block;
  options.parameters = std::move(params);
  options.emulator = emulator;
  const LoweredKernel k = lower_kernel(load_ptx_file(kSource + "/" + file), options);
  std::vector<Seen> out;
  for (const Assumption& a : k.assumptions) {
    const std::size_t open = a.message.find('\'');
    const std::string name =
        open == std::string::npos ? "" : a.message.substr(open, a.message.find('\'', open + 1) - open + 1);
    out.push_back({std::string(to_string(a.kind)), name, a.first.line, a.first.column, a.count});
  }
  return out;
}

TEST(PtxAssumptions, OneOfEachKind) {
  // Static kinds count instructions of the kernel and of helper (which it calls), not of unused;
  // the branch on the loaded pointer and the generic load it falls through to count per warp.
  const auto expected = [](std::int64_t warps) {
    return std::vector<Seen>{
        {"unknown_branch", "", 83, 2, warps},
        {"generic_as_global", "", 84, 2, warps},
        {"unmodelled_opcode", "'ldmatrix'", 29, 2, 1},
        {"unmodelled_opcode", "'mma'", 56, 2, 1},
        {"unmodelled_opcode", "'add.cc'", 57, 2, 1},
        {"unmodelled_opcode", "'addc'", 58, 2, 1},
        {"unmodelled_opcode", "'div.approx'", 59, 2, 1},
        {"unmodelled_opcode", "'setp.f16x2'", 61, 2, 1},
        {"unmodelled_opcode", "'mbarrier'", 62, 2, 1},
        {"unknown_opcode", "'frobnicate'", 63, 2, 1},
        {"external_call", "'vprintf'", 75, 2, 1},
        {"barrier", "", 78, 2, 1},        // bar.arrive (not modelled); bar.warp.sync (line 79) is a warp's own
        {"memory_values", "", 80, 2, 3},  // atom, ld.global, ld
        {"atomic_as_access", "", 80, 2, 1},
        {"aggregate_parameter", "'assumptions_param_1'", 52, 2, 1},
        {"special_register", "'%clock'", 54, 2, 1},
        {"special_register", "'%smid'", 55, 2, 1},
        {"trap_as_ret", "", 91, 2, 1},
    };
  };
  EXPECT_EQ(assumptions("tests/ptx/cases/assumptions.ptx", {32, 1, 1}), expected(1));
  EXPECT_EQ(assumptions("tests/ptx/cases/assumptions.ptx", {64, 1, 1}), expected(2));
}

TEST(PtxAssumptions, OnlyWhatOccurred) {
  EXPECT_EQ(assumptions("tests/ptx/cases/barrier.ptx", {64, 1, 1}),
            (std::vector<Seen>{{"memory_values", "", 43, 2, 2}}));  // bar.sync 0 is modelled
  EXPECT_EQ(assumptions("tests/ptx/cases/exact_values.ptx", {32, 1, 1}), std::vector<Seen>{});
  EXPECT_EQ(assumptions("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {32, 1, 1}, {{"0", "8"}}),
            (std::vector<Seen>{{"memory_values", "", 51, 2, 12}}));
  EXPECT_EQ(
      assumptions("tests/ptx/regressions/wmma_gemm.sm_80.O3.ptx", {32, 1, 1}, {{"3", "16"}, {"4", "16"}, {"5", "16"}}),
      (std::vector<Seen>{{"unmodelled_opcode", "'wmma.mma'", 100, 2, 5},
                         {"memory_values", "", 94, 2, 10},
                         {"unknown_sectors", "", 94, 2, 11}}));
}

TEST(PtxAssumptions, UnknownBranchesNameThePolicy) {
  const std::string file = "tests/ptx/cases/uniform_loop_unknown.ptx";
  LoweringOptions options;
  options.grid = {1, 1, 1};
  options.block = {32, 1, 1};
  options.emulator.unknown_loop_trips = 3;
  options.emulator.unknown_branch = UnknownBranchPolicy::taken;
  const LoweredKernel k = lower_kernel(load_ptx_file(kSource + "/" + file), options);
  ASSERT_FALSE(k.assumptions.empty());
  const Assumption& a = k.assumptions.front();
  EXPECT_EQ(a.kind, AssumptionKind::unknown_branch);
  EXPECT_EQ(a.count, 3);  // the exit test, left at its third evaluation
  EXPECT_EQ(a.first.line, 49);
  EXPECT_EQ(
      a.message,
      "branch decisions depended on values warpsim cannot know (loaded from memory, or computed by an instruction "
      "it does not model); loops left at test 3 (--unknown-trips), other branches taken (--unknown-branch)");
}

}  // namespace
}  // namespace warpsim::ptx

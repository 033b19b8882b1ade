// The fast lowering (warps in classes, loops in closed form) against --emulate-all (every warp,
// every iteration): the same programs (text and notes), warp counts, first warps, per-warp
// table, dynamic instruction counts and unknown-branch reports, on every committed kernel and on
// generated loop nests.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "support/committed_launches.hpp"
#include "support/sanitizer_sample.hpp"
#include "support/paper_program.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

std::string describe(const OpNote& n) {
  std::ostringstream out;
  out << n.instructions << '/' << n.opens_period << '/' << n.transactions << '/' << n.broadcast;
  return out.str();
}

struct Outcome {
  bool failed = false;
  std::string error;
  LoweredKernel kernel;
};

Outcome lower_with(const Module& module, LoweringOptions options, bool emulate_all) {
  options.emulate_all = emulate_all;
  Outcome o;
  try {
    o.kernel = lower_kernel(module, options);
  } catch (const InputError& e) {
    o.failed = true;
    o.error = e.what();
  }
  return o;
}

// Returns the number of classes the fast path emulated (-1 when both failed).
std::int64_t expect_same(const Module& module, const LoweringOptions& options, const std::string& what) {
  const Outcome fast = lower_with(module, options, false);
  const Outcome full = lower_with(module, options, true);
  EXPECT_EQ(fast.failed, full.failed) << what << "\nfast: " << fast.error << "\nfull: " << full.error;
  if (fast.failed || full.failed) return -1;
  const LoweredKernel& a = fast.kernel;
  const LoweredKernel& b = full.kernel;
  EXPECT_EQ(a.programs.size(), b.programs.size()) << what;
  for (std::size_t i = 0; i < std::min(a.programs.size(), b.programs.size()); ++i) {
    EXPECT_EQ(isa::to_kp(a.programs[i].program), isa::to_kp(b.programs[i].program)) << what << " program " << i;
    EXPECT_EQ(a.programs[i].warps, b.programs[i].warps) << what << " program " << i;
    EXPECT_EQ(a.programs[i].first_warp, b.programs[i].first_warp) << what << " program " << i;
    std::vector<std::string> na, nb;
    for (const OpNote& n : a.programs[i].notes) na.push_back(describe(n));
    for (const OpNote& n : b.programs[i].notes) nb.push_back(describe(n));
    EXPECT_EQ(na, nb) << what << " program " << i;
  }
  EXPECT_EQ(a.warp_programs.expand(), b.warp_programs.expand()) << what;
  EXPECT_EQ(a.emulated_instructions, b.emulated_instructions) << what;
  EXPECT_EQ(a.unknown_branches.count, b.unknown_branches.count) << what;
  if (b.unknown_branches.count > 0) {
    EXPECT_EQ(a.unknown_branches.first.line, b.unknown_branches.first.line) << what;
  }
  return a.emulated_classes;
}

TEST(PtxFastPath, EveryCommittedKernelEqualsEmulateAll) {
  const std::vector<std::pair<Dim3, Dim3>> launches = {
      {{3, 1, 1}, {64, 1, 1}}, {{5, 3, 1}, {16, 8, 1}}, {{4, 2, 2}, {96, 1, 1}}, {{33, 1, 1}, {48, 1, 1}}, {{2, 1, 1}, {1000, 1, 1}}};
  int compared = 0;
  testing_support::for_each_committed_launch(
      testing_support::committed_ptx(kSource), {1, 16, 100}, launches,
      [&](const std::filesystem::path& file, const Module& module, const LoweringOptions& options, std::int64_t value) {
        const std::string what = file.filename().string() + " " + options.kernel + " value " + std::to_string(value) +
                                 " grid " + std::to_string(options.grid.x) + "," + std::to_string(options.grid.y) + "," +
                                 std::to_string(options.grid.z) + " block " + std::to_string(options.block.x) + "," +
                                 std::to_string(options.block.y);
        expect_same(module, options, what);
        ++compared;
      });
  EXPECT_GE(compared, testing_support::sample_count(500));
}

// The nvcc seeds of the PTX fuzzers (scripts/gen-fuzz-seeds.sh: every committed .cu, optimised,
// -G and -lineinfo builds): every file that parses, every kernel in it.
TEST(PtxFastPath, FuzzSeedsEqualEmulateAll) {
  int compared = 0;
  for (const char* dir : {"/tests/ptx/nvcc"}) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(kSource + dir)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      Module module;
      try {
        module = load_ptx_file(file.string());
      } catch (const InputError&) {
        continue;  // seeds of malformed text
      }
      for (const Function& f : module.functions) {
        if (!f.is_entry || !f.has_body) continue;
        ParameterEntries params;
        std::size_t position = 0;
        for (const KernelParameter& p : describe_parameters(f)) {
          if (!p.is_pointer && !p.is_aggregate) params.emplace_back(std::to_string(position), "24");
          ++position;
        }
        LoweringOptions options;
        options.kernel = f.name;
        options.grid = {5, 2, 1};
        options.block = {96, 1, 1};
        options.parameters = params;
        options.emulator.max_steps_per_warp = 1 << 20;
        expect_same(module, options, file.filename().string() + " " + f.name);
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 90);  // 98 kernels in the 65 seeds of nvcc 13.0 (the committed .ptx: the test above)
}

// The kernels the targets name: classes, not warps, and loops in closed form.
TEST(PtxFastPath, RealSizesNeedFewClasses) {
  const Module sgemm = load_ptx_file(kSource + "/workloads/sgemm/sgemm.ptx");
  LoweringOptions o;
  o.kernel = "sgemm_tiled";
  o.grid = {16, 16, 1};
  o.block = {16, 16, 1};
  o.parameters = {{"0", "256"}};
  EXPECT_EQ(expect_same(sgemm, o, "sgemm_tiled n=256"), 8);  // one class per warp of the block
  o.grid = {512, 512, 1};
  o.parameters = {{"0", "8192"}};
  const LoweredKernel big = lower_kernel(sgemm, o);
  ASSERT_EQ(big.programs.size(), 1u);
  EXPECT_EQ(big.programs[0].warps, 512 * 512 * 8);
  EXPECT_EQ(testing_support::paper_program(big.programs[0].program).dynamic_counts().loads, 2 * 8192 / 16);  // global
  EXPECT_EQ(big.emulated_classes, 8);

  const Module vector_ops = load_ptx_file(kSource + "/workloads/vector_ops/vector_ops.ptx");
  o.kernel = "vector_add";
  o.block = {256, 1, 1};
  o.grid = {1000, 1, 1};
  o.parameters = {{"3", "255917"}};  // the last block is partly out of range
  expect_same(vector_ops, o, "vector_add tail");
  o.grid = {std::int64_t{1} << 20, 1, 1};
  o.parameters = {{"3", std::to_string(std::int64_t{1} << 28)}};
  const LoweredKernel add = lower_kernel(vector_ops, o);
  ASSERT_EQ(add.programs.size(), 1u);
  EXPECT_EQ(add.programs[0].warps, std::int64_t{1} << 23);
  EXPECT_EQ(add.emulated_classes, 8);

  o.kernel = "saxpy_grid_stride";
  o.grid = {24, 1, 1};
  o.parameters = {{"0", "100000"}, {"1", "2"}};
  expect_same(vector_ops, o, "saxpy grid stride");
  o.grid = {1024, 1, 1};
  o.parameters = {{"0", std::to_string(std::int64_t{1} << 28)}, {"1", "2"}};
  const LoweredKernel saxpy = lower_kernel(vector_ops, o);
  ASSERT_EQ(saxpy.programs.size(), 1u);
  EXPECT_EQ(saxpy.programs[0].program.dynamic_counts().stores, 1024);
}

// A persistent kernel's tile fields (tests/ptx/cases/tile_fields.cu): a mask on high bits, a
// tile's row and column (tile / 64, tile % 64, (tile << 5) & 2016) as two digits of the block
// index, bit fields joined with `or`, indices passed to non-inlined functions and a float that
// steers nothing stay affine over the whole grid: one class per warp of a block (every warp of
// every block before 2026-11-27; 512 with the columns' residues cut apart).
TEST(PtxFastPath, TileFieldsStayInClasses) {
  const Module tiles = load_ptx_file(kSource + "/tests/ptx/cases/tile_fields.sm_80.ptx");
  LoweringOptions o;
  o.kernel = "_Z11tile_fieldsPKfPfji";
  o.grid = {1024, 1, 1};
  o.block = {256, 1, 1};
  o.parameters = {{"2", "1024"}, {"3", "2048"}};
  EXPECT_EQ(expect_same(tiles, o, "tile_fields 1024 tiles"), 8);
  o.parameters = {{"2", "5000"}, {"3", "2000"}};  // several tiles per block; rows 2000 floats apart
  EXPECT_LT(expect_same(tiles, o, "tile_fields 5000 tiles"), 1024 * 8);
}

// Loops that come back to the same state although something in them changes
// (tests/ptx/cases/helper_loops.cu): a window loop passing a function that is not inlined a new
// float each iteration (the float steers nothing: its param slot is stored unknown), and a
// counted loop around a search that the unknown-value policy leaves (its count of tests is kept
// modulo --unknown-trips). Both run in closed form, equal to --emulate-all (and a float a helper
// branches on is still followed); before 2026-11-30 the
// emulator stepped through every iteration of both (the -G builds of CUDA Samples'
// bilateralFilter and conjugate-gradient kernels: 8-15 s for one warp, now 0.05-0.1 s).
TEST(PtxFastPath, LoopsAroundCallsAndUnknownSearchesRunInClosedForm) {
  for (const char* build : {"tests/ptx/cases/helper_loops.sm_80.ptx", "tests/ptx/nvcc/helper_loops.sm_80.G.ptx"}) {
    const Module module = load_ptx_file(kSource + "/" + build);
    LoweringOptions o;
    o.kernel = "_Z12helper_loopsPKfPfPKiii";
    o.grid = {2, 1, 1};
    o.block = {64, 1, 1};
    for (const std::int64_t trips : {1, 3}) {
      o.emulator.unknown_loop_trips = trips;
      const std::string what = std::string(build) + " --unknown-trips " + std::to_string(trips);
      o.parameters = {{"3", "40"}, {"4", "0"}};
      expect_same(module, o, what + " window 81");
      o.parameters = {{"3", "0"}, {"4", "70"}};
      expect_same(module, o, what + " 70 rounds");
      o.parameters = {{"3", "7"}, {"4", "9"}};
      expect_same(module, o, what + " both");
      // A float that steers (mark_far branches on it) stays known: 5 of its 8 calls store
      // (offsets 3 to 7), then the result.
      o.parameters = {{"3", "0"}, {"4", "8"}};
      for (const WarpProgram& p : lower_kernel(module, o).programs) {
        EXPECT_EQ(testing_support::paper_program(p.program).dynamic_counts().stores, 6) << what << " steering float";
      }
      // Large: every warp (4) issues at least one instruction per iteration.
      for (const auto& [radius, rounds] : {std::pair{"200000", "0"}, std::pair{"0", "400000"}}) {
        o.parameters = {{"3", radius}, {"4", rounds}};
        const LoweredKernel k = lower_kernel(module, o);
        EXPECT_GT(k.emulated_instructions, 4 * 400000) << what << ' ' << radius << ' ' << rounds;
        EXPECT_LT(k.stepped_instructions, k.emulated_instructions / 1000) << what << ' ' << radius << ' ' << rounds;
      }
    }
  }
}

// A launch beyond 2^22 warps and up to CUDA's grid limit lowers, in bounded memory.
TEST(PtxFastPath, AnyLegalLaunch) {
  const Module module = load_ptx_file(kSource + "/workloads/vector_ops/vector_ops.ptx");
  LoweringOptions o;
  o.kernel = "vector_add";
  o.grid = {(std::int64_t{1} << 31) - 1, 65535, 1};
  o.block = {1024, 1, 1};
  o.parameters = {{"3", "2147483647"}};
  const LoweredKernel k = lower_kernel(module, o);
  EXPECT_EQ(k.warp_programs.warps(), ((std::int64_t{1} << 31) - 1) * 65535 * 32);
  // blockIdx.x * blockDim.x wraps around 32 bits here: the classes follow the wrap-arounds.
  EXPECT_LE(k.emulated_classes, 100000);
  o.emulate_all = true;
  EXPECT_THROW(lower_kernel(module, o), InputError);  // the reference path keeps its 2^22-warp limit
}

// --- generated loop nests ---

struct Generated {
  std::string ptx;
  Dim3 grid, block;
  ParameterEntries params;
};

// A kernel with a random loop nest: counters with random starts, steps and bounds (constants,
// parameters, or the thread index), loads at addresses affine in the thread, block and loop
// indices, a branch on a counter's parity, a guard on the thread index, shared-memory traffic.
Generated generate(std::mt19937& rng) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::ostringstream k;
  k << ".version 7.0\n.target sm_75\n.address_size 64\n.shared .align 4 .b8 tile[4096];\n"
    << ".visible .entry gen(.param .u64 gen_param_0, .param .u32 gen_param_1, .param .u32 gen_param_2)\n{\n"
    << ".reg .pred %p<40>;\n.reg .b32 %r<200>;\n.reg .b64 %rd<200>;\n.reg .f32 %f<20>;\n"
    << "ld.param.u64 %rd1, [gen_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n"
    << "ld.param.u32 %r1, [gen_param_1];\nld.param.u32 %r2, [gen_param_2];\n"
    << "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmov.u32 %r7, %ctaid.y;\n"
    << "mad.lo.s32 %r6, %r3, %r4, %r5;\nmov.f32 %f1, 0f00000000;\n";
  if (pick(2) == 0) k << "setp.ge.s32 %p1, %r6, %r1;\n@%p1 bra $EXIT;\n";
  if (pick(3) == 0) k << "rem.u32 %r8, %r6, 7;\nsetp.eq.s32 %p2, %r8, 3;\n@%p2 bra $EXIT;\n";
  const int depth = pick(6) == 0 ? 3 : 1 + pick(2);
  int reg = 20;
  std::vector<int> counters;
  for (int level = 0; level < depth; ++level) {
    const int c = reg++;
    counters.push_back(c);
    const int start = pick(3) == 0 ? pick(5) : 0;
    k << "mov.u32 %r" << c << ", " << start << ";\n";
    if (pick(4) == 0) k << "add.s32 %r" << c << ", %r" << c << ", %r5;\n";  // a start that differs by lane
    k << "$L" << level << ":\n";
  }
  // The body: loads at affine addresses.
  const int loads = 1 + pick(3);
  for (int l = 0; l < loads; ++l) {
    const int index = reg++;
    const int strides[] = {0, 1, 2, 3, 8, 17, 32, 64};
    k << "mul.lo.s32 %r" << index << ", %r6, " << strides[pick(8)] << ";\n";
    if (pick(2) == 0) k << "mad.lo.s32 %r" << index << ", %r7, " << 1 + pick(300) << ", %r" << index << ";\n";
    for (const int c : counters) {
      if (pick(3) != 0) k << "mad.lo.s32 %r" << index << ", %r" << c << ", " << strides[pick(8)] << ", %r" << index << ";\n";
    }
    if (pick(4) == 0) k << "shr.u32 %r" << index << ", %r" << index << ", 1;\n";
    const int wide = reg++;
    k << "mul.wide.s32 %rd" << wide << ", %r" << index << ", 4;\nadd.s64 %rd" << wide << ", %rd2, %rd" << wide << ";\n";
    if (pick(3) == 0) {  // only on even iterations of the innermost counter
      k << "and.b32 %r" << reg << ", %r" << counters.back() << ", 1;\nsetp.ne.s32 %p3, %r" << reg << ", 0;\n@%p3 bra $SKIP" << l
        << ";\n";
      ++reg;
      k << "ld.global.f32 %f2, [%rd" << wide << "];\nadd.f32 %f1, %f1, %f2;\n$SKIP" << l << ":\n";
    } else {
      k << "ld.global.f32 %f2, [%rd" << wide << "];\nadd.f32 %f1, %f1, %f2;\n";
    }
  }
  if (pick(3) == 0) {
    k << "shl.b32 %r" << reg << ", %r5, 2;\nst.shared.f32 [%r" << reg << "], %f1;\nbar.sync 0;\n";
    ++reg;
  }
  // Close the loops (innermost first), bottom-tested.
  for (int level = depth - 1; level >= 0; --level) {
    const int c = counters[static_cast<std::size_t>(level)];
    k << "add.s32 %r" << c << ", %r" << c << ", " << 1 + pick(3) << ";\n";
    switch (pick(4)) {
      case 0: k << "setp.lt.s32 %p" << 10 + level << ", %r" << c << ", %r2;\n"; break;
      case 1: k << "setp.lt.s32 %p" << 10 + level << ", %r" << c << ", " << 1 + pick(depth == 1 ? 200 : 12) << ";\n"; break;
      case 2: k << "setp.lt.u32 %p" << 10 + level << ", %r" << c << ", " << (depth == 1 ? "%r1" : "%r2") << ";\n"; break;
      default: {
        // A bound that depends on the outer counter (triangular) or the thread.
        const int bound = reg++;
        const std::string outer = level > 0 ? "%r" + std::to_string(counters[static_cast<std::size_t>(level - 1)]) : "%r5";
        k << "add.s32 %r" << bound << ", " << outer << ", " << 1 + pick(6) << ";\n";
        k << "setp.lt.s32 %p" << 10 + level << ", %r" << c << ", %r" << bound << ";\n";
      }
    }
    k << "@%p" << 10 + level << " bra $L" << level << ";\n";
    if (level > 0 && pick(3) == 0) k << "add.f32 %f1, %f1, 0f3F800000;\n";
  }
  k << "mul.wide.s32 %rd190, %r6, 4;\nadd.s64 %rd191, %rd2, %rd190;\nst.global.f32 [%rd191], %f1;\n$EXIT:\nret;\n}\n";
  Generated g;
  g.ptx = k.str();
  g.grid = {1 + pick(24), 1 + pick(2), 1};
  g.block = {1 + pick(128), 1, 1};
  g.params = {{"1", std::to_string(pick(4) == 0 ? pick(3000) : g.grid.x * g.block.x - pick(100))},
              {"2", std::to_string(pick(depth == 1 ? 100 : 10))}};
  return g;
}

// expect_same for a generated kernel at its launch; `what` gets the PTX appended.
std::int64_t expect_same(const Generated& g, const std::string& what) {
  const Module module = parse_ptx(g.ptx, "generated.ptx");
  LoweringOptions options;
  options.grid = g.grid;
  options.block = g.block;
  options.parameters = g.params;
  options.emulator.max_steps_per_warp = 1 << 20;
  return expect_same(module, options, what + ":\n" + g.ptx);
}

// A kernel that cuts a (scaled, offset) block index into tile digits the ways nvcc does: shr or
// div for the row, an `and` or rem for the column, a shifted bit field, joined with `or` (bits
// disjoint or not), in a persistent loop over tiles or not; the digits reach addresses and a
// branch. Grids of every size, multiples of the tile width or not.
Generated generate_tiles(std::mt19937& rng) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const int shift = 1 + pick(6);
  const int width = 1 << shift;
  const int divisor = pick(3) == 0 ? 3 + pick(10) : width;
  std::ostringstream k;
  k << ".version 7.0\n.target sm_75\n.address_size 64\n"
    << ".visible .entry tiles(.param .u64 tiles_param_0, .param .u32 tiles_param_1)\n{\n"
    << ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<10>;\n"
    << "ld.param.u64 %rd1, [tiles_param_0];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u32 %r30, [tiles_param_1];\n"
    << "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nmov.u32 %r3, %nctaid.x;\nand.b32 %r20, %r2, 31;\n";
  if (pick(3) == 0) k << "mad.lo.s32 %r1, %r1, " << 1 + pick(4) << ", " << pick(3) * width << ";\n";
  const bool persistent = pick(2) == 0;
  if (persistent) k << "$TILE:\n";
  k << (divisor == width ? "shr.u32 %r4, %r1, " + std::to_string(shift) : "div.u32 %r4, %r1, " + std::to_string(divisor)) << ";\n"
    << (divisor == width && pick(2) == 0 ? "and.b32 %r5, %r1, " + std::to_string(width - 1) : "rem.u32 %r5, %r1, " + std::to_string(divisor))
    << ";\n";
  const int field_shift = pick(6);
  k << "shl.b32 %r6, %r1, " << field_shift << ";\nand.b32 %r7, %r6, " << ((width - 1) << field_shift) << ";\n"
    << "shl.b32 %r8, %r4, " << shift + field_shift + pick(3) << ";\nor.b32 %r9, %r8, %r7;\n"
    << "shl.b32 %r10, %r9, " << (pick(2) == 0 ? 5 : pick(5)) << ";\nor.b32 %r11, %r10, %r20;\n"
    << "or.b32 %r13, %r11, " << (1 << pick(24)) << ";\n"  // a bit between the fields, or on one
    << "mad.lo.s32 %r12, %r5, " << 1 + pick(64) << ", %r" << (pick(2) == 0 ? 13 : 11) << ";\n"
    << "mul.wide.u32 %rd3, %r12, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r5;\n"
    << "setp.lt.u32 %p1, %r" << (pick(2) == 0 ? 5 : 4) << ", " << pick(divisor + 2) << ";\n"
    << "@%p1 st.global.u32 [%rd4+" << 4 * pick(40) << "], %r4;\n";
  if (persistent) k << "add.s32 %r1, %r1, %r3;\nsetp.lt.u32 %p2, %r1, %r30;\n@%p2 bra $TILE;\n";
  k << "ret;\n}\n";
  Generated g;
  g.ptx = k.str();
  const std::int64_t blocks = pick(2) == 0 ? width * (1 + pick(20)) : 1 + pick(300);
  g.grid = {blocks, 1, 1};
  g.block = {32 * (1 + pick(4)), 1, 1};
  g.params = {{"1", std::to_string(blocks * (1 + pick(3)) - pick(2))}};
  return g;
}

TEST(PtxFastPath, GeneratedTileDigitsEqualEmulateAll) {
  std::mt19937 rng(20261127);
  std::int64_t fewer_classes = 0;
  for (std::int64_t i = 0; i < testing_support::sample_count(300); ++i) {
    const Generated g = generate_tiles(rng);
    const std::int64_t classes = expect_same(g, "generated kernel " + std::to_string(i) + " grid " + std::to_string(g.grid.x));
    if (classes >= 0 && classes * 4 <= g.grid.count() * ((g.block.count() + 31) / 32)) ++fewer_classes;
    if (::testing::Test::HasFailure()) break;
  }
  // How often it groups is a property of the whole set of 300: checked in full outside the sanitizer build.
  EXPECT_GE(fewer_classes, testing_support::kSanitizerStride == 1 ? 100 : 1);
}

TEST(PtxFastPath, GeneratedLoopNestsEqualEmulateAll) {
  std::mt19937 rng(20261124);
  std::int64_t fewer_classes = 0;
  for (std::int64_t i = 0; i < testing_support::sample_count(400); ++i) {
    const Generated g = generate(rng);
    const std::int64_t classes = expect_same(g, "generated kernel " + std::to_string(i));
    if (classes >= 0 && classes < g.grid.count() * ((g.block.count() + 31) / 32)) ++fewer_classes;
    if (::testing::Test::HasFailure()) break;  // one counterexample is enough to read
  }
  // The fast path did group blocks (how often: over the whole set of 400, outside the sanitizer build).
  EXPECT_GE(fewer_classes, testing_support::kSanitizerStride == 1 ? 120 : 1);
}

}  // namespace
}  // namespace warpsim::ptx

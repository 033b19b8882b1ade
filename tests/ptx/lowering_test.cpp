// The PTX frontend from parsed module to per-warp kernel programs: dynamic load/store counts
// worked out by hand from the committed PTX and the hand-written cases, divergence,
// reconvergence, calls, the unknown-branch policies, coalescing and errors (parameter binding:
// params_test.cpp).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <tuple>

#include "warpsim/ptx/cfg.hpp"
#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "support/paper_program.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

struct Counts {
  std::int64_t warps, loads, stores;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << "{warps " << c.warps << ", loads " << c.loads << ", stores " << c.stores << "}";
}

LoweredKernel lower(const std::string& file, Dim3 grid, Dim3 block, ParameterEntries params = {},
                    const std::string& kernel = "", EmulatorOptions emulator = {}, bool sample_reuse = true) {
  const Module module = load_ptx_file(kSource + "/" + file);
  LoweringOptions options;
  options.kernel = kernel;
  options.grid = grid;
  options.block = block;
  options.parameters = std::move(params);
  options.emulator = emulator;
  options.sample_reuse = sample_reuse;
  return lower_kernel(module, options);
}

std::vector<Counts> counts(const LoweredKernel& k) {
  std::vector<Counts> out;
  for (const WarpProgram& p : k.programs) {
    const isa::DynamicCounts c = testing_support::paper_program(p.program).dynamic_counts();  // global accesses
    out.push_back({p.warps, c.loads, c.stores});
  }
  return out;
}

// Loads per thread of the nvcc 13 sm_75 build of mtx_mul_vec (workloads/README.md): the loop is
// unrolled by 4 with vec_out[i] loaded once before it, and a remainder loop that loads
// vec_out[i] once more; 2 loads (mtx, vec_in) and 1 store per source iteration.
std::int64_t mtx_mul_vec_loads(std::int64_t n) {
  const std::int64_t main_loop = n >= 4 ? 1 + 8 * (n / 4) : 0;
  const std::int64_t remainder = n % 4 != 0 ? 1 + 2 * (n % 4) : 0;
  return main_loop + remainder;
}

TEST(PtxLowering, MtxMulVecAcceptance) {
  const LoweredKernel k = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "102"}});
  EXPECT_EQ(k.name, "mtx_mul_vec");
  ASSERT_EQ(k.programs.size(), 1u);
  EXPECT_EQ(counts(k), (std::vector<Counts>{{1, 2 * 102 + 2, 102}}));
  // Loops stay loops: the 25 unrolled iterations are not 25 copies. (Without the reuse
  // annotations, which tell the peeled copies of the body from the loop's, it folds tighter.)
  EXPECT_LT(k.programs[0].program.ops().size(), 60u);
  const LoweredKernel plain = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "102"}}, "", {}, false);
  EXPECT_LT(plain.programs[0].program.ops().size(), 40u);
  EXPECT_EQ(counts(plain), counts(k));
}

TEST(PtxLowering, MtxMulVecLoadsForManySizes) {
  for (const std::int64_t n : {0, 1, 3, 4, 5, 7, 8, 64, 101, 1000, 4099}) {
    for (const char* file : {"workloads/mtx_mul_vec/mtx_mul_vec.ptx", "workloads/mtx_mul_vec/mtx_mul_vec.sm_90.ptx"}) {
      const LoweredKernel k = lower(file, {2, 1, 1}, {64, 1, 1}, {{"0", std::to_string(n)}});
      EXPECT_EQ(counts(k), (std::vector<Counts>{{4, mtx_mul_vec_loads(n), n}})) << file << " N=" << n;
    }
  }
  EXPECT_EQ(mtx_mul_vec_loads(3), 7);
}

TEST(PtxLowering, LongLoopsStaySmall) {
  const LoweredKernel k = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "200003"}});
  EXPECT_EQ(counts(k), (std::vector<Counts>{{1, mtx_mul_vec_loads(200003), 200003}}));
  // 41 ops: the pipe mixes and use distances tell apart some runs of equal length (40 without).
  EXPECT_LT(k.programs[0].program.ops().size(), 48u);
}

// mtx_mul_vec's launch with n = `n`, stopped when `cancel` is set.
LoweringOptions mtx_mul_vec_launch(Dim3 grid, Dim3 block, const std::string& n, const std::atomic<bool>& cancel) {
  LoweringOptions options;
  options.grid = grid;
  options.block = block;
  options.parameters = {{"0", n}};
  options.cancel = &cancel;
  return options;
}

// Every 2^16 warp instructions the emulator says where it is: in mtx_mul_vec's unrolled loop
// (its first instruction is line 59; 22 instructions an iteration), one warp, 2^15 iterations
// emulated one by one (--emulate-all): the loop's header and a count that grows by about
// 65536 / 22 between reports. A cancel set from the report stops the lowering there, and the
// Interrupted it throws carries the same place.
TEST(PtxLowering, ReportsThePlaceOfALongEmulationAndStopsThere) {
  const Module module = load_ptx_file(kSource + "/workloads/mtx_mul_vec/mtx_mul_vec.ptx");
  std::atomic<bool> cancel{false};
  LoweringOptions options = mtx_mul_vec_launch({1, 1, 1}, {32, 1, 1}, "131072", cancel);
  options.emulate_all = true;
  options.sample_reuse = false;
  std::vector<EmulationPlace> places;
  options.report_place = [&](const EmulationPlace& p) {
    places.push_back(p);
    if (places.size() == 3) cancel = true;
  };
  std::optional<EmulationPlace> stopped;
  try {
    lower_kernel(module, options);
  } catch (const Interrupted& stop) {
    stopped = stop.place;
  }
  ASSERT_EQ(places.size(), 3u);
  ASSERT_TRUE(stopped.has_value());
  for (std::size_t i = 0; i < places.size(); ++i) {
    EXPECT_EQ(places[i].loop.line, 59);
    EXPECT_GE(places[i].at.line, 59);
    EXPECT_EQ(places[i].warp, 0);
    if (i > 0) {
      EXPECT_NEAR(static_cast<double>(places[i].iterations - places[i - 1].iterations), 65536.0 / 22, 2);
    }
  }
  EXPECT_EQ(stopped->loop.line, 59);
  EXPECT_EQ(stopped->iterations, places.back().iterations);
  EXPECT_EQ(stopped->at.line, places.back().at.line);
  EXPECT_EQ(describe(*stopped), "warp 0 of block (0,0,0), in the loop at line 59 (iteration " +
                                    std::to_string(stopped->iterations + 1) + "), at line " +
                                    std::to_string(stopped->at.line));
}

// Stopped between warp classes, the place is the next class's first block and warp, before the
// kernel's first instruction, with the classes done so far.
TEST(PtxLowering, StoppedBetweenClassesNamesTheNextOne) {
  const Module module = load_ptx_file(kSource + "/workloads/mtx_mul_vec/mtx_mul_vec.ptx");
  const std::atomic<bool> cancel{true};
  const LoweringOptions options = mtx_mul_vec_launch({4, 1, 1}, {64, 1, 1}, "64", cancel);
  try {
    lower_kernel(module, options);
    FAIL() << "not stopped";
  } catch (const Interrupted& stop) {
    ASSERT_TRUE(stop.place.has_value());
    EXPECT_EQ(stop.place->done, 0);
    EXPECT_GT(stop.place->known, 0);
    EXPECT_EQ(stop.place->block_x, 0);
    EXPECT_EQ(stop.place->loop.line, 0);
    EXPECT_GT(stop.place->at.line, 0);
    EXPECT_NE(describe(*stop.place).find(", before line " + std::to_string(stop.place->at.line) + ", after 0 of "),
              std::string::npos);
  }
}

// The paper's rule against a count by hand (the test below compares the lowering with its own
// notes, which come from the same trace items): predicated_store.ptx runs, per warp, 9
// instructions (3 ld.param, 3 cvta, mov, mul.wide, add), ld.global, 2 (setp, add), st.global, 2
// (add.f32, add), st.global, 1 (ret): periods of n + 9 cycles, 18 + 11 + 11 + 10 = 50.
TEST(PtxLowering, CalcPeriodsMatchAHandCount) {
  const LoweredKernel k = lower("tests/ptx/cases/predicated_store.ptx", {1, 1, 1}, {64, 1, 1});
  for (const WarpProgram& p : k.programs) {
    std::vector<isa::Millicycles> calcs;
    std::string kinds;
    for (const isa::Op& op : p.program.ops()) {
      kinds += isa::to_string(op.kind)[0];
      if (op.kind == isa::OpKind::calc) calcs.push_back(op.duration);
    }
    EXPECT_EQ(kinds, "clcscsc");
    EXPECT_EQ(calcs, (std::vector<isa::Millicycles>{18'000, 11'000, 11'000, 10'000}));
  }
}

TEST(PtxLowering, CalcPeriodsFollowThePaperRule) {
  const LoweredKernel k = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "4"}});
  const WarpProgram& p = k.programs[0];
  for (std::size_t i = 0; i < p.program.ops().size(); ++i) {
    const isa::Op& op = p.program.ops()[i];
    if (op.kind == isa::OpKind::calc) {
      EXPECT_EQ(op.duration, (p.notes[i].instructions + (p.notes[i].opens_period ? 9 : 0)) * 1000);
    }
    if (op.kind == isa::OpKind::load) {
      EXPECT_EQ(op.duration, kDefaultMemoryCycles);
    }
  }
  // No two calc periods in a row: a period is a maximal run without a global access.
  for (std::size_t i = 1; i < p.program.ops().size(); ++i) {
    EXPECT_FALSE(p.program.ops()[i].kind == isa::OpKind::calc && p.program.ops()[i - 1].kind == isa::OpKind::calc);
  }
}

TEST(PtxLowering, StridedAccessesCountTheirLines) {
  // matrix_sum_normal: thread x is the row, so a warp's 16 x 2 threads read 16 rows, one float of
  // two adjacent columns each: 16 sectors in 16 different 128-byte lines, one front-end pass each.
  // vectorAdd's 32 consecutive floats are 4 sectors of one line: `lines` stays 0 (= ceil(4 / 4)).
  const LoweredKernel normal = lower("workloads/measured/ptx/matrix_sum_normal-T16.ptx", {4, 4, 1}, {16, 16, 1}, {{"3", "64"}});
  const LoweredKernel add = lower("workloads/measured/ptx/vectorAdd-T16.ptx", {4, 1, 1}, {256, 1, 1}, {{"3", "1024"}});
  for (const auto& [kernel, sectors, lines] : {std::tuple{&normal, 16, 16}, std::tuple{&add, 4, 0}}) {
    for (const WarpProgram& p : kernel->programs) {
      for (const isa::Op& op : p.program.ops()) {
        if (!isa::is_memory(op.kind)) continue;
        EXPECT_EQ(op.transactions, sectors) << kernel->name;
        EXPECT_EQ(op.lines, lines) << kernel->name;
      }
    }
  }
}

TEST(PtxLowering, CoalescingCountsSectors) {
  // vec_out[i] is 32 consecutive floats (4 sectors); vec_in[j] is the same word for every lane
  // (1 sector); mtx[i*N+j] with N = 4 has a 16-byte row per lane (16 sectors). The ops list
  // each once: the unrolled body is a loop (without reuse annotations, which tell the peeled first
  // iteration, whose data is new, from the loop's).
  const LoweredKernel k = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "4"}}, "", {}, false);
  std::vector<std::int32_t> load_sectors, store_sectors;
  const WarpProgram& p = k.programs[0];
  for (std::size_t i = 0; i < p.program.ops().size(); ++i) {
    if (p.program.ops()[i].kind == isa::OpKind::load) load_sectors.push_back(p.notes[i].transactions);
    if (p.program.ops()[i].kind == isa::OpKind::store) store_sectors.push_back(p.notes[i].transactions);
  }
  EXPECT_EQ(load_sectors, (std::vector<std::int32_t>{4, 1, 16}));
  EXPECT_EQ(store_sectors, (std::vector<std::int32_t>{4}));
}

TEST(PtxLowering, DwtKernelsOverALargeGrid) {
  // mtx: K iterations of two loads, one store; 2^16 threads, every warp the same program.
  const LoweredKernel m = lower("workloads/dwt/dwt.ptx", {256, 1, 1}, {256, 1, 1},
                                {{"0", "14"}, {"1", "65536"}, {"5", "65536"}}, "mtx");
  EXPECT_EQ(counts(m), (std::vector<Counts>{{2048, 28, 1}}));
  // ltt: 4 loads and 2 stores per thread; threads beyond `total` return at once, so the last
  // warp (4 of 32 lanes active) touches fewer sectors: a program of its own.
  const LoweredKernel l = lower("workloads/dwt/dwt.ptx", {2, 1, 1}, {64, 1, 1},
                                {{"0", "0"}, {"1", "5"}, {"2", "200"}, {"5", "100"}}, "_Z3lttiiiPfS_i");
  EXPECT_EQ(counts(l), (std::vector<Counts>{{3, 4, 2}, {1, 4, 2}}));
}

TEST(PtxLowering, SameResultWhateverTheThreadCount) {
  const Module module = load_ptx_file(kSource + "/workloads/dwt/dwt.ptx");
  LoweringOptions options;
  options.kernel = "ltt";
  options.grid = {97, 1, 1};  // several chunks, the last one short
  options.block = {96, 1, 1};
  options.parameters = {{"0", "1"}, {"1", "5"}, {"2", "18000"}, {"5", "9000"}};
  options.threads = 1;
  const LoweredKernel one = lower_kernel(module, options);
  options.threads = 2;
  const LoweredKernel two = lower_kernel(module, options);
  EXPECT_EQ(one.warp_programs.expand(), two.warp_programs.expand());
  ASSERT_EQ(one.programs.size(), two.programs.size());
  EXPECT_GE(one.programs.size(), 2u);
  for (std::size_t i = 0; i < one.programs.size(); ++i) {
    EXPECT_TRUE(one.programs[i].program.same_meaning(two.programs[i].program));
    EXPECT_EQ(one.programs[i].warps, two.programs[i].warps);
    EXPECT_EQ(one.programs[i].first_warp, two.programs[i].first_warp);
  }
  EXPECT_EQ(one.emulated_instructions, two.emulated_instructions);
}

TEST(PtxLowering, HandWrittenCases) {
  const std::string dir = "tests/ptx/cases/";
  EXPECT_EQ(counts(lower(dir + "divergent_if.ptx", {1, 1, 1}, {64, 1, 1})), (std::vector<Counts>{{2, 1, 3}}));
  EXPECT_EQ(counts(lower(dir + "early_return.ptx", {1, 1, 1}, {64, 1, 1}, {{"0", "40"}})),
            (std::vector<Counts>{{1, 1, 1}, {1, 1, 1}}));
  EXPECT_EQ(counts(lower(dir + "early_return.ptx", {1, 1, 1}, {64, 1, 1}, {{"0", "32"}})),
            (std::vector<Counts>{{1, 1, 1}, {1, 0, 0}}));
  EXPECT_EQ(counts(lower(dir + "nested_loops.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "3"}, {"1", "5"}})),
            (std::vector<Counts>{{1, 15, 3}}));
  EXPECT_EQ(counts(lower(dir + "nested_loops.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "7"}, {"1", "0"}})),
            (std::vector<Counts>{{1, 0, 7}}));
  // Warp 1 issues the predicated store with no lane active: counted, but as an access of no lane
  // (kNoLanes), which moves no data; warp 0's has its 8 lanes' sector.
  const LoweredKernel predicated = lower(dir + "predicated_store.ptx", {1, 1, 1}, {64, 1, 1});
  EXPECT_EQ(counts(predicated), (std::vector<Counts>{{1, 1, 2}, {1, 1, 2}}));
  const auto first_store = [](const isa::Program& p) {
    for (const isa::Op& op : p.ops()) {
      if (op.kind == isa::OpKind::store) return op.transactions;
    }
    return std::int32_t{-100};
  };
  EXPECT_EQ(first_store(predicated.programs[0].program), 1);
  EXPECT_EQ(first_store(predicated.programs[1].program), isa::kNoLanes);
  EXPECT_EQ(counts(lower(dir + "barrier.ptx", {1, 1, 1}, {64, 1, 1})), (std::vector<Counts>{{2, 1, 1}}));
  EXPECT_EQ(counts(lower(dir + "triangular_loop.ptx", {1, 1, 1}, {32, 1, 1})), (std::vector<Counts>{{1, 31, 1}}));
  EXPECT_EQ(counts(lower(dir + "call_func.ptx", {1, 1, 1}, {64, 1, 1})), (std::vector<Counts>{{2, 4, 1}}));
  // The second call sees its own argument (5), not the first call's (2).
  EXPECT_EQ(counts(lower(dir + "repeated_call.ptx", {1, 1, 1}, {32, 1, 1})), (std::vector<Counts>{{1, 7, 1}}));
}

// Shared accesses and the barrier are ops of their own, inside the paper's calc period between
// the global load and store: its n instructions still last n + 9 cycles in all.
TEST(PtxLowering, BarrierCaseHasSharedAccessesAndABarrierAsOps) {
  const LoweredKernel k = lower("tests/ptx/cases/barrier.ptx", {1, 1, 1}, {64, 1, 1});
  std::vector<std::string> ops;
  for (const isa::Op& op : k.programs[0].program.ops()) {
    ops.push_back(std::string(isa::to_string(op.kind)) + (op.space == isa::MemorySpace::unspecified ? "" : " ") +
                  isa::to_string(op.space));
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"calc", "load global", "calc", "store shared", "bar", "calc", "load shared", "calc",
                                           "store global", "calc"}));
}

TEST(PtxLowering, UnknownBranchPolicies) {
  const std::string file = "tests/ptx/cases/uniform_loop_unknown.ptx";
  // The loop's exit test reads memory: by default the loop is left at the first test.
  const LoweredKernel once = lower(file, {1, 1, 1}, {32, 1, 1});
  EXPECT_EQ(counts(once), (std::vector<Counts>{{1, 1, 1}}));
  EXPECT_GT(once.unknown_branches.count, 0);
  EXPECT_EQ(once.unknown_branches.first.line, 49);
  EmulatorOptions three;
  three.unknown_loop_trips = 3;
  EXPECT_EQ(counts(lower(file, {1, 1, 1}, {32, 1, 1}, {}, "", three)), (std::vector<Counts>{{1, 3, 1}}));
  // A warp that runs away is stopped with a located error.
  EmulatorOptions never;
  never.unknown_loop_trips = std::int64_t{1} << 40;
  never.max_steps_per_warp = 10000;
  try {
    lower(file, {1, 1, 1}, {32, 1, 1}, {}, "", never);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 10000 instructions"), std::string::npos) << e.what();
    EXPECT_GT(e.location().line, 0);
  }
}

// A warp whose loop folds into no loops (each iteration loads with another stride) is stopped with
// a located error once its trace holds more than EmulatorOptions::max_trace_items, not left to
// grow by gigabytes until the step limit.
TEST(PtxLowering, ATraceThatFoldsIntoNoLoopsIsBounded) {
  const std::string file = "tests/ptx/cases/unfolding_stream.ptx";
  const LoweredKernel some = lower(file, {1, 1, 1}, {32, 1, 1}, {{"1", "2000"}});
  EXPECT_GT(some.programs[0].program.ops().size(), 2000u);  // it does not fold: about two items an iteration
  EmulatorOptions bounded;
  bounded.max_trace_items = 1000;
  try {
    lower(file, {1, 1, 1}, {32, 1, 1}, {{"1", "100000"}}, "", bounded);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fold into no loops"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than 1000 items"), std::string::npos) << e.what();
    EXPECT_GT(e.location().line, 0);
  }
}

TEST(PtxLowering, KernelSelection) {
  try {
    lower("workloads/dwt/dwt.ptx", {1, 1, 1}, {32, 1, 1});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("choose one with --kernel (mtx, ltt, mtx_rows, mtx_cols)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(lower("workloads/dwt/dwt.ptx", {1, 1, 1}, {32, 1, 1}, {}, "nope"), InputError);
  try {
    lower("tests/malformed/ptx/no_entry.ptx", {1, 1, 1}, {32, 1, 1});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no kernel"), std::string::npos);
  }
}

TEST(PtxLowering, AbsurdLaunchesAreRefused) {
  EXPECT_THROW(lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 1, 1}, {2048, 1, 1}, {{"0", "1"}}), InputError);
  EXPECT_THROW(lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1, 70000, 1}, {32, 1, 1}, {{"0", "1"}}), InputError);
  EXPECT_THROW(lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {std::int64_t{1} << 31, 1, 1}, {32, 1, 1}, {{"0", "1"}}), InputError);
  // 2^35 warps are a legal launch: lowered as classes (the reference path refuses over 2^22 warps).
  const LoweredKernel big = lower("workloads/mtx_mul_vec/mtx_mul_vec.ptx", {1 << 30, 1, 1}, {1024, 1, 1}, {{"0", "1"}});
  EXPECT_EQ(big.warp_programs.warps(), std::int64_t{1} << 35);
  ASSERT_EQ(big.programs.size(), 1u);
  EXPECT_EQ(big.programs[0].warps, std::int64_t{1} << 35);
}

TEST(PtxLowering, MultiDimensionalLaunch) {
  // mtx_rows / mtx_cols index with 2D blocks: every thread of a W x H image, K taps each.
  const LoweredKernel k = lower("workloads/dwt/dwt.ptx", {4, 8, 1}, {16, 8, 1},
                                {{"0", "4"}, {"1", "64"}, {"2", "64"}}, "mtx_rows");
  std::int64_t warps = 0;
  for (const WarpProgram& p : k.programs) warps += p.warps;
  EXPECT_EQ(warps, 4 * 8 * 4);
  EXPECT_EQ(k.warp_programs.warps(), 128);
}

// Every committed .ptx parses, decodes and lowers for a small launch with every scalar
// parameter set to 16.
TEST(PtxLowering, EveryCommittedKernelLowers) {
  int kernels = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kSource + "/workloads")) {
    if (entry.path().extension() != ".ptx") continue;
    const Module module = load_ptx_file(entry.path().string());
    for (const Function& f : module.functions) {
      if (!f.is_entry) continue;
      ParameterEntries params;
      for (const KernelParameter& p : describe_parameters(f)) {
        if (!p.is_pointer && !p.is_aggregate) params.emplace_back(p.ptx_name, "16");
      }
      LoweringOptions options;
      options.kernel = f.name;
      options.grid = {2, 1, 1};
      options.block = {64, 1, 1};
      options.parameters = params;
      const LoweredKernel k = lower_kernel(module, options);
      EXPECT_FALSE(k.programs.empty()) << entry.path() << " " << f.name;
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 20);
}

// Real nvcc constructs that once broke the frontend (tests/ptx/regressions/README.md).
TEST(PtxRegressions, ConstructsFromRealNvccOutput) {
  const std::string dir = "tests/ptx/regressions/";
  const auto one = [&](const std::string& file, ParameterEntries params = {}) {
    const std::vector<Counts> c = counts(lower(dir + file, {1, 1, 1}, {32, 1, 1}, std::move(params)));
    return c.size() == 1 ? c[0] : Counts{-1, -1, -1};
  };
  EXPECT_EQ(one("cvt_f16x2.ptx"), (Counts{1, 0, 0}));
  EXPECT_EQ(one("cvt_e4m3x2.ptx"), (Counts{1, 0, 0}));
  for (const char* file : {"cpasync_commit_group.ptx", "cpasync_wait_group.ptx", "cpasync_wait_all.ptx", "cpasync_mbarrier_arrive.ptx"}) {
    EXPECT_EQ(one(file), (Counts{1, 1, 0})) << file;  // the cp.async itself is the one load
  }
  EXPECT_EQ(one("ld_cache_hint.ptx"), (Counts{1, 1, 0}));
  EXPECT_EQ(one("st_cache_hint.ptx"), (Counts{1, 0, 1}));
  EXPECT_EQ(one("elect_sync.ptx"), (Counts{1, 0, 0}));
  EXPECT_EQ(one("proto_then_def.ptx"), (Counts{1, 1, 0}));
  // Two bulk copies (global to shared, shared to global) and one cp.async.ca.
  EXPECT_EQ(one("cp_async_bulk.ptx"), (Counts{1, 2, 1}));
  EXPECT_EQ(one("wmma_gemm.sm_80.O3.ptx", {{"3", "16"}, {"4", "16"}, {"5", "16"}}), (Counts{1, 2, 1}));
  // alloca'd memory is local: its accesses are local ops inside the calc period.
  const LoweredKernel local = lower(dir + "alloca_generic.ptx", {1, 1, 1}, {32, 1, 1}, {{"0", "4"}});
  EXPECT_EQ(counts(local), (std::vector<Counts>{{1, 0, 0}}));
  std::vector<isa::MemorySpace> spaces;
  for (const isa::Op& op : local.programs[0].program.ops()) {
    if (isa::is_memory(op.kind)) spaces.push_back(op.space);
  }
  EXPECT_EQ(spaces, (std::vector<isa::MemorySpace>{isa::MemorySpace::local, isa::MemorySpace::local}));
}

TEST(PtxRegressions, SecondStressRun) {
  const std::string dir = "tests/ptx/regressions/";
  // 65 nested calls that are not recursion (the limit is 1024).
  EXPECT_EQ(counts(lower(dir + "chain65.ptx", {1, 1, 1}, {32, 1, 1})), (std::vector<Counts>{{1, 0, 1}}));
  // A generic load through cvta.param reads the parameter space, not global memory; isspacep
  // and mapa keep shared addresses shared.
  for (const char* file : {"cvta_param.ptx", "isspacep.ptx", "mapa.ptx"}) {
    const LoweredKernel k = lower(dir + file, {1, 1, 1}, {32, 1, 1});
    EXPECT_EQ(counts(k), (std::vector<Counts>{{1, 0, 1}})) << file;
    std::vector<isa::MemorySpace> spaces;
    for (const isa::Op& op : k.programs[0].program.ops()) {
      if (isa::is_memory(op.kind) && !op.is_paper_memory()) spaces.push_back(op.space);
    }
    // The kernel parameters read through a generic address count as a constant access.
    EXPECT_EQ(spaces, (std::vector<isa::MemorySpace>{std::string(file) == "cvta_param.ptx" ? isa::MemorySpace::constant
                                                                                           : isa::MemorySpace::shared}))
        << file;
    EXPECT_EQ(k.unknown_branches.count, 0) << file;
  }
  // CUDA refuses a block beyond the kernel's .maxntid.
  try {
    lower(dir + "launch_bounds.sm_90.ptx", {1, 1, 1}, {512, 1, 1}, {{"2", "1"}, {"3", "1"}, {"4", "1"}}, "lb3");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("declares .maxntid 256,1,1; --block 512,1,1 does not fit it"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(lower(dir + "launch_bounds.sm_90.ptx", {1, 1, 1}, {256, 1, 1}, {{"2", "1"}, {"3", "1"}, {"4", "1"}}, "lb3"));
}

TEST(PtxRegressions, PointerParametersFromTheDemangledSignature) {
  const auto kinds = [](const std::string& file) {
    const Module module = load_ptx_file(kSource + "/tests/ptx/regressions/" + file);
    std::string text;
    for (const KernelParameter& p : describe_parameters(module.functions.back())) {
      text += p.is_aggregate ? 'a' : p.is_pointer ? 'p' : 's';
    }
    return text;
  };
  EXPECT_EQ(kinds("demangle_lambda.ptx"), "aps");          // apply<lambda>(lambda, float*, int)
  EXPECT_EQ(kinds("demangle_ptr_to_array.ptx"), "psppss");  // k7(int (*) [4], int, void*, void const*, unsigned long, long)
  EXPECT_EQ(kinds("demangle_funcptr.ptx"), "sp");           // k4(int, float (*)(float))
  EXPECT_EQ(short_kernel_name("_Z5applyIZ6launchPfifEUlfiE_EvT_S0_i"), "apply<launch(float*, int, float)::{lambda(float, int)#1}>");
  EXPECT_EQ(short_kernel_name("_Z11mtx_mul_veciPfS_S_"), "mtx_mul_vec");
  EXPECT_EQ(short_kernel_name("plain_c_name"), "plain_c_name");
}

TEST(PtxDecode, LocatedErrors) {
  const auto error_at = [](const std::string& file, int line, int column, const std::string& part) {
    const Module module = load_ptx_file(kSource + "/tests/malformed/ptx/" + file);
    try {
      decode_module(module);
      ADD_FAILURE() << file;
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().line, line) << file << ": " << e.describe();
      EXPECT_EQ(e.location().column, column) << file << ": " << e.describe();
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  error_at("undefined_label.ptx", 21, 14, "undefined label");
  error_at("undeclared_register.ptx", 20, 23, "undeclared register '%r9'");
  error_at("wrong_operand_count.ptx", 20, 5, "takes 3 operands, not 2");
}

TEST(PtxCfg, PostDominatorsGiveReconvergencePoints) {
  const Module module = load_ptx_file(kSource + "/tests/ptx/cases/divergent_if.ptx");
  const DecodedModule decoded = decode_module(module);
  const DecodedFunction& f = decoded.functions.at(0);
  const ControlFlowGraph cfg(f);
  // The divergent branch reconverges at the common store's block, which post-dominates both
  // paths: the first instruction after the else path.
  for (std::uint32_t i = 0; i < f.code.size(); ++i) {
    if (f.code[i].opcode != Opcode::bra || !f.code[i].has_guard) continue;
    const std::uint32_t join = cfg.reconvergence_point(i);
    ASSERT_LT(join, f.code.size());
    EXPECT_EQ(f.code[join - 1].opcode, Opcode::st);  // the else path's store comes just before
    EXPECT_EQ(cfg.immediate_post_dominators().size(), cfg.blocks().size());
  }
}

}  // namespace
}  // namespace warpsim::ptx

namespace warpsim::ptx {
namespace {

// brx.idx on a loaded (unknown) index is one decision for the warp, not one per lane (review,
// 2026-11): two warps, each deciding once.
TEST(PtxLowering, BranchTableOnAnUnknownIndexIsOneDecisionPerWarp) {
  const char* text = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  ts: .branchtargets $A, $B;
  brx.idx %r1, ts;
$A:
  add.s32 %r2, %r1, 1;
$B:
  ret;
}
)";
  const Module module = parse_ptx(text, "brx.ptx");
  LoweringOptions options;
  options.grid = {1, 1, 1};
  options.block = {64, 1, 1};
  for (const bool all : {false, true}) {
    options.emulate_all = all;
    EXPECT_EQ(lower_kernel(module, options).unknown_branches.count, 2);
  }
  // A known index (the input stated): in the table, no unknown decision; out of it (PTX leaves
  // that undefined), target 0 and one unknown decision per warp (review 2026-11 architecture, 13).
  options.emulate_all = false;
  options.inputs = {{"0", parse_input_contents("const:1", "--input 0")}};
  EXPECT_EQ(lower_kernel(module, options).unknown_branches.count, 0);
  options.inputs = {{"0", parse_input_contents("const:7", "--input 0")}};
  EXPECT_EQ(lower_kernel(module, options).unknown_branches.count, 2);
}

}  // namespace
}  // namespace warpsim::ptx

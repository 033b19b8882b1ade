// A calc run longer than one calc op holds (design review 2026-11, 4.3): a long loop without
// memory access folds into one run, whose counts can pass isa::Program's limits (2^30 of a
// count, 10^9 cycles). The lowering splits it (ptx::add_calc_run); these check that the kernel of
// tests/ptx/cases/long_compute_loop.ptx lowers on both lowering paths, that the split ops hold
// the run's counts, and that a split times exactly as the unsplit op where the model is exact.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx/lowering_streams.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "support/sanitizer_sample.hpp"
#include "support/source_dir.hpp"

namespace warpsim::sim::workload {
namespace {

const std::string kCase = "tests/ptx/cases/long_compute_loop.ptx";

ptx::Module long_loop_module() {
  std::ifstream in(testing_support::kSourceDir + "/" + kCase);
  std::stringstream text;
  text << in.rdbuf();
  return ptx::parse_ptx(text.str(), kCase);
}

ptx::LoweredKernel lower_long_loop(const ptx::Module& module, std::int64_t trips, bool emulate_all) {
  ptx::LoweringOptions options;
  options.grid = {1, 1, 1};
  options.block = {32, 1, 1};
  options.parameters = {{"0", std::to_string(trips)}};
  options.emulate_all = emulate_all;
  return ptx::lower_kernel(module, options);
}

// The run's counts over every op, loops multiplied out.
isa::CalcMix total_mix(const isa::Program& program) {
  isa::CalcMix total;
  std::vector<std::int64_t> times{1};
  for (const isa::Op& op : program.ops()) {
    if (op.kind == isa::OpKind::repeat) times.push_back(times.back() * op.count);
    if (op.kind == isa::OpKind::end) times.pop_back();
    const isa::CalcMix* mix = program.mix_of(op);
    if (mix == nullptr) continue;
    total.issue += times.back() * mix->issue;
    for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
      total.work[p] += times.back() * mix->work[p];
      total.chain[p] += times.back() * mix->chain[p];
    }
  }
  return total;
}

// The one calc of a lowered run back as the folder's item.
ptx::TraceItem item_of(const ptx::WarpProgram& p) {
  EXPECT_EQ(p.program.ops().size(), 1u);
  ptx::TraceItem item;
  item.kind = ptx::TraceItem::Kind::calc;
  item.count = p.notes[0].instructions;
  item.opens_period = p.notes[0].opens_period;
  item.mix = *p.program.mix_of(p.program.ops()[0]);
  item.source = p.notes[0].source;
  return item;
}

isa::Millicycles time_of(const isa::Program& program, Model model, std::int64_t warps) {
  const gpus::Profile gpu = gpus::load_profile("a100");
  const grid::Launch launch{1, warps * 32};
  const ModelSpec spec = make_model_spec(model, gpu, launch, 4'000, false);
  return core::simulate_core(program, warps, spec.tm, spec.core_options());
}

TEST(CalcSplit, LongComputeLoopLowersAndTimes) {
  // 2^24 trips: 2^27 PTX instructions, 283 * 2^24 + 5 issued: one op would hold more than 2^30.
  // Before the split: "a calc's issue and pipe counts must be whole numbers in [0, 2^30]".
  const ptx::Module module = long_loop_module();
  const std::int64_t trips = std::int64_t{1} << 24;
  const ptx::LoweredKernel kernel = lower_long_loop(module, trips, false);
  ASSERT_EQ(kernel.programs.size(), 1u);
  const isa::Program& program = kernel.programs[0].program;
  EXPECT_GT(program.ops().size(), 1u);
  for (const isa::Op& op : program.ops()) {
    const isa::CalcMix* mix = program.mix_of(op);
    if (mix == nullptr) continue;
    EXPECT_LE(mix->issue, isa::kMaxMixCount);
    EXPECT_LE(op.duration, isa::kMaxDuration);
  }
  // The counts, durations and pipes time are linear in the trips: a + b * trips from two short runs.
  const auto linear = [&](const auto& of) {
    const ptx::LoweredKernel k1 = lower_long_loop(module, 1000, false), k2 = lower_long_loop(module, 2000, false);
    const std::int64_t y1 = of(k1.programs[0].program), y2 = of(k2.programs[0].program);
    EXPECT_EQ((y2 - y1) % 1000, 0);
    return y1 + (y2 - y1) / 1000 * (trips - 1000);
  };
  const auto issue = [](const isa::Program& p) { return total_mix(p).issue; };
  const auto calc_time = [](const isa::Program& p) { return p.dynamic_counts().calc_time; };
  const auto pipes_time = [](const isa::Program& p) { return time_of(p, Model::pipes, 1); };
  const auto memory_time = [](const isa::Program& p) { return time_of(p, Model::memory, 1); };
  EXPECT_EQ(issue(program), linear(issue));
  EXPECT_EQ(calc_time(program), ptx::calc_period_duration(8 * trips + 5));
  EXPECT_EQ(pipes_time(program), linear(pipes_time));
  EXPECT_EQ(memory_time(program), ptx::calc_period_duration(8 * trips + 5));
}

TEST(CalcSplit, EmulateAllSplitsAlike) {
  // The fewest trips that split (3'800'000: 2^30 + 1.7e6 issued), every one emulated (~10 s at -O3).
  if (testing_support::kSanitizerStride > 1) GTEST_SKIP() << "the first pass checks it";
  const ptx::Module module = long_loop_module();
  const ptx::LoweredKernel fast = lower_long_loop(module, 3'800'000, false);
  const ptx::LoweredKernel full = lower_long_loop(module, 3'800'000, true);
  ASSERT_EQ(fast.programs.size(), 1u);
  ASSERT_EQ(full.programs.size(), 1u);
  EXPECT_GT(fast.programs[0].program.ops().size(), 1u);
  EXPECT_EQ(isa::to_kp(fast.programs[0].program), isa::to_kp(full.programs[0].program));
  ASSERT_EQ(fast.programs[0].notes.size(), full.programs[0].notes.size());
  for (std::size_t i = 0; i < fast.programs[0].notes.size(); ++i) {
    EXPECT_EQ(fast.programs[0].notes[i].instructions, full.programs[0].notes[i].instructions);
    EXPECT_EQ(fast.programs[0].notes[i].opens_period, full.programs[0].notes[i].opens_period);
  }
}

TEST(CalcSplit, SplitTimesAsTheUnsplitOp) {
  // Just under the limit: 3'790'000 trips issue 283 * 3.79e6 + 4 < 2^30, one op.
  const ptx::Module module = long_loop_module();
  const ptx::LoweredKernel kernel = lower_long_loop(module, 3'790'000, false);
  ASSERT_EQ(kernel.programs.size(), 1u);
  const ptx::WarpProgram& whole = kernel.programs[0];
  const ptx::TraceItem item = item_of(whole);
  ASSERT_LE(item.mix.issue, isa::kMaxMixCount);
  ASSERT_GT(item.mix.issue, isa::kMaxMixCount - 283 * 10'000);

  for (const std::int64_t ops : {2, 3, 7, 1000}) {
    isa::Program split(whole.program.name(), whole.program.source());
    std::vector<ptx::OpNote> notes;
    // Limits that make this run need `ops` ops (pieces of at most half of them).
    ptx::add_calc_run(item, split, notes, ptx::CalcOpLimits{2 * (item.mix.issue / ops + 1), isa::kMaxMixCount});
    split.finish();
    ASSERT_EQ(notes.size(), split.ops().size());
    EXPECT_EQ(total_mix(split), item.mix) << ops << " ops";
    EXPECT_EQ(split.dynamic_counts().calc_time, whole.program.dynamic_counts().calc_time) << ops << " ops";
    // Exact on both models, one warp or several: the chain decides each op's time under pipes when
    // one warp runs, the issue port when several do. (Where a pipe's work decides it, each op
    // but the last would add its pipe's latency tail: a few cycles in 2^29.)
    for (const Model model : {Model::memory, Model::pipes}) {
      for (const std::int64_t warps : {1, 4, 12}) {
        EXPECT_EQ(time_of(split, model, warps), time_of(whole.program, model, warps))
            << ops << " ops, " << warps << " warps, model " << static_cast<int>(model);
      }
    }
  }
}

TEST(CalcSplit, ARunTooLongToCountSaysWhereAndWhatToDo) {
  ptx::TraceItem item;
  item.kind = ptx::TraceItem::Kind::calc;
  item.count = std::int64_t{1} << 60;
  item.mix.issue = item.count;
  item.opens_period = true;
  item.source = {{31, item.count / 2}, {35, item.count / 2}};
  isa::Program program("k", kCase);
  std::vector<ptx::OpNote> notes;
  try {
    ptx::add_calc_run(item, program, notes);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.describe();
    EXPECT_EQ(what.rfind(kCase + ":31: ", 0), 0u) << what;
    EXPECT_NE(what.find("kernel k: lines 31 to 35"), std::string::npos) << what;
    EXPECT_NE(what.find("--max-steps"), std::string::npos) << what;
    EXPECT_EQ(what.find("calc"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace warpsim::sim::workload

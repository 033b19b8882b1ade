#include "warpsim/isa/program.hpp"

#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"

namespace warpsim::isa {
namespace {

TEST(Program, BindReplacesParametersAndChecksThem) {
  const Program program = parse_kp("repeat N\n  calc 1\n  repeat M\n    load 2\n  end\nend\n", "p.kp");
  const Program bound = program.bind({{"N", 3}, {"M", 4}});
  EXPECT_TRUE(bound.is_bound());
  EXPECT_EQ(bound.ops()[0].count, 3);
  EXPECT_EQ(bound.ops()[2].count, 4);
  EXPECT_THROW(program.bind({{"N", 3}}), InputError);                      // M missing
  EXPECT_THROW(program.bind({{"N", 3}, {"M", 4}, {"K", 1}}), InputError);  // K unused
  EXPECT_THROW(program.bind({{"N", -1}, {"M", 4}}), InputError);
  try {
    program.bind({{"N", 3}});
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().line, 3);
    EXPECT_NE(std::string(e.what()).find("--param M=VALUE"), std::string::npos);
  }
}

TEST(Program, DynamicCountsMultiplyLoopsOut) {
  const Program program =
      parse_kp("calc 27\nrepeat 102\n load 60\n load 60\n calc 10\n store 60\n calc 14\nend\n", "m.kp");
  const DynamicCounts counts = program.dynamic_counts();
  EXPECT_EQ(counts.loads, 204);
  EXPECT_EQ(counts.stores, 102);
  EXPECT_EQ(counts.calcs, 1 + 204);
  EXPECT_EQ(counts.instructions, 1 + 5 * 102);
  EXPECT_EQ(counts.calc_time, 27'000 + 102 * 24'000);
  EXPECT_EQ(counts.memory_duration, 102 * 180'000);
}

TEST(Program, DynamicCountsRefuseOverflow) {
  const Program program = parse_kp(
      "repeat 1099511627776\nrepeat 1099511627776\nrepeat 1099511627776\ncalc 1\nend\nend\nend\n", "big.kp");
  EXPECT_THROW(program.dynamic_counts(), InputError);
}

// Re-timing copies every op and changes only durations (review 2026-11, finding 1: the rebuild
// op by op dropped lines= and reuse=, so a d1 changed memory-model results).
TEST(Program, ReTimingKeepsEveryAnnotation) {
  const Program program = parse_kp(
      "kernel k\ntm 4\ncalc 27\nrepeat 8\n load 60 global sectors=16 lines=9 reuse=0.25 distance=4096\n"
      " load 60 shared ways=2\n bar\n store 60 global sectors=4\nend\n",
      "annotated.kp");
  const Program same = program.with_memory_durations([](std::size_t, const Op&) { return std::nullopt; });
  EXPECT_TRUE(same.same_meaning(program));
  const Program retimed = program.with_memory_durations([](std::size_t index, const Op&) -> std::optional<Millicycles> {
    return index == 0 ? std::optional<Millicycles>(61'000) : std::nullopt;
  });
  ASSERT_EQ(retimed.ops().size(), program.ops().size());
  for (std::size_t i = 0; i < program.ops().size(); ++i) {
    Op expected = program.ops()[i];
    if (i == 2) {  // the first memory instruction (calc, repeat, then the load)
      ASSERT_EQ(expected.kind, OpKind::load);
      expected.duration = 61'000;
    }
    EXPECT_TRUE(retimed.ops()[i].same_meaning(expected)) << "op " << i;
    EXPECT_EQ(retimed.ops()[i].line, expected.line);
  }
  EXPECT_EQ(retimed.ops()[2].lines, 9);
  EXPECT_EQ(retimed.ops()[2].reuse.permille, 250);
  EXPECT_TRUE(retimed.has_memory_annotations());
  EXPECT_EQ(retimed.default_tm(), program.default_tm());
  EXPECT_THROW(program.with_memory_durations([](std::size_t, const Op&) { return std::optional<Millicycles>(0); }),
               InputError);
}

// Explain's findings edit a copy in place: the edits land where asked, the rest stays, and an
// edit that would change the program's shape or leave the ranges is refused.
TEST(Program, EditedCopyChangesOnlyWhatTheEditDoes) {
  const Program program = parse_kp("kernel k\ncalc 9 issue=4 fp32=4\nrepeat 8\n load 60 shared ways=32\nend\n", "edited.kp");
  const Program edited = program.with_ops_edited([](std::size_t, Op& op, CalcMix* mix) {
    if (op.kind == OpKind::load) op.transactions = 1;
    if (mix != nullptr) mix->work[static_cast<std::size_t>(Pipe::fp32)] = 2;
  });
  EXPECT_EQ(edited.ops()[2].transactions, 1);
  EXPECT_EQ(program.ops()[2].transactions, 32);  // the original untouched
  EXPECT_EQ(edited.mix_of(edited.ops()[0])->work[static_cast<std::size_t>(Pipe::fp32)], 2);
  EXPECT_EQ(program.mix_of(program.ops()[0])->work[static_cast<std::size_t>(Pipe::fp32)], 4);
  EXPECT_EQ(edited.ops()[1].count, 8);
  EXPECT_THROW(program.with_ops_edited([](std::size_t, Op& op, CalcMix*) { if (op.kind == OpKind::repeat) op.count = 9; }), InputError);
  EXPECT_THROW(program.with_ops_edited([](std::size_t, Op& op, CalcMix*) { if (op.kind == OpKind::calc) op.kind = OpKind::load; }), InputError);
  // A load made a register move: a calc of one cycle with no memory fields.
  const Program moved = program.with_ops_edited([](std::size_t, Op& op, CalcMix*) { if (op.kind == OpKind::load) op.kind = OpKind::calc; });
  EXPECT_EQ(moved.ops()[2].kind, OpKind::calc);
  EXPECT_EQ(moved.ops()[2].space, MemorySpace::unspecified);
  EXPECT_EQ(moved.ops()[2].transactions, 0);
  EXPECT_EQ(moved.ops()[2].duration, kMillicyclesPerCycle);
  EXPECT_THROW(program.with_ops_edited([](std::size_t, Op& op, CalcMix*) { op.transactions = -2; }), InputError);
  EXPECT_THROW(program.with_ops_edited([](std::size_t, Op&, CalcMix* mix) { if (mix != nullptr) mix->issue = 0; }), InputError);
}

// The identity caches key on: equal for programs that time alike whatever their names and lines,
// different when any timed field differs (a duration, lines=, a space).
TEST(Program, TimingIdentityIsTheTimedContent) {
  const auto id = [](const std::string& text) { return parse_kp(text, "t.kp").timing_identity(); };
  const std::string base = "calc 5\nrepeat 4\n load 60 global sectors=16 lines=4\nend\n";
  EXPECT_EQ(id("kernel a\n" + base), id("kernel b\n\n\n" + base));
  EXPECT_NE(id(base), id("calc 5\nrepeat 4\n load 60 global sectors=16 lines=5\nend\n"));
  EXPECT_NE(id(base), id("calc 5\nrepeat 4\n load 61 global sectors=16 lines=4\nend\n"));
  EXPECT_NE(id(base), id("calc 5\nrepeat 4\n load 60 shared ways=16\nend\n"));
  EXPECT_NE(id(base), id("calc 5\nrepeat 5\n load 60 global sectors=16 lines=4\nend\n"));
  EXPECT_THROW(parse_kp("repeat N\ncalc 1\nend\n", "u.kp").timing_identity(), InputError);  // unbound
}

}  // namespace
}  // namespace warpsim::isa

#include <gtest/gtest.h>

#include <string>

#include "warpsim/isa/input_error.hpp"
#include "support/located_error.hpp"
#include "warpsim/isa/kp_format.hpp"

namespace warpsim::isa {
namespace {

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

TEST(KpFormat, ReadsListing4WithLoopAndDefaultTm) {
  const Program program = load_kp_file(kSourceDir + "/workloads/mtx_mul_vec/mtx_mul_vec.kp");
  EXPECT_EQ(program.name(), "mtx_mul_vec");
  EXPECT_EQ(program.default_tm(), 31000);
  ASSERT_EQ(program.ops().size(), 8u);  // calc, repeat, 5 instructions, end: never expanded
  EXPECT_EQ(program.ops()[1].kind, OpKind::repeat);
  EXPECT_EQ(program.ops()[1].count_parameter, "N");
  EXPECT_EQ(program.ops()[1].partner, 7u);
  EXPECT_EQ(program.ops()[7].partner, 1u);
  EXPECT_EQ(program.ops()[2].line, 7);
  EXPECT_EQ(program.parameters(), std::vector<std::string>{"N"});
}

TEST(KpFormat, KernelNameDefaultsToFileStem) {
  const Program program = parse_kp("calc 1\n", "some/dir/my_kernel.kp");
  EXPECT_EQ(program.name(), "my_kernel");
}

TEST(KpFormat, AcceptsCommentsBlankLinesNestingAndEndRepeat) {
  const Program program = parse_kp(
      "# header\n\nkernel k\ntm 2.5   # default\nrepeat 3\n  repeat M\n    load 1.125\n  end repeat\n"
      "  store 4\nend\r\n",
      "k.kp");
  EXPECT_EQ(program.max_loop_depth(), 2);
  EXPECT_EQ(program.default_tm(), 2500);
  EXPECT_EQ(program.ops()[2].duration, 1125);
  EXPECT_EQ(program.parameters(), std::vector<std::string>{"M"});
}

TEST(KpFormat, AcceptsThePapersRepeatTimes) {
  const Program program = parse_kp("repeat K times\n  calc 1\nend repeat\n", "p.kp");
  EXPECT_EQ(program.parameters(), std::vector<std::string>{"K"});
  EXPECT_THROW(parse_kp("repeat K often\n  calc 1\nend\n", "p.kp"), InputError);
}

TEST(KpFormat, RoundTripsEveryBundledProgram) {
  for (const char* file : {"/workloads/dwt/matrix.kp", "/workloads/dwt/lattice.kp",
                           "/workloads/mtx_mul_vec/mtx_mul_vec.kp", "/workloads/examples/listing1_load.kp",
                           "/workloads/examples/listing1_store.kp"}) {
    const Program original = load_kp_file(kSourceDir + file);
    const std::string text = to_kp(original);
    const Program again = parse_kp(text, "again.kp");
    EXPECT_TRUE(again.same_meaning(original)) << file << "\n" << text;
    EXPECT_EQ(to_kp(again), text);
  }
}

TEST(KpFormat, MemoryAnnotationsRoundTrip) {
  const std::string text =
      "kernel annotated\nload 60 global sectors=4 reuse=0.875 distance=2304\nload 1 shared ways=2\n"
      "store 60 local reuse=1 distance=0\nload 60 tex sectors=8 reuse=0.05 distance=1099511627776\nload 1 const ways=3\n"
      "bar 1\nload 60 global\nstore 60 global sectors=32 lines=32\n";
  const Program program = parse_kp(text, "a.kp");
  EXPECT_EQ(program.ops()[0].reuse, (CacheReuse{875, 2304}));
  EXPECT_EQ(program.ops()[2].reuse, (CacheReuse{1000, 0}));
  EXPECT_EQ(program.ops()[3].reuse, (CacheReuse{50, std::int64_t{1} << 40}));
  EXPECT_EQ(program.ops()[6].reuse, CacheReuse{});
  EXPECT_EQ(program.ops()[7].lines, 32);
  // lines= as few as the sectors fit in is the default, written without it.
  EXPECT_EQ(to_kp(parse_kp("load 6 global sectors=5 lines=2\n", "c.kp")), "kernel c\nload 6 global sectors=5\n");
  EXPECT_EQ(to_kp(program), text);
  // The reuse fraction takes up to three decimals, whatever their trailing zeros.
  EXPECT_EQ(parse_kp("load 6 global sectors=1 reuse=0.500 distance=3\n", "b.kp").ops()[0].reuse, (CacheReuse{500, 3}));
  EXPECT_EQ(parse_kp("load 6 global reuse=1.0 distance=3\n", "b.kp").ops()[0].reuse, (CacheReuse{1000, 3}));
}

// sectors=0 / ways=0: an access no lane made, kept apart from an unknown one (no count).
TEST(KpFormat, AccessWithNoLaneRoundTrips) {
  const std::string text = "kernel none\nload 60 global sectors=0\nstore 1 shared ways=0\nload 60 global\n";
  const Program program = parse_kp(text, "n.kp");
  EXPECT_EQ(program.ops()[0].transactions, kNoLanes);
  EXPECT_EQ(program.ops()[1].transactions, kNoLanes);
  EXPECT_EQ(program.ops()[2].transactions, 0);
  EXPECT_EQ(to_kp(program), text);
}

// An atomic's lanes on one address and its updates to the launch's busiest (same=N hot=F), before
// `async` and `use=`.
TEST(KpFormat, AtomicsRoundTrip) {
  const std::string text = "kernel a\nload 60 global sectors=1 same=32 hot=32 use=3\nstore 60 global sectors=4 same=2 hot=0.125\n";
  const Program program = parse_kp(text, "a.kp");
  EXPECT_EQ(program.ops()[0].same_address, 32);
  EXPECT_EQ(program.ops()[0].hot_updates_milli, 32'000);
  EXPECT_EQ(program.ops()[0].use_distance, 3);
  EXPECT_EQ(program.ops()[1].hot_updates_milli, 125);
  EXPECT_EQ(to_kp(program), text);
  EXPECT_THROW(parse_kp("load 60 global sectors=1 same=33 hot=1\n", "b.kp"), InputError);
  EXPECT_THROW(parse_kp("load 60 global sectors=1 same=1 hot=33\n", "b.kp"), InputError);
  EXPECT_THROW(parse_kp("load 1 shared ways=1 same=2 hot=1\n", "b.kp"), InputError);
}

TEST(KpFormat, RoundTripKeepsNestedLoopsAndFractions) {
  Program program("nested", "");
  program.set_default_tm(1);
  program.add(OpKind::calc, 27'001);
  program.begin_repeat(std::string("N"));
  program.begin_repeat(0);
  program.add(OpKind::load, 60'500);
  program.end_repeat();
  program.add(OpKind::store, 999);
  program.end_repeat();
  program.finish();
  EXPECT_EQ(to_kp(program), "kernel nested\ntm 0.001\ncalc 27.001\nrepeat N\n  repeat 0\n    load 60.5\n  end\n"
                            "  store 0.999\nend\n");
  EXPECT_TRUE(parse_kp(to_kp(program), "x.kp").same_meaning(program));
}

using testing_support::BadInput;

class KpErrors : public testing::TestWithParam<BadInput> {};

TEST_P(KpErrors, NameTheLineAndTheProblem) {
  const auto parse = [](const std::string& text, const std::string& file) { return parse_kp(text, file); };
  testing_support::expect_located_error(parse, GetParam(), "bad.kp");
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, KpErrors,
    testing::Values(BadInput{"calc 1\nfoo 2\n", 2, "unknown keyword 'foo'"},
                    BadInput{"calc\n", 1, "missing operand"},
                    BadInput{"calc 1 2\n", 1, "extra operand"},
                    BadInput{"load -5\n", 1, "negative"},
                    BadInput{"load 0\n", 1, "must be positive"},
                    BadInput{"store 1.0001\n", 1, "three decimals"},
                    BadInput{"calc x\n", 1, "not a decimal"},
                    BadInput{"repeat 3\ncalc 1\n", 1, "never closed"},
                    BadInput{"calc 1\nend\n", 2, "without a matching"},
                    BadInput{"repeat 2\nend\n", 1, "empty body"},
                    BadInput{"repeat -1\ncalc 1\nend\n", 1, "neither"},
                    BadInput{"repeat 2x\ncalc 1\nend\n", 1, "neither"},
                    BadInput{"repeat 99999999999999\ncalc 1\nend\n", 1, "limit of 2^40"},
                    BadInput{"calc 1\nkernel late\n", 2, "before the first instruction"},
                    BadInput{"tm 1\ntm 2\n", 2, "second 'tm'"},
                    BadInput{"kernel a\nkernel b\n", 2, "second 'kernel'"},
                    BadInput{"kernel 9lives\n", 1, "not a kernel name"},
                    BadInput{"\x7f" "ELF\x01\x02\n", 1, "unknown keyword '\\x7fELF\\x01\\x02'"},
                    // The pipes vocabulary.
                    BadInput{"calc 1\ncalc 2 fp33=1\n", 2, "not a pipe"},
                    BadInput{"calc 2 int=1 fp32=1\n", 1, "come in the order"},
                    BadInput{"calc 2 fp32=1 fp32=1\n", 1, "come in the order"},
                    BadInput{"calc 2 fp32=0\n", 1, "[1, 2^30]"},
                    BadInput{"calc 2 fp32=x\n", 1, "[1, 2^30]"},
                    BadInput{"calc 2 fp32=2000000000\n", 1, "[1, 2^30]"},
                    BadInput{"calc 2 fp32=1 issue=2\n", 1, "'issue=2': not a pipe"},
                    BadInput{"calc 2 issue=0 fp32=1\n", 1, "issue at least one"},
                    BadInput{"calc 2 tensor_f16=8\n", 1, "issue at least one"},
                    BadInput{"calc 2 chain fp32=1 chain int=1\n", 1, "extra operand 'chain'"},
                    BadInput{"calc 2 fp32\n", 1, "extra operand 'fp32'"},
                    BadInput{"load 5 use=-1\n", 1, "[0, 2^30]"},
                    BadInput{"load 5 hoist=2\n", 1, "'hoist=2' is not a memory space"},
                    BadInput{"load 5 use=1 hoist=x\n", 1, "'hoist=x': the count must be a whole number in [0, 2^30]"},
                    BadInput{"store 5 use=1\n", 1, "not a memory space"},
                    BadInput{"load 5 global use=1 sectors=4\n", 1, "'use=1': a global access takes"}));

TEST(KpFormat, PipeMixesAndUseDistancesRoundTrip) {
  const std::string text =
      "kernel mixes\ncalc 12 fp32=8 int=4 chain fp32=2 int=1\ncalc 14 issue=12 fp32=8 sfu=1 control=1\n"
      "calc 3 issue=1 tensor_f16=8 chain tensor_f16=1\ncalc 9 issue=0\nload 1 shared ways=1 use=3 hoist=5\nload 60 use=0\n"
      "load 60 global sectors=4 reuse=0.5 distance=64 use=7\ncalc 2\n";
  const Program program = parse_kp(text, "m.kp");
  EXPECT_EQ(to_kp(program), text);
  ASSERT_NE(program.mix_of(program.ops()[0]), nullptr);
  const CalcMix& mix = *program.mix_of(program.ops()[0]);
  EXPECT_EQ(mix.issue, 12);
  EXPECT_EQ(mix.work[static_cast<std::size_t>(Pipe::fp32)], 8);
  EXPECT_EQ(mix.chain[static_cast<std::size_t>(Pipe::int32)], 1);
  EXPECT_EQ(program.mix_of(program.ops()[2])->issue, 1);
  EXPECT_TRUE(program.mix_of(program.ops()[3])->empty());
  EXPECT_EQ(program.mix_of(program.ops()[7]), nullptr);  // a plain calc has no mix
  EXPECT_EQ(program.ops()[4].use_distance, 3);
  EXPECT_EQ(program.ops()[4].hoist, 5);
  EXPECT_EQ(program.ops()[5].use_distance, 0);
  // What the pipes model reads is part of the timing identity: a different mix, another identity.
  const Program other = parse_kp("kernel mixes\ncalc 12 fp32=7 int=5 chain fp32=2 int=1\n", "o.kp");
  const Program same_duration = parse_kp("kernel mixes\ncalc 12 fp32=8 int=4 chain fp32=2 int=1\n", "s.kp");
  EXPECT_NE(other.timing_identity(), same_duration.timing_identity());
  EXPECT_FALSE(other.same_meaning(same_duration));
}

TEST(KpFormat, RejectsLoopsNestedTooDeep) {
  std::string text;
  for (int i = 0; i <= kMaxLoopDepth; ++i) text += "repeat 1\n";
  EXPECT_THROW(parse_kp(text, "deep.kp"), InputError);
}

TEST(KpFormat, UnreadableFilesAreInputErrors) {
  try {
    load_kp_file("/nonexistent/x.kp");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), "/nonexistent/x.kp: cannot read: no such file");
  }
  EXPECT_THROW(load_kp_file(kSourceDir + "/workloads"), InputError);
}

}  // namespace
}  // namespace warpsim::isa

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

}  // namespace
}  // namespace warpsim::isa

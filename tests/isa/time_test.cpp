#include "warpsim/isa/time.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace warpsim::isa {
namespace {

TEST(Time, ParsesDecimalsExactly) {
  EXPECT_EQ(parse_cycles("112"), 112000);
  EXPECT_EQ(parse_cycles("1.1"), 1100);
  EXPECT_EQ(parse_cycles("0.125"), 125);
  EXPECT_EQ(parse_cycles("+3."), 3000);
  EXPECT_EQ(parse_cycles(".5"), 500);
  EXPECT_EQ(parse_cycles("0"), 0);
}

TEST(Time, RejectsWhatIsNotAnExactTime) {
  for (const char* bad : {"", "-1", "1.2345", "abc", "1e3", "1.2.3", ".", "12x", "nan", "inf"}) {
    EXPECT_THROW(parse_cycles(bad), std::invalid_argument) << bad;
  }
  EXPECT_THROW(parse_cycles("1000000001"), std::invalid_argument);  // above 10^9 cycles
  EXPECT_THROW(parse_cycles("99999999999999999999999"), std::invalid_argument);
}

TEST(Time, ConvertsDoublesWithAtMostThreeDecimals) {
  EXPECT_EQ(cycles_from_double(1.1), 1100);
  EXPECT_EQ(cycles_from_double(18.5), 18500);
  EXPECT_EQ(cycles_from_double(0.001), 1);
  EXPECT_THROW(cycles_from_double(0.0001), std::invalid_argument);
  EXPECT_THROW(cycles_from_double(-1), std::invalid_argument);
  EXPECT_THROW(cycles_from_double(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(cycles_from_double(std::numeric_limits<double>::infinity()), std::invalid_argument);
  EXPECT_THROW(cycles_from_double(2e9), std::invalid_argument);
}

TEST(Time, FormatsShortestExactDecimal) {
  EXPECT_EQ(format_cycles(112000), "112");
  EXPECT_EQ(format_cycles(1100), "1.1");
  EXPECT_EQ(format_cycles(125), "0.125");
  EXPECT_EQ(format_cycles(10), "0.01");
  EXPECT_EQ(format_cycles(0), "0");
  EXPECT_EQ(format_cycles(-1500), "-1.5");
  EXPECT_EQ(format_cycles(std::numeric_limits<Millicycles>::min()), "-9223372036854775.808");
  for (const Millicycles t : {Millicycles{1}, Millicycles{999}, Millicycles{123456789}}) {
    EXPECT_EQ(parse_cycles(format_cycles(t)), t);
  }
}

}  // namespace
}  // namespace warpsim::isa

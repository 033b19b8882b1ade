// --nvcc-flags split into words as a POSIX shell splits them (no shell runs), and what a .cu is.
#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/workload/cuda_compile.hpp"

namespace {

using warpsim::sim::workload::split_nvcc_flags;
using Words = std::vector<std::string>;

TEST(NvccFlags, SplitAsAShellWould) {
  EXPECT_EQ(split_nvcc_flags(""), Words{});
  EXPECT_EQ(split_nvcc_flags("  -DN=4\t-I include  "), (Words{"-DN=4", "-I", "include"}));
  EXPECT_EQ(split_nvcc_flags("-I 'my dir' -DS=\"a b\""), (Words{"-I", "my dir", "-DS=a b"}));
  EXPECT_EQ(split_nvcc_flags(R"(-DQ=\"x\" a\ b "\$HOME" '\n')"), (Words{"-DQ=\"x\"", "a b", "$HOME", "\\n"}));
  EXPECT_EQ(split_nvcc_flags("''"), Words{""});
  EXPECT_THROW(split_nvcc_flags("-DX='open"), warpsim::InputError);
  EXPECT_THROW(split_nvcc_flags("\"open"), warpsim::InputError);
}

TEST(NvccFlags, OnlyDotCuIsCompiled) {
  EXPECT_TRUE(warpsim::sim::workload::is_cuda_source("k.cu"));
  EXPECT_FALSE(warpsim::sim::workload::is_cuda_source("k.cuh"));
  EXPECT_FALSE(warpsim::sim::workload::is_cuda_source("k.ptx"));
}

}  // namespace

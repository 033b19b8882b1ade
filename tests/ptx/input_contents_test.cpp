// What an input buffer holds (--input; frontends/ptx/input_contents.cpp, docs/ptx.md "Input
// contents"): the values each spec gives a load of each type, the malformed specs, and a
// histogram whose atomic addresses follow from the data (issue 46).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <fstream>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/ptx/input_contents.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;
constexpr ScalarType kU32{TypeKind::u, 32}, kS32{TypeKind::s, 32}, kF32{TypeKind::f, 32}, kF64{TypeKind::f, 64}, kU8{TypeKind::u, 8};

TEST(InputContents, ZerosAndConstantsAsEachTypeReadsThem) {
  const InputContents zeros = parse_input_contents("zeros", "--input 0");
  EXPECT_EQ(zeros.value_at(12345, kF32), 0u);
  EXPECT_FALSE(zeros.varies_by_address());
  const InputContents seven = parse_input_contents("const:7", "--input 0");
  EXPECT_EQ(seven.value_at(0, kU32), 7u);
  EXPECT_EQ(seven.value_at(4, kF32), std::bit_cast<std::uint32_t>(7.0f));
  EXPECT_EQ(seven.value_at(8, kF64), std::bit_cast<std::uint64_t>(7.0));
  const InputContents minus = parse_input_contents("const:-2", "--input 0");
  EXPECT_EQ(minus.value_at(0, kS32), 0xFFFFFFFEu);  // two's complement in the load's width
  const InputContents half = parse_input_contents("const:1.5", "--input 0");
  EXPECT_EQ(half.value_at(0, kF32), std::bit_cast<std::uint32_t>(1.5f));
  EXPECT_FALSE(half.value_at(0, kU32));  // an integer load cannot read 1.5: unknown
}

TEST(InputContents, UniformIsAFixedDrawPerElementWithinItsRange) {
  const InputContents u = parse_input_contents("uniform:3:10", "--input 1");
  EXPECT_TRUE(u.varies_by_address());
  bool low = false, high = false;
  for (std::uint64_t offset = 0; offset < 4000; offset += 4) {
    const std::uint64_t v = *u.value_at(offset, kU32);
    EXPECT_GE(v, 3u);
    EXPECT_LE(v, 10u);
    low = low || v == 3;
    high = high || v == 10;
    EXPECT_EQ(u.value_at(offset, kU32), v);  // the same element reads the same value
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(*u.value_at(offset, kF32)));
    EXPECT_GE(f, 3.0f);
    EXPECT_LE(f, 10.0f);
  }
  EXPECT_TRUE(low && high);  // both ends are drawn
}

TEST(InputContents, FileBytesAreReadLittleEndianAndEndAtItsSize) {
  const std::string path = testing::TempDir() + "/input_contents.bin";
  std::ofstream(path, std::ios::binary).write("\x01\x02\x03\x04\x05", 5);
  const InputContents file = parse_input_contents("file:" + path, "--input 0");
  EXPECT_EQ(file.value_at(0, kU32), 0x04030201u);
  EXPECT_EQ(file.value_at(4, kU8), 5u);
  EXPECT_FALSE(file.value_at(2, kU32));  // past the end
  EXPECT_NE(file.identity(), parse_input_contents("zeros", "x").identity());
}

TEST(InputContents, MalformedSpecsNameTheFlag) {
  for (const char* spec : {"", "zero", "zeros:1", "const:", "const:x", "const:1e999", "uniform:1", "uniform:5:1", "uniform:a:2", "file:",
                           "file:/no/such/file"}) {
    try {
      parse_input_contents(spec, "--input 3");
      ADD_FAILURE() << spec << ": accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--input 3"), std::string::npos) << e.what();
    }
  }
}

LoweredKernel histogram(InputEntries inputs) {
  const Module module = load_ptx_file(kSource + "/tests/ptx/cases/data_bins.sm_80.ptx");
  LoweringOptions options;
  options.grid = {4, 1, 1};
  options.block = {64, 1, 1};
  options.parameters = {{"2", "4096"}, {"3", "256"}};
  options.inputs = std::move(inputs);
  return lower_kernel(module, options);
}

const isa::Op* atomic_of(const LoweredKernel& k) {
  for (const isa::Op& op : k.programs.at(0).program.ops()) {
    if (op.kind == isa::OpKind::load && op.space == isa::MemorySpace::global && op.use_distance == 3) return &op;
  }
  return nullptr;
}

// Zeros: every lane of every warp updates bin 0. The atomic touches one sector with its 32 lanes
// on one address, and each access puts all 32 updates on the launch's busiest address.
TEST(InputContents, AHistogramOfZerosUpdatesOneBin) {
  const LoweredKernel k = histogram({{"0", parse_input_contents("zeros", "--input 0")}});
  const isa::Op* atom = atomic_of(k);
  ASSERT_NE(atom, nullptr);
  EXPECT_EQ(atom->transactions, 1);
  EXPECT_EQ(atom->same_address, 32);
  EXPECT_EQ(atom->hot_updates_milli, 32'000);
  // Without the contents the addresses are unknown: no sectors, no contention.
  const LoweredKernel without = histogram({});
  const isa::Op* unknown = atomic_of(without);
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->transactions, 0);
  EXPECT_EQ(unknown->same_address, 0);
  // A constant other than 0: bin 7 % 256, the same contention.
  EXPECT_EQ(atomic_of(histogram({{"0", parse_input_contents("const:7", "--input 0")}}))->same_address, 32);
}

TEST(InputContents, OnlyPointersOnceEachByNameOrPosition) {
  EXPECT_THROW(histogram({{"2", parse_input_contents("zeros", "--input 2")}}), InputError);  // n: not a pointer
  EXPECT_THROW(histogram({{"9", parse_input_contents("zeros", "--input 9")}}), InputError);
  EXPECT_THROW(histogram({{"0", parse_input_contents("zeros", "a")}, {"histogram_param_0", parse_input_contents("zeros", "b")}}), InputError);
}

}  // namespace
}  // namespace warpsim::ptx

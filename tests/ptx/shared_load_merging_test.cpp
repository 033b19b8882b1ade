// ptxas's merging of shared-memory loads (frontends/ptx/shared_load_merging.hpp): the rules on
// small kernels, and, where ptxas runs, the count of shared loads by width against the LDS
// instructions of ptxas's own SASS for every committed kernel.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/ptx/shared_load_merging.hpp"
#include "support/committed_launches.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

// A kernel whose body is `body`, with shared arrays A and B of 1 KiB and registers to spare.
std::string kernel(const std::string& body) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .f32 %f<32>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n"
         "  .shared .align 4 .b8 A[1024];\n  .shared .align 4 .b8 B[1024];\n" +
         body + "  ret;\n}\n";
}

DecodedFunction merged(const std::string& body) {
  DecodedModule module = decode_module(parse_ptx(kernel(body), "k.ptx"));
  merge_shared_loads(module);
  return module.functions.at(0);
}

// Shared loads by bytes per lane (4, 8, 16).
std::map<int, int> shared_load_widths(const DecodedFunction& f) {
  std::map<int, int> widths;
  for (const DecodedInstruction& in : f.code) {
    if (in.opcode == Opcode::ld && in.space == StateSpace::shared) ++widths[in.type.bytes() * in.vector_width];
  }
  return widths;
}

// tid.y * 64 + A: 16-byte aligned (a row of a 16 x 16 float tile).
const std::string kRowOfA =
    "  mov.u32 %r1, %tid.y;\n  shl.b32 %r2, %r1, 6;\n  mov.u32 %r3, A;\n  add.s32 %r4, %r3, %r2;\n"
    "  mov.u32 %r5, %tid.x;\n  shl.b32 %r6, %r5, 2;\n  mov.u32 %r7, B;\n  add.s32 %r8, %r7, %r6;\n";

TEST(SharedLoadMerging, AlignmentFollowsSymbolsShiftsProductsAndSums) {
  const DecodedModule module = decode_module(parse_ptx(
      kernel(kRowOfA + "  mul.lo.s32 %r9, %r5, 24;\n  mad.lo.s32 %r10, %r5, 8, %r3;\n  add.s32 %r11, %r4, 4;\n"
                       "  and.b32 %r12, %r5, -16;\n  mul.hi.u32 %r13, %r4, 64;\n  ld.shared.u32 %r14, [%r4];\n"),
      "k.ptx"));
  const DecodedFunction& f = module.functions.at(0);
  const std::vector<std::uint64_t> a = register_alignment(f);
  // Registers are numbered in declaration order: %p0-3, %f0-31, %r0-31, %rd0-7, then specials.
  const auto r = [&](int i) { return a.at(static_cast<std::size_t>(4 + 32 + i)); };
  EXPECT_EQ(r(1), 1u);             // tid.y
  EXPECT_EQ(r(2), 64u);            // << 6
  EXPECT_EQ(r(3), kAlignmentCap);  // A is at shared offset 0
  EXPECT_EQ(r(4), 64u);            // A + tid.y * 64
  EXPECT_EQ(r(7), 1024u);          // B follows A's 1024 bytes
  EXPECT_EQ(r(8), 4u);             // B + tid.x * 4
  EXPECT_EQ(r(9), 8u);             // tid.x * 24
  EXPECT_EQ(r(10), 8u);            // tid.x * 8 + A
  EXPECT_EQ(r(11), 4u);            // + 4
  EXPECT_EQ(r(12), 16u);           // & -16
  EXPECT_EQ(r(13), 1u);            // the high half of a product: nothing known
  EXPECT_EQ(r(14), 1u);            // a loaded value
}

TEST(SharedLoadMerging, RowOfAlignedWordsBecomesOneVectorLoad) {
  // The tiled multiply's inner step: A's row words interleaved with B's column and the FMAs.
  const DecodedFunction f = merged(kRowOfA +
                                   "  ld.shared.f32 %f1, [%r8];\n  ld.shared.f32 %f2, [%r4];\n  fma.rn.f32 %f3, %f2, %f1, %f0;\n"
                                   "  ld.shared.f32 %f4, [%r8+64];\n  ld.shared.f32 %f5, [%r4+4];\n  fma.rn.f32 %f6, %f5, %f4, %f3;\n"
                                   "  ld.shared.f32 %f7, [%r8+128];\n  ld.shared.f32 %f8, [%r4+8];\n  fma.rn.f32 %f9, %f8, %f7, %f6;\n"
                                   "  ld.shared.f32 %f10, [%r8+192];\n  ld.shared.f32 %f11, [%r4+12];\n  fma.rn.f32 %f12, %f11, %f10, %f9;\n");
  EXPECT_EQ(shared_load_widths(f), (std::map<int, int>{{4, 4}, {16, 1}}));
  const auto v4 = std::find_if(f.code.begin(), f.code.end(), [](const DecodedInstruction& in) { return in.vector_width == 4; });
  ASSERT_NE(v4, f.code.end());
  EXPECT_EQ(v4->text, "ld.shared.v4.f32");
  ASSERT_EQ(v4->dsts.size(), 4u);
  EXPECT_EQ(v4->dsts[3].reg, v4->dsts[0].reg + 9);  // %f2, %f5, %f8, %f11 in offset order
  EXPECT_EQ(v4->address.offset, 0);
}

TEST(SharedLoadMerging, UnprovenAlignmentKeepsScalarLoads) {
  // B + tid.x * 4: only 4-byte aligned, as ptxas sees it too.
  const DecodedFunction f = merged(kRowOfA + "  ld.shared.f32 %f1, [%r8];\n  ld.shared.f32 %f2, [%r8+4];\n"
                                             "  ld.shared.f32 %f3, [%r8+8];\n  ld.shared.f32 %f4, [%r8+12];\n");
  EXPECT_EQ(shared_load_widths(f), (std::map<int, int>{{4, 4}}));
}

TEST(SharedLoadMerging, EightByteAlignmentGivesPairs) {
  const DecodedFunction f = merged(kRowOfA + "  shl.b32 %r9, %r5, 3;\n  add.s32 %r10, %r3, %r9;\n"
                                             "  ld.shared.f32 %f1, [%r10];\n  ld.shared.f32 %f2, [%r10+4];\n"
                                             "  ld.shared.f32 %f3, [%r10+8];\n  ld.shared.f32 %f4, [%r10+12];\n");
  EXPECT_EQ(shared_load_widths(f), (std::map<int, int>{{8, 2}}));
}

TEST(SharedLoadMerging, LoadsDoNotMovePastStoresBarriersOrTheirReaders) {
  // A store between, a barrier between, and a destination read before its load: nothing merges.
  EXPECT_EQ(shared_load_widths(merged(kRowOfA + "  ld.shared.f32 %f1, [%r4];\n  st.shared.f32 [%r8], %f1;\n"
                                                "  ld.shared.f32 %f2, [%r4+4];\n")),
            (std::map<int, int>{{4, 2}}));
  EXPECT_EQ(shared_load_widths(merged(kRowOfA + "  ld.shared.f32 %f1, [%r4];\n  bar.sync 0;\n  ld.shared.f32 %f2, [%r4+4];\n")),
            (std::map<int, int>{{4, 2}}));
  EXPECT_EQ(shared_load_widths(merged(kRowOfA + "  ld.shared.f32 %f1, [%r4];\n  add.f32 %f3, %f2, %f1;\n"
                                                "  ld.shared.f32 %f2, [%r4+4];\n")),
            (std::map<int, int>{{4, 2}}));
  // The base written between them.
  EXPECT_EQ(shared_load_widths(merged(kRowOfA + "  ld.shared.f32 %f1, [%r4];\n  add.s32 %r4, %r4, 64;\n"
                                                "  ld.shared.f32 %f2, [%r4+4];\n")),
            (std::map<int, int>{{4, 2}}));
  // Volatile loads stay as written.
  EXPECT_EQ(shared_load_widths(merged(kRowOfA + "  ld.volatile.shared.f32 %f1, [%r4];\n  ld.volatile.shared.f32 %f2, [%r4+4];\n")),
            (std::map<int, int>{{4, 2}}));
}

TEST(SharedLoadMerging, BranchTargetsAreRenumbered) {
  // A loop around a mergeable pair: the backward branch and the forward exit still land on the
  // same instructions after the second load goes.
  const DecodedFunction f = merged(kRowOfA +
                                   "  mov.u32 %r20, 0;\n$L_top:\n  ld.shared.v2.f32 {%f20, %f21}, [%r8];\n"
                                   "  ld.shared.f32 %f1, [%r4];\n  ld.shared.f32 %f2, [%r4+4];\n"
                                   "  add.s32 %r20, %r20, 1;\n  setp.lt.u32 %p1, %r20, 4;\n  @%p1 bra $L_top;\n"
                                   "  @%p1 bra $L_end;\n  add.s32 %r21, %r20, 1;\n$L_end:\n");
  EXPECT_EQ(shared_load_widths(f), (std::map<int, int>{{8, 2}}));
  std::vector<std::uint32_t> targets;
  for (const DecodedInstruction& in : f.code) {
    if (in.opcode == Opcode::bra) targets.push_back(in.target);
  }
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(f.code.at(targets[0]).text, "ld.shared.v2.f32");  // $L_top
  EXPECT_EQ(f.code.at(targets[1]).opcode, Opcode::ret);      // $L_end
}

// --- against ptxas -----------------------------------------------------------------------

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// LDS instructions of `entry` in a cubin, by bytes per lane. The Turing..Hopper encoding (128-bit
// instructions): opcode in the low 12 bits (LDS: 0x984), the access size in bits 73..75 (4: 32
// bits, 5: 64, 6: 128), as the calibration kernel below confirms.
std::map<int, int> lds_widths(const std::string& elf, const std::string& entry) {
  const auto u16 = [&](std::size_t at) { std::uint16_t v; std::memcpy(&v, elf.data() + at, 2); return v; };
  const auto u32 = [&](std::size_t at) { std::uint32_t v; std::memcpy(&v, elf.data() + at, 4); return v; };
  const auto u64 = [&](std::size_t at) { std::uint64_t v; std::memcpy(&v, elf.data() + at, 8); return v; };
  std::map<int, int> widths;
  const std::uint64_t section_table = u64(0x28);
  const std::uint16_t entry_size = u16(0x3A), count = u16(0x3C), names = u16(0x3E);
  const auto section = [&](std::size_t i) { return section_table + i * entry_size; };
  const std::uint64_t name_table = u64(section(names) + 0x18);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = elf.c_str() + name_table + u32(section(i));
    if (name != ".text." + entry) continue;
    const std::uint64_t offset = u64(section(i) + 0x18), size = u64(section(i) + 0x20);
    for (std::uint64_t at = offset; at + 16 <= offset + size; at += 16) {
      if ((u64(at) & 0xFFF) != 0x984) continue;
      const int code = static_cast<int>((u64(at + 8) >> 9) & 7);
      ++widths[code == 4 ? 4 : code == 5 ? 8 : code == 6 ? 16 : -code];
    }
  }
  return widths;
}

// The cubin ptxas makes of `ptx` for its own .target, or nullopt when ptxas does not run.
std::optional<std::string> ptxas(const std::filesystem::path& ptx) {
  const std::string text = read_file(ptx);
  const std::size_t target = text.find(".target");
  if (target == std::string::npos) return std::nullopt;
  std::istringstream line(text.substr(target + 7, 64));
  std::string arch;
  line >> arch;
  if (const std::size_t comma = arch.find(','); comma != std::string::npos) arch.resize(comma);
  const std::filesystem::path cubin =
      std::filesystem::temp_directory_path() / ("warpsim_lds_" + std::to_string(::getpid()) + ".cubin");
  const std::string command = "ptxas -arch=" + arch + " -o '" + cubin.string() + "' '" + ptx.string() + "' >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return std::nullopt;
  std::string elf = read_file(cubin);
  std::filesystem::remove(cubin);
  return elf;
}

TEST(SharedLoadMerging, SameLoadWidthsAsPtxasOnEveryCommittedKernel) {
  const std::filesystem::path calibration = std::filesystem::temp_directory_path() / "warpsim_lds_widths.ptx";
  {
    std::ofstream out(calibration);
    out << kernel("  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 5;\n  mov.u32 %r3, A;\n  add.s32 %r4, %r3, %r2;\n"
                  "  ld.volatile.shared.f32 %f1, [%r4];\n  ld.volatile.shared.v2.f32 {%f2, %f3}, [%r4+8];\n"
                  "  ld.volatile.shared.v4.f32 {%f4, %f5, %f6, %f7}, [%r4+16];\n"
                  "  add.f32 %f8, %f1, %f2;\n  add.f32 %f9, %f3, %f4;\n  add.f32 %f10, %f5, %f6;\n  add.f32 %f11, %f7, %f8;\n"
                  "  add.f32 %f12, %f9, %f10;\n  add.f32 %f13, %f11, %f12;\n  ld.param.u64 %rd1, [out];\n"
                  "  cvta.to.global.u64 %rd2, %rd1;\n  st.global.f32 [%rd2], %f13;\n");
  }
  const std::optional<std::string> probe = ptxas(calibration);
  std::filesystem::remove(calibration);
  if (!probe) GTEST_SKIP() << "ptxas does not run here";
  ASSERT_EQ(lds_widths(*probe, "k"), (std::map<int, int>{{4, 1}, {8, 1}, {16, 1}})) << "the SASS encoding is not as assumed";

  int compared = 0, with_vectors = 0;
  for (const std::filesystem::path& file : testing_support::committed_ptx(kSource)) {
    const std::optional<std::string> cubin = ptxas(file);
    if (!cubin) continue;  // PTX for a target this ptxas lacks, or that only warpsim reads
    const std::string text = read_file(file);
    // ptxas implements these with LDS of its own: not loads in the PTX.
    if (text.find("cp.async") != std::string::npos || text.find("mbarrier") != std::string::npos) continue;
    DecodedModule module = decode_module(load_ptx_file(file.string()));
    merge_shared_loads(module);
    for (const DecodedFunction& f : module.functions) {
      if (!f.is_entry) continue;
      const std::map<int, int> ours = shared_load_widths(f);
      const std::map<int, int> sass = lds_widths(*cubin, f.name);
      EXPECT_EQ(ours, sass) << file << " " << f.name;
      ++compared;
      if (ours.contains(8) || ours.contains(16)) ++with_vectors;
    }
  }
  std::printf("compared %d kernels, %d with merged loads\n", compared, with_vectors);
  EXPECT_GT(compared, 50);
  EXPECT_GT(with_vectors, 10);
}

}  // namespace
}  // namespace warpsim::ptx

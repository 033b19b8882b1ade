// read_listing on the committed fixtures (exact counts, fields, lines, registers, padding) and
// on malformed listings (a located InputError each).
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "support/located_error.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::sass {
namespace {

using testing::fixture;

// The instruction at byte `offset` of `f`.
const Instruction& at(const Function& f, std::uint32_t offset) {
  for (const Instruction& in : f.code) {
    if (in.offset == offset) return in;
  }
  throw std::runtime_error("no instruction at offset " + std::to_string(offset));
}

TEST(SassListing, SgemmPerArchitecture) {
  const Listing& sm80 = fixture("sgemm.sm_80.sass");
  EXPECT_EQ(sm80.arch, "sm_80");
  ASSERT_EQ(sm80.functions.size(), 2u);
  const Function& naive = sm80.functions[0];
  EXPECT_EQ(naive.name, "_Z11sgemm_naiveiPKfS0_Pf");
  EXPECT_EQ(naive.registers, 32);
  EXPECT_EQ(naive.code.size(), 208u);
  EXPECT_EQ(sm80.functions[1].name, "_Z11sgemm_tilediPKfS0_Pf");
  EXPECT_EQ(sm80.functions[1].registers, 31);
  EXPECT_EQ(sm80.functions[1].code.size(), 88u);
  EXPECT_EQ(sm80.find("_Z11sgemm_tilediPKfS0_Pf"), &sm80.functions[1]);
  EXPECT_EQ(sm80.find("nope"), nullptr);
  for (std::size_t i = 0; i < naive.code.size(); ++i) EXPECT_EQ(naive.code[i].offset, 16 * i);

  const Instruction& mov = naive.code[0];
  EXPECT_EQ(mov.opcode, "MOV");
  EXPECT_EQ(mov.operands, "R1, c[0x0][0x28]");
  EXPECT_EQ(mov.predicate, "");
  EXPECT_EQ(mov.low, 0x00000a0000017a02u);
  EXPECT_EQ(mov.high, 0x000fe40000000f00u);
  EXPECT_EQ(mov.listing_line, 16);
  EXPECT_EQ(mov.ptx_line, 0u);  // sgemm.ptx has no .loc lines

  const Instruction& exit = at(naive, 0x90);
  EXPECT_EQ(exit.predicate, "@P0");
  EXPECT_EQ(exit.opcode, "EXIT");
  EXPECT_EQ(exit.operands, "");
  EXPECT_EQ(exit.predicate_reads, 0b1);
  EXPECT_EQ(naive.labels.at(".L_x_11"), 9u);
  const Instruction& branch = at(naive, 0xf0);
  EXPECT_EQ(branch.predicate, "@!P0");
  EXPECT_EQ(branch.opcode, "BRA");
  EXPECT_EQ(branch.operands, "`(.L_x_0)");
  EXPECT_EQ(at(naive, 0x60).opcode, "ISETP.GE.AND");
  EXPECT_EQ(at(naive, 0x60).base(), "ISETP");

  const Listing& sm75 = fixture("sgemm.sm_75.sass");
  EXPECT_EQ(sm75.arch, "sm_75");
  EXPECT_EQ(sm75.functions.at(0).code.size(), 200u);
  EXPECT_EQ(sm75.functions.at(0).registers, 49);
  const Listing& sm90 = fixture("sgemm.sm_90.sass");
  EXPECT_EQ(sm90.arch, "sm_90");
  EXPECT_EQ(sm90.functions.at(0).code.size(), 216u);
  EXPECT_EQ(sm90.functions.at(0).registers, -1);  // nvdisasm prints no SHI_REGISTERS for sm_90
  EXPECT_EQ(sm90.functions.at(1).code.size(), 96u);
}

TEST(SassListing, LineMarkersAndCalls) {
  const Function& f = fixture("device_call.sm_80.sass").functions.at(0);
  EXPECT_EQ(f.code.size(), 312u);
  EXPECT_EQ(f.code.front().ptx_line, 25u);
  EXPECT_EQ(at(f, 0xd0).ptx_line, 32u);
  EXPECT_EQ(at(f, 0xd0).listing_line, 48);
  EXPECT_EQ(at(f, 0xc0).opcode, "CALL.REL.NOINC");
  // The callees are labels of the kernel's own section.
  EXPECT_TRUE(f.labels.contains("$_Z11device_calliiPKfS0_PfiS1_$_Z9poly_evalPKfif"));
  for (const Instruction& in : f.code) EXPECT_NE(in.ptx_line, 0u) << in.offset;
  const Listing& histogram = fixture("histogram.sm_80.sass");
  ASSERT_EQ(histogram.functions.size(), 2u);
  EXPECT_EQ(histogram.functions[0].registers, 8);
  EXPECT_EQ(histogram.functions[1].code.size(), 32u);
}

TEST(SassListing, RegisterRanges) {
  const Function& tiled = fixture("sgemm.sm_80.sass").functions.at(1);
  const Instruction& lds = at(tiled, 0x2b0);  // LDS.128 R4, [R19+0x10]
  ASSERT_EQ(lds.opcode, "LDS.128");
  EXPECT_EQ(lds.writes, (std::vector<RegisterRange>{{4, 4}}));
  EXPECT_EQ(lds.reads, (std::vector<RegisterRange>{{19, 1}}));

  const Function& naive90 = fixture("sgemm.sm_90.sass").functions.at(0);
  const Instruction& ldg = at(naive90, 0x250);  // LDG.E R28, desc[UR6][R26.64]
  ASSERT_EQ(ldg.opcode, "LDG.E");
  EXPECT_EQ(ldg.writes, (std::vector<RegisterRange>{{28, 1}}));
  EXPECT_EQ(ldg.reads, (std::vector<RegisterRange>{{26, 2}}));
  EXPECT_EQ(ldg.uniform_reads, (std::vector<int>{6}));

  const Function& naive80 = fixture("sgemm.sm_80.sass").functions.at(0);
  const Instruction& setp = at(naive80, 0x80);  // ISETP.GE.OR P0, PT, R3, c[0x0][0x160], P0
  EXPECT_EQ(setp.predicate_writes, 0b1);
  EXPECT_EQ(setp.predicate_reads, 0b1);
  EXPECT_TRUE(setp.writes.empty());
  EXPECT_EQ(setp.reads, (std::vector<RegisterRange>{{3, 1}}));
  const Instruction& ffma = at(naive80, 0x3a0);  // FFMA R29, R29, R27, R28
  EXPECT_EQ(ffma.writes, (std::vector<RegisterRange>{{29, 1}}));
  EXPECT_EQ(ffma.reads, (std::vector<RegisterRange>{{29, 1}, {27, 1}, {28, 1}}));

  const Instruction& red = at(fixture("histogram.sm_80.sass").functions.at(0), 0x260);  // RED.E.ADD.STRONG.GPU [R2.64], R5
  EXPECT_TRUE(red.writes.empty());
  EXPECT_EQ(red.reads, (std::vector<RegisterRange>{{2, 2}, {5, 1}}));
}

TEST(SassListing, RegisterRolesOfHandWrittenLines) {
  const auto one = [](const std::string& line) {
    const std::string text = "\t.target\tsm_80\n\t.section\t.text.k,\"ax\",@progbits\n"
                             "        /*0000*/ " + line + " ; /* 0x0000000000000000 */\n /* 0x000fe20000000000 */\n";
    return read_listing(text, "k.sass").functions.at(0).code.at(0);
  };
  const Instruction iadd = one("IADD3 R4, P0, P1, R2, R3, RZ");
  EXPECT_EQ(iadd.writes, (std::vector<RegisterRange>{{4, 1}}));
  EXPECT_EQ(iadd.predicate_writes, 0b11);
  const Instruction vote = one("VOTE.ANY R0, PT, P2");
  EXPECT_EQ(vote.predicate_writes, 0);
  EXPECT_EQ(vote.predicate_reads, 0b100);
  const Instruction shfl = one("SHFL.BFLY PT, R5, R4, 0x1, 0x1f");
  EXPECT_EQ(shfl.writes, (std::vector<RegisterRange>{{5, 1}}));
  EXPECT_EQ(shfl.reads, (std::vector<RegisterRange>{{4, 1}}));
  const Instruction wide = one("IMAD.WIDE R2, R3, 0x4, R6");
  EXPECT_EQ(wide.writes, (std::vector<RegisterRange>{{2, 2}}));
  EXPECT_EQ(wide.reads, (std::vector<RegisterRange>{{3, 1}, {6, 2}}));
  const Instruction dfma = one("DFMA R2, R4, R6, R8");
  EXPECT_EQ(dfma.writes, (std::vector<RegisterRange>{{2, 2}}));
  EXPECT_EQ(dfma.reads, (std::vector<RegisterRange>{{4, 2}, {6, 2}, {8, 2}}));
  const Instruction sts = one("STS.64 [R2+0x8], R4");
  EXPECT_TRUE(sts.writes.empty());
  EXPECT_EQ(sts.reads, (std::vector<RegisterRange>{{2, 1}, {4, 2}}));
  const Instruction s2ur = one("S2UR UR4, SR_CTAID.X");
  EXPECT_EQ(s2ur.uniform_writes, (std::vector<int>{4}));
  const Instruction rz = one("MOV R254, RZ");
  EXPECT_EQ(rz.writes, (std::vector<RegisterRange>{{254, 1}}));
  EXPECT_TRUE(rz.reads.empty());
}

TEST(SassListing, PaddingAfterTheFinalSelfBranch) {
  const Function& naive = fixture("sgemm.sm_80.sass").functions.at(0);
  const std::size_t start = naive.padding_start();
  ASSERT_LT(start, naive.code.size());
  EXPECT_EQ(naive.code[start].opcode, "BRA");
  EXPECT_EQ(naive.code[start - 1].opcode, "EXIT");
  for (std::size_t i = start + 1; i < naive.code.size(); ++i) EXPECT_EQ(naive.code[i].opcode, "NOP");
  for (const std::string& name : testing::fixture_names()) {
    for (const Function& f : fixture(name).functions) EXPECT_LT(f.padding_start(), f.code.size()) << name << " " << f.name;
  }
  Function none;
  EXPECT_EQ(none.padding_start(), 0u);
}

TEST(SassListing, MalformedListingsAreLocated) {
  const std::string head = "\t.target\tsm_80\n\t.section\t.text.k,\"ax\",@progbits\n";
  const std::string mov = "        /*0000*/                   MOV R1, c[0x0][0x28] ;   /* 0x00000a0000017a02 */\n";
  const std::string high = "                                                             /* 0x000fe40000000f00 */\n";
  const std::vector<testing_support::BadInput> cases = {
      {"", 1, "no SASS function"},
      {"\t.target\tsm_80\n", 1, "no SASS function"},
      {head + mov, 3, "second hex word is missing"},
      {head + mov + "        /*0010*/ EXIT ;\n", 4, "expected the instruction's second hex word"},
      {head + "        /*0000*/ MOV R1, R2 ;  /* 0x00000a00000g7a02 */\n" + high, 3, "no hex word after the instruction"},
      {head + "        /*0000*/ MOV R1, R2    /* 0x00000a0000017a02 */\n" + high, 3, "no ';'"},
      {head + "        /*00z0*/ MOV R1, R2 ;  /* 0x00000a0000017a02 */\n" + high, 3, "bad instruction offset"},
      {head + "        /*0000 MOV R1, R2 ;\n", 3, "unterminated comment"},
      {"\t.target\tsm_80\n" + mov + high, 2, "outside a function"},
      {head + mov + high + mov + high, 5, "does not increase"},
      {head + mov + high + head.substr(15), 5, "appears twice"},
      {head + high, 3, "without its instruction"},
      {head + "        /*0000*/ ;  /* 0x00000a0000017a02 */\n" + high, 3, "without an opcode"},
      {head + "\t//## File \"k.cu, line 3\n", 3, "unterminated file name"},
      {head + "\t//## File \"k.cu\", line x\n", 3, "bad line number"},
      {head + "\t.sectioninfo\t@\"SHI_REGISTERS=999\"\n", 3, "bad register count"},
      {head + ".L_x_0:\n.L_x_0:\n", 4, "appears twice"},
      {head + "MOV R1, R2 ;\n", 3, "unexpected text"},
      {head + std::string("\x7f" "ELF\0\0", 6) + "\n", 3, "NUL"},
  };
  for (const testing_support::BadInput& c : cases) {
    testing_support::expect_located_error([](const std::string& text, const std::string& file) { return read_listing(text, file); }, c, "bad.sass");
  }
}

TEST(SassListing, InlinedAtMarkersKeepTheirFirstLine) {
  const std::string text = "\t.section\t.text.k,\"ax\",@progbits\n\t//## File \"a.cu\", line 12 inlined at \"b.cu\", line 40\n"
                           "        /*0000*/ EXIT ;  /* 0x000000000000794d */\n /* 0x000fea0003800000 */\n";
  EXPECT_EQ(read_listing(text, "k.sass").functions.at(0).code.at(0).ptx_line, 12u);
}

}  // namespace
}  // namespace warpsim::sass

// pipe_of: classes of single opcodes per compute capability, and every instruction of the
// fixtures in the table.
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace warpsim::sass {
namespace {

using isa::Pipe;

OpcodeClass of(const std::string& opcode, const std::string& operands = "", int cc = 80) {
  Instruction in;
  in.opcode = opcode;
  in.operands = operands;
  return pipe_of(in, cc);
}

void expect_pipe(const OpcodeClass& c, Pipe pipe, std::int64_t units = 1) {
  EXPECT_EQ(c.kind, OpcodeKind::arithmetic);
  EXPECT_EQ(c.pipe, pipe) << isa::to_string(c.pipe);
  EXPECT_EQ(c.units, units);
}

TEST(SassOpcodeClass, Arithmetic) {
  expect_pipe(of("FFMA"), Pipe::fp32);
  expect_pipe(of("FSETP.GEU.AND"), Pipe::fp32);
  expect_pipe(of("DFMA"), Pipe::fp64);
  expect_pipe(of("HFMA2"), Pipe::fp16);
  expect_pipe(of("IADD3.X"), Pipe::int32);
  expect_pipe(of("IMAD"), Pipe::imad);
  expect_pipe(of("IMAD.IADD"), Pipe::imad);
  EXPECT_TRUE(of("IMAD.IADD").integer_alias);
  EXPECT_TRUE(of("IMAD.SHL.U32").integer_alias);
  EXPECT_FALSE(of("IMAD.WIDE.U32").integer_alias);
  expect_pipe(of("POPC"), Pipe::bits);
  expect_pipe(of("F2I.TRUNC.NTZ"), Pipe::conv);
  expect_pipe(of("MUFU.RCP"), Pipe::sfu);
  EXPECT_TRUE(of("MUFU.RCP").variable_latency);
  expect_pipe(of("SHFL.BFLY"), Pipe::shfl);
  expect_pipe(of("MATCH.ANY"), Pipe::shfl);
  EXPECT_FALSE(of("IMAD").move);
}

TEST(SassOpcodeClass, MovesIssueOnTheirPipe) {
  expect_pipe(of("MOV"), Pipe::int32);
  EXPECT_TRUE(of("MOV").move);
  expect_pipe(of("IMAD.MOV.U32"), Pipe::imad);
  EXPECT_TRUE(of("IMAD.MOV.U32").move);
  expect_pipe(of("HFMA2.MMA", "R28, -RZ, RZ, 0, 0"), Pipe::fp16);
  EXPECT_TRUE(of("HFMA2.MMA", "R28, -RZ, RZ, 0, 0").move);
  EXPECT_FALSE(of("HFMA2.MMA", "R4, R2, R3, -RZ").move);
}

TEST(SassOpcodeClass, TensorUnitsFromTheShape) {
  expect_pipe(of("HMMA.16816.F32"), Pipe::tensor_f16, 16 * 8 * 16 / 256);
  expect_pipe(of("HMMA.1688.F32", "", 75), Pipe::tensor_f16, 4);
  expect_pipe(of("HMMA.1688.F32.TF32"), Pipe::tensor_tf32, 4);
  expect_pipe(of("IMMA.16832.S8.S8"), Pipe::tensor_i8, 16);
  expect_pipe(of("IMMA.8816.S8.S8", "", 75), Pipe::tensor_i8, 4);
  expect_pipe(of("DMMA.884"), Pipe::tensor_f64, 1);
  expect_pipe(of("HGMMA.64x128x16.F32", "", 90), Pipe::tensor_f16, 64 * 128 * 16 / 4 / 256);
  expect_pipe(of("DMMA.884", "", 86), Pipe::tensor_f64, 1);  // ptxas emits it for sm_86 too
  expect_pipe(of("DMMA.8x8x4", "", 90), Pipe::tensor_f64, 1);  // the shape's spelling from sm_90
  EXPECT_EQ(of("DMMA.884", "", 75).kind, OpcodeKind::unknown);
  EXPECT_EQ(of("HGMMA.64x128x16.F32", "", 80).kind, OpcodeKind::unknown);
}

TEST(SassOpcodeClass, MemoryWidths) {
  EXPECT_EQ(of("LDG.E").kind, OpcodeKind::memory);
  EXPECT_EQ(of("LDG.E").access_bits, 32);
  EXPECT_EQ(of("LDG.E.U8").access_bits, 8);
  EXPECT_EQ(of("LDG.E.64.CONSTANT").access_bits, 64);
  EXPECT_EQ(of("LDS.U.128").access_bits, 128);
  EXPECT_EQ(of("LDSM.16.M88.4").access_bits, 128);
  EXPECT_EQ(of("LDGSTS.E.BYPASS.128").access_bits, 128);
  EXPECT_EQ(of("LDGSTS.E.BYPASS.128", "", 75).kind, OpcodeKind::unknown);
  EXPECT_TRUE(of("STG.E.64").store);
  EXPECT_TRUE(of("STL").store);
  EXPECT_TRUE(of("RED.E.ADD.STRONG.GPU").store);
  EXPECT_TRUE(of("REDG.E.ADD.STRONG.GPU", "", 90).store);
  EXPECT_EQ(of("LDCU.64", "", 100).access_bits, 64);
  EXPECT_FALSE(of("ATOMS.POPC.INC.32").store);
  EXPECT_TRUE(of("LDL").variable_latency);
}

TEST(SassOpcodeClass, OtherKinds) {
  EXPECT_EQ(of("BAR.SYNC.DEFER_BLOCKING").kind, OpcodeKind::barrier);
  for (const char* op : {"BRA", "EXIT", "RET.REL.NODEC", "CALL.REL.NOINC", "BSSY", "BSYNC", "WARPSYNC", "NOP", "DEPBAR.LE"}) {
    EXPECT_EQ(of(op).kind, OpcodeKind::control) << op;
  }
  for (const char* op : {"ULDC.64", "UIADD3", "S2UR", "UMOV", "R2UR", "VOTEU.ANY"}) EXPECT_EQ(of(op).kind, OpcodeKind::uniform) << op;
  EXPECT_EQ(of("S2R").kind, OpcodeKind::special_register);
  EXPECT_TRUE(of("S2R").variable_latency);
  EXPECT_FALSE(of("CS2R").variable_latency);
  EXPECT_EQ(of("FOO").kind, OpcodeKind::unknown);
  EXPECT_EQ(of("FFMA", "", 70).kind, OpcodeKind::unknown);  // before Turing: not this table
  expect_pipe(of("FFMA", "", 87), Pipe::fp32);               // read as sm_86
}

TEST(SassOpcodeClass, EveryFixtureInstructionIsKnown) {
  for (const std::string& name : testing::fixture_names()) {
    const Listing& listing = testing::fixture(name);
    const int cc = std::stoi(listing.arch.substr(3));
    for (const Function& f : listing.functions) {
      for (const Instruction& in : f.code) {
        EXPECT_NE(pipe_of(in, cc).kind, OpcodeKind::unknown) << name << ": " << in.opcode;
      }
    }
  }
}

}  // namespace
}  // namespace warpsim::sass

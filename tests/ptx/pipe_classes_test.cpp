// Execution pipes per PTX instruction (frontends/ptx/pipe_classes.cpp): the expansion table on
// single instructions, the use distance of loads, and, where ptxas and nvdisasm run, the SASS
// of the kernels under tests/ptx/pipes/ counted per pipe against pipe_use().
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/pipe_classes.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/sass/listing.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace warpsim::ptx {
namespace {

using isa::Pipe;

const std::string kSource = WARPSIM_SOURCE_DIR;

std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n"
         ".visible .entry k(.param .u64 out)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .f32 %f<32>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<32>;\n  .reg .f64 %fd<8>;\n"
         "  .reg .b16 %h<8>;\n  .shared .align 4 .b8 A[1024];\n" +
         body + "  ret;\n}\n";
}

DecodedFunction decoded(const std::string& body) { return decode_module(parse_ptx(kernel(body), "k.ptx")).functions.at(0); }

// The PipeUse of the single instruction `line` (the first of the kernel).
PipeUse use_of(const std::string& line) { return decoded("  " + line + "\n").code.at(0).pipes; }

std::int64_t work(const PipeUse& u, Pipe p) { return u.work[static_cast<std::size_t>(p)]; }
std::int64_t chain(const PipeUse& u, Pipe p) { return u.chain[static_cast<std::size_t>(p)]; }

// Only `pipe` works, `n` instructions, all on the chain unless told.
void expect_only(const PipeUse& u, Pipe pipe, std::int64_t n, std::int64_t on_chain = -1) {
  for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
    const Pipe p = isa::pipe_at(i);
    EXPECT_EQ(work(u, p), p == pipe ? n : 0) << isa::to_string(p);
  }
  EXPECT_EQ(chain(u, pipe), on_chain < 0 ? n : on_chain);
}

TEST(PipeUse, FloatArithmeticByType) {
  expect_only(use_of("fma.rn.f32 %f1, %f2, %f3, %f4;"), Pipe::fp32, 1);
  expect_only(use_of("add.f32 %f1, %f2, %f3;"), Pipe::fp32, 1);
  expect_only(use_of("abs.f32 %f1, %f2;"), Pipe::fp32, 1);
  expect_only(use_of("neg.f32 %f1, %f2;"), Pipe::fp32, 1);
  expect_only(use_of("setp.lt.f32 %p1, %f2, %f3;"), Pipe::fp32, 1);
  expect_only(use_of("selp.f32 %f1, %f2, %f3, %p1;"), Pipe::fp32, 1);
  expect_only(use_of("max.f32 %f1, %f2, %f3;"), Pipe::fp32, 1);
  expect_only(use_of("fma.rn.f64 %fd1, %fd2, %fd3, %fd4;"), Pipe::fp64, 1);
  expect_only(use_of("setp.lt.f64 %p1, %fd2, %fd3;"), Pipe::fp64, 1);
  expect_only(use_of("fma.rn.f16x2 %r1, %r2, %r3, %r4;"), Pipe::fp16, 1);
  expect_only(use_of("add.f16 %h1, %h2, %h3;"), Pipe::fp16, 1);
  expect_only(use_of("fma.rn.bf16x2 %r1, %r2, %r3, %r4;"), Pipe::fp16, 1);
  expect_only(use_of("mul.f32 %f1, %f2, %f3;"), Pipe::fp32, 1);  // imul rule, float type
  EXPECT_EQ(use_of("add.f32 %f1, %f2, %f3;").issue, 1);
}

TEST(PipeUse, Integers) {
  expect_only(use_of("add.s32 %r1, %r2, %r3;"), Pipe::int32, 1);
  expect_only(use_of("add.s64 %rd1, %rd2, %rd3;"), Pipe::int32, 2);  // IADD3 + IADD3.X, dependent
  expect_only(use_of("and.b64 %rd1, %rd2, %rd3;"), Pipe::int32, 2, 1);  // a LOP3 per half
  expect_only(use_of("shl.b64 %rd1, %rd2, %r3;"), Pipe::int32, 2, 1);
  expect_only(use_of("setp.lt.s32 %p1, %r2, %r3;"), Pipe::int32, 1);
  expect_only(use_of("setp.lt.s64 %p1, %rd2, %rd3;"), Pipe::int32, 2);
  expect_only(use_of("selp.b32 %r1, %r2, %r3, %p1;"), Pipe::int32, 1);
  expect_only(use_of("lop3.b32 %r1, %r2, %r3, %r4, 0x96;"), Pipe::int32, 1);
  expect_only(use_of("prmt.b32 %r1, %r2, %r3, 0x3210;"), Pipe::int32, 1);
  expect_only(use_of("mov.u32 %r1, %r2;"), Pipe::int32, 1);
  expect_only(use_of("bfe.u32 %r1, %r2, 5, 7;"), Pipe::int32, 2);      // SHF + SGXT
  expect_only(use_of("bfe.u32 %r1, %r2, %r3, %r4;"), Pipe::int32, 5, 2);  // and 3 PRMT
  expect_only(use_of("cvt.s64.s32 %rd1, %r2;"), Pipe::int32, 1);       // integer widths
}

TEST(PipeUse, IntegerMultiplies) {
  expect_only(use_of("mul.lo.s32 %r1, %r2, %r3;"), Pipe::imad, 1);
  expect_only(use_of("mad.lo.s32 %r1, %r2, %r3, %r4;"), Pipe::imad, 1);
  expect_only(use_of("mul.hi.s32 %r1, %r2, %r3;"), Pipe::imad, 1);
  expect_only(use_of("mul.wide.s32 %rd1, %r2, %r3;"), Pipe::imad, 1);  // IMAD.WIDE
  const PipeUse lo64 = use_of("mul.lo.s64 %rd1, %rd2, %rd3;");  // IMAD.WIDE.U32 + 2 IMAD + IADD3
  EXPECT_EQ(work(lo64, Pipe::imad), 3);
  EXPECT_EQ(work(lo64, Pipe::int32), 1);
  EXPECT_EQ(lo64.issue, 4);
}

TEST(PipeUse, BitsAndConversions) {
  expect_only(use_of("popc.b32 %r1, %r2;"), Pipe::bits, 1);
  expect_only(use_of("brev.b32 %r1, %r2;"), Pipe::bits, 1);
  expect_only(use_of("bfind.u32 %r1, %r2;"), Pipe::bits, 1);
  const PipeUse clz = use_of("clz.b32 %r1, %r2;");  // FLO.U32 + IADD3
  EXPECT_EQ(work(clz, Pipe::bits), 1);
  EXPECT_EQ(work(clz, Pipe::int32), 1);
  expect_only(use_of("cvt.rn.f32.s32 %f1, %r2;"), Pipe::conv, 1);
  expect_only(use_of("cvt.rzi.s32.f32 %r1, %f2;"), Pipe::conv, 1);
  expect_only(use_of("cvt.f64.f32 %fd1, %f2;"), Pipe::conv, 1);  // F2F.F64.F32: conversion unit
  expect_only(use_of("cvt.rn.f32.f64 %f1, %fd2;"), Pipe::conv, 1);
  expect_only(use_of("cvt.rni.f32.f32 %f1, %f2;"), Pipe::conv, 1);  // FRND
  expect_only(use_of("cvt.f32.f16 %f1, %h2;"), Pipe::fp16, 1);      // HADD2.F32
}

TEST(PipeUse, SpecialFunctions) {
  expect_only(use_of("rsqrt.approx.ftz.f32 %f1, %f2;"), Pipe::sfu, 1);
  expect_only(use_of("ex2.approx.ftz.f32 %f1, %f2;"), Pipe::sfu, 1);
  expect_only(use_of("tanh.approx.f32 %f1, %f2;"), Pipe::sfu, 1);
  const PipeUse ex2 = use_of("ex2.approx.f32 %f1, %f2;");  // FSETP + 2 FMUL around MUFU.EX2
  EXPECT_EQ(work(ex2, Pipe::sfu), 1);
  EXPECT_EQ(work(ex2, Pipe::fp32), 3);
  const PipeUse lg2 = use_of("lg2.approx.f32 %f1, %f2;");
  EXPECT_EQ(work(lg2, Pipe::fp32), 3);
  const PipeUse sin = use_of("sin.approx.f32 %f1, %f2;");  // FMUL.RZ + MUFU.SIN
  EXPECT_EQ(work(sin, Pipe::fp32), 1);
  EXPECT_EQ(work(sin, Pipe::sfu), 1);
}

TEST(PipeUse, Expansions) {
  const PipeUse div = use_of("div.rn.f32 %f1, %f2, %f3;");  // MUFU.RCP, FCHK, 5 FFMA, BRA
  EXPECT_EQ(work(div, Pipe::sfu), 1);
  EXPECT_EQ(work(div, Pipe::fp32), 6);
  EXPECT_EQ(chain(div, Pipe::fp32), 5);
  EXPECT_EQ(work(div, Pipe::control), 1);
  EXPECT_EQ(div.issue, 8);
  const PipeUse full = use_of("div.full.f32 %f1, %f2, %f3;");
  EXPECT_EQ(work(full, Pipe::fp32), 7);
  const PipeUse approx = use_of("div.approx.ftz.f32 %f1, %f2, %f3;");  // MUFU.RCP + FMUL
  EXPECT_EQ(work(approx, Pipe::fp32), 1);
  EXPECT_EQ(work(approx, Pipe::sfu), 1);
  const PipeUse d64 = use_of("div.rn.f64 %fd1, %fd2, %fd3;");
  EXPECT_EQ(work(d64, Pipe::fp64), 8);
  EXPECT_EQ(work(d64, Pipe::sfu), 1);
  const PipeUse sqrt64 = use_of("sqrt.rn.f64 %fd1, %fd2;");
  EXPECT_EQ(work(sqrt64, Pipe::fp64), 8);
  const PipeUse sqrt32 = use_of("sqrt.rn.f32 %f1, %f2;");
  EXPECT_EQ(work(sqrt32, Pipe::fp32), 4);
  EXPECT_EQ(work(sqrt32, Pipe::sfu), 1);
  const PipeUse idiv = use_of("div.u32 %r1, %r2, %r3;");
  EXPECT_EQ(work(idiv, Pipe::conv), 2);  // I2F.RP, F2I
  EXPECT_EQ(work(idiv, Pipe::sfu), 1);
  EXPECT_EQ(work(idiv, Pipe::imad), 4);
  EXPECT_EQ(work(idiv, Pipe::int32), 10);
  const PipeUse sdiv = use_of("div.s32 %r1, %r2, %r3;");
  EXPECT_EQ(work(sdiv, Pipe::int32), 16);  // IABS and the sign fix
  const PipeUse div64 = use_of("div.u64 %rd1, %rd2, %rd3;");
  EXPECT_EQ(work(div64, Pipe::imad), 24);
}

TEST(PipeUse, WarpAndTensor) {
  expect_only(use_of("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;"), Pipe::shfl, 1);
  expect_only(use_of("vote.sync.ballot.b32 %r1, %p1, -1;"), Pipe::shfl, 1);
  expect_only(use_of("redux.sync.add.u32 %r1, %r2, -1;"), Pipe::shfl, 1);
  const PipeUse f16 = use_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
                             "{%r5,%r6}, {%f5,%f6,%f7,%f8};");
  expect_only(f16, Pipe::tensor_f16, 8, 1);  // 16*8*16 / 256
  EXPECT_EQ(f16.issue, 1);
  expect_only(use_of("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
                     "{%r5,%r6}, {%f5,%f6,%f7,%f8};"),
              Pipe::tensor_tf32, 4, 1);
  expect_only(use_of("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, "
                     "{%r9,%r10}, {%r11,%r12,%r13,%r14};"),
              Pipe::tensor_i8, 16, 1);
  expect_only(use_of("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};"),
              Pipe::tensor_f64, 1, 1);
  expect_only(use_of("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
                     "{%r5,%r6}, {%f5,%f6,%f7,%f8};"),
              Pipe::tensor_fp8, 16, 1);
  const PipeUse wmma = use_of("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
                              "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, "
                              "{%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};");
  expect_only(wmma, Pipe::tensor_f16, 16, 1);
  EXPECT_EQ(wmma.issue, 2);  // two HMMA.16816
}

TEST(PipeUse, MemoryControlBarriersAndMarkers) {
  const PipeUse ld = use_of("ld.shared.f32 %f1, [A];");
  expect_only(ld, Pipe::fp32, 0, 0);
  EXPECT_EQ(ld.issue, 1);
  const PipeUse bar = use_of("bar.sync 0;");
  EXPECT_EQ(bar, PipeUse{});
  EXPECT_EQ(use_of("bar.warp.sync -1;").issue, 0);  // emits nothing on sm_80
  expect_only(use_of("membar.gl;"), Pipe::control, 1);
  expect_only(use_of("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2,%r3,%r4}, [A];"), Pipe::control, 1);
  // Unknown opcodes: one fp32 instruction assumed.
  expect_only(decode_module(parse_ptx(kernel("  frobnicate.f32 %f1, %f2;\n"), "k.ptx")).functions.at(0).code.at(0).pipes,
              Pipe::fp32, 1);
  const DecodedFunction f = decoded("$L_top:\n  setp.lt.s32 %p1, %r1, 4;\n  @%p1 bra $L_top;\n");
  expect_only(f.code.at(1).pipes, Pipe::control, 1);
  expect_only(f.code.back().pipes, Pipe::control, 1);  // ret
}

TEST(UseDistance, LoadsOnly) {
  const DecodedFunction f = decoded(
      "  ld.shared.f32 %f1, [A];\n"      // 0: used by 2 -> 1
      "  add.s32 %r1, %r2, 1;\n"         // 1
      "  add.f32 %f2, %f1, %f1;\n"       // 2
      "  ld.shared.f32 %f3, [A+4];\n"    // 3: used right away -> 0
      "  mul.f32 %f4, %f3, %f3;\n"       // 4
      "  st.shared.f32 [A], %f4;\n");    // 5: a store -> -1
  EXPECT_EQ(f.code[0].use_distance, 1);
  EXPECT_EQ(f.code[1].use_distance, -1);
  EXPECT_EQ(f.code[3].use_distance, 0);
  EXPECT_EQ(f.code[5].use_distance, -1);
}

TEST(UseDistance, UnusedInItsBlockCountsWhatIsLeft) {
  const DecodedFunction f = decoded(
      "  ld.shared.f32 %f1, [A];\n"     // 0: not read in its block: 2 left (add, bra)
      "  add.s32 %r1, %r2, 1;\n"        // 1
      "  bra $L_next;\n"                // 2
      "$L_next:\n"
      "  add.f32 %f2, %f1, %f1;\n");    // 3: a new block
  EXPECT_EQ(f.code[0].use_distance, 2);
}

TEST(UseDistance, GuardsAddressesAndUnmodelledReadersCount) {
  const DecodedFunction f = decoded(
      "  ld.shared.u32 %r1, [A];\n"              // 0: its result is the next address: 0
      "  ld.shared.u32 %r2, [%r1];\n"            // 1
      "  ld.shared.u32 %r3, [A+8];\n"            // 2: read by the guarded add of 5
      "  setp.ne.u32 %p1, %r2, 0;\n"             // 3: reads %r2 (load 1: distance 1)
      "  ld.shared.b32 %r4, [A+16];\n"           // 4: read by the mma (unmodelled, no decoded sources)
      "  @%p1 add.s32 %r5, %r3, 1;\n"            // 5: reads %r3 (load 2: distance 2)
      "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r4,%r6,%r7,%r8}, "
      "{%r9,%r10}, {%f5,%f6,%f7,%f8};\n"         // 6
      "  atom.shared.add.u32 %r11, [A], 1;\n"    // 7: returns: none reads it, 1 left
      "  red.shared.add.u32 [A], 1;\n");         // 8: no result: -1
  EXPECT_EQ(f.code[0].use_distance, 0);
  EXPECT_EQ(f.code[1].use_distance, 1);
  EXPECT_EQ(f.code[2].use_distance, 2);
  EXPECT_EQ(f.code[4].use_distance, 1);
  EXPECT_EQ(f.code[7].use_distance, 2);  // red and ret follow
  EXPECT_EQ(f.code[8].use_distance, -1);
  const DecodedFunction g = decoded("  ld.shared.u32 %r1, [A];\n  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra $L_x;\n$L_x:\n");
  EXPECT_EQ(g.code[0].use_distance, 2);
}

// --- against ptxas ---------------------------------------------------------------------

// `tool` on PATH or under $CUDA_HOME/bin, or nullopt.
std::optional<std::string> find_tool(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((dir + "/" + tool).c_str(), X_OK) == 0) return dir + "/" + tool;
  }
  for (const char* home : {static_cast<const char*>(std::getenv("CUDA_HOME")), static_cast<const char*>(std::getenv("CUDA_PATH")), "/usr/local/cuda"}) {
    if (home != nullptr && ::access((std::string(home) + "/bin/" + tool).c_str(), X_OK) == 0) {
      return std::string(home) + "/bin/" + tool;
    }
  }
  return std::nullopt;
}

std::string run(const std::string& command) {
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
    ::pclose(pipe);
  }
  return out;
}

// Per pipe, ptxas's SASS of `cubin` (one kernel), as warpsim_sass classes it: up to the first
// unpredicated EXIT (the slow paths ptxas places after it, and its subroutines, left out), or
// all of it with `whole`. Register moves (MOV, IMAD.MOV, HFMA2.MMA of constants) are not
// compared: ptxas adds those of its own around loops and calls (a loop of 16 64-bit accumulators
// took 14). Tensor instructions count their units of 256 FMAs.
isa::PipeCounts sass_counts(const std::string& nvdisasm, const std::string& cubin, bool whole) {
  isa::PipeCounts counts{};
  const std::string text = run("'" + nvdisasm + "' -c -hex '" + cubin + "' 2>/dev/null");
  if (text.empty()) return counts;
  const sass::Listing listing = sass::read_listing(text, cubin);
  for (const sass::Instruction& in : listing.functions.at(0).code) {
    const sass::OpcodeClass c = sass::pipe_of(in, 80);
    if (c.kind == sass::OpcodeKind::control) ++counts[static_cast<std::size_t>(Pipe::control)];
    if (in.opcode == "EXIT" && in.predicate.empty() && !whole) break;
    // IMAD.IADD and the other integer aliases count as int, as warpsim counts the PTX add.
    const Pipe pipe = c.integer_alias ? Pipe::int32 : c.pipe;
    if (c.kind == sass::OpcodeKind::arithmetic && !c.move) counts[static_cast<std::size_t>(pipe)] += c.units;
  }
  return counts;
}

struct Family {
  const char* file;
  bool whole;  // count the whole function (the 64-bit division routine is where its work is)
  bool dominant;  // the first pipe checked is the busiest (control aside), in ptxas's SASS and ours
  std::vector<std::pair<Pipe, std::int64_t>> checks;  // pipe, tolerance (SASS instructions, both ways)
};

// The families (tests/ptx/pipes/*.ptx) and the pipes compared: the family's own, within the
// tolerance ptxas's fusing and scheduling leaves (docs/ptx.md, "Pipes").
const std::vector<Family> kFamilies = {
    {"fp32", false, true, {{Pipe::fp32, 2}}},
    {"fp64", false, true, {{Pipe::fp64, 2}}},
    {"fp16", false, true, {{Pipe::fp16, 2}}},
    {"int32", false, true, {{Pipe::int32, 4}}},
    {"int64", false, true, {{Pipe::int32, 4}}},
    {"imad", false, true, {{Pipe::imad, 3}}},
    {"bits", false, true, {{Pipe::bits, 2}}},
    {"conv", false, true, {{Pipe::conv, 2}}},
    {"sfu", false, false, {{Pipe::sfu, 2}, {Pipe::fp32, 3}}},
    {"div_f32", false, false, {{Pipe::sfu, 2}, {Pipe::fp32, 2}}},
    {"root_f32", false, false, {{Pipe::sfu, 2}, {Pipe::fp32, 2}}},
    {"div_f64", false, false, {{Pipe::sfu, 2}, {Pipe::fp64, 2}}},
    {"idiv32", false, false, {{Pipe::sfu, 2}, {Pipe::conv, 2}, {Pipe::imad, 2}}},
    {"idiv64", true, false, {{Pipe::sfu, 1}, {Pipe::conv, 1}, {Pipe::imad, 2}}},
    {"shfl", false, true, {{Pipe::shfl, 1}}},
    {"mma", false, false, {{Pipe::tensor_f16, 0}, {Pipe::tensor_tf32, 0}, {Pipe::tensor_i8, 0}, {Pipe::tensor_f64, 0}}},
};

TEST(PipeUseAgainstPtxas, Sm80SassPerPipe) {
  const std::optional<std::string> ptxas = find_tool("ptxas"), nvdisasm = find_tool("nvdisasm");
  if (!ptxas || !nvdisasm) GTEST_SKIP() << "ptxas or nvdisasm not found (PATH, $CUDA_HOME/bin)";
  const std::filesystem::path cubin =
      std::filesystem::temp_directory_path() / ("warpsim_pipes_" + std::to_string(::getpid()) + ".cubin");
  // Per pipe, warpsim's and ptxas's counts of one kernel.
  const auto counts = [&](const std::string& file, bool whole) -> std::optional<std::pair<isa::PipeCounts, isa::PipeCounts>> {
    const std::string ptx = kSource + "/tests/ptx/pipes/" + file + ".ptx";
    const std::string command = "'" + *ptxas + "' -arch=sm_80 -o '" + cubin.string() + "' '" + ptx + "' >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) {
      ADD_FAILURE() << "ptxas failed on " << ptx;
      return std::nullopt;
    }
    const isa::PipeCounts sass = sass_counts(*nvdisasm, cubin.string(), whole);
    std::int64_t any = 0;
    for (const std::int64_t n : sass) any += n;
    if (any == 0) return std::nullopt;  // nvdisasm printed nothing
    isa::PipeCounts ours{};
    const DecodedModule module = decode_module(load_ptx_file(ptx));
    for (const DecodedInstruction& in : module.functions.at(0).code) {
      for (std::size_t i = 0; i < isa::kPipeCount; ++i) ours[i] += in.pipes.work[i];
    }
    return std::pair{ours, sass};
  };
  // The loop alone (address arithmetic, counter, branch): ptxas folds cvta and the address add
  // into its IMAD.WIDE, so it is subtracted from both sides.
  const auto baseline = counts("baseline", false);
  std::filesystem::remove(cubin);
  if (!baseline) GTEST_SKIP() << "nvdisasm printed no SASS";
  for (const Family& family : kFamilies) {
    auto both = counts(family.file, family.whole);
    if (!both) continue;
    auto& [ours, sass] = *both;
    std::string row;
    for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
      ours[i] -= baseline->first[i];
      sass[i] -= baseline->second[i];
      if (ours[i] != 0 || sass[i] != 0) {
        row += std::string(" ") + isa::to_string(isa::pipe_at(i)) + " " + std::to_string(ours[i]) + "/" + std::to_string(sass[i]);
      }
    }
    std::printf("%-9s warpsim/ptxas:%s\n", family.file, row.c_str());
    for (const auto& [pipe, tolerance] : family.checks) {
      const auto i = static_cast<std::size_t>(pipe);
      EXPECT_LE(std::abs(ours[i] - sass[i]), tolerance)
          << family.file << ": " << isa::to_string(pipe) << " warpsim " << ours[i] << ", ptxas " << sass[i];
    }
    // The family's own pipe is the one ptxas's SASS of the loop works most, as ours.
    const auto busiest = [](const isa::PipeCounts& c) {
      std::size_t best = 0;
      for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
        if (isa::pipe_at(i) != Pipe::control && c[i] > c[best]) best = i;
      }
      return isa::pipe_at(best);
    };
    if (family.dominant) {
      EXPECT_EQ(busiest(sass), family.checks.front().first) << family.file;
      EXPECT_EQ(busiest(ours), family.checks.front().first) << family.file;
    }
  }
  std::filesystem::remove(cubin);
}

}  // namespace
}  // namespace warpsim::ptx

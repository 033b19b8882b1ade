// The emulator's values, opcode by opcode, against results worked out by hand from the PTX ISA:
// half precision (f16, bf16, f16x2) exact or unknown, never wrong; conversions; the integer
// instructions lop3, shf, prmt, mul24; and the opcode table every part reads.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/float_semantics.hpp"
#include "warpsim/ptx/integer_semantics.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx/opcodes.hpp"
#include "warpsim/ptx_syntax/parser.hpp"

namespace warpsim::ptx {
namespace {

const std::string kSource = WARPSIM_SOURCE_DIR;

// `line` decoded in a kernel that declares %h (b16), %r (b32), %rd (b64), %f (f32) and %p (pred).
DecodedInstruction decoded(const std::string& line) {
  const std::string text =
      ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
      ".reg .b16 %h<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n.reg .pred %p<4>;\n" +
      line + "\nret;\n}\n";
  return decode_module(parse_ptx(text, "line.ptx")).functions.at(0).code.at(0);
}

// The result of float arithmetic `line` on operand bits, or nullopt when unknown.
std::optional<std::uint64_t> arithmetic(const std::string& line, std::uint64_t a, std::uint64_t b = 0,
                                        std::uint64_t c = 0) {
  std::uint64_t r = 0;
  return float_arithmetic(decoded(line), a, b, c, r) ? std::optional(r) : std::nullopt;
}

std::optional<std::uint64_t> converted(const std::string& line, std::uint64_t a, std::uint64_t b = 0) {
  std::uint64_t r = 0;
  return convert(decoded(line), a, b, r) ? std::optional(r) : std::nullopt;
}

std::uint32_t bits_of(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST(PtxSemantics, TypesParseToTheirRealWidth) {
  EXPECT_EQ(decoded("add.f16 %h0, %h1, %h2;").type, (ScalarType{TypeKind::f, 16, 1}));
  EXPECT_EQ(decoded("add.f16x2 %r0, %r1, %r2;").type, (ScalarType{TypeKind::f, 32, 2}));
  EXPECT_EQ(decoded("add.bf16 %h0, %h1, %h2;").type, (ScalarType{TypeKind::bf, 16, 1}));
  EXPECT_EQ(decoded("add.bf16x2 %r0, %r1, %r2;").type, (ScalarType{TypeKind::bf, 32, 2}));
  const DecodedInstruction from_bf16 = decoded("cvt.f32.bf16 %f0, %h1;");
  EXPECT_EQ(from_bf16.type, (ScalarType{TypeKind::f, 32, 1}));
  EXPECT_EQ(from_bf16.src_type, (ScalarType{TypeKind::bf, 16, 1}));  // was unparsed, so taken as f32
}

TEST(PtxSemantics, HalfArithmeticRoundsToNearestEven) {
  EXPECT_EQ(arithmetic("add.f16 %h0, %h1, %h2;", 0x3C00, 0x3C00), 0x4000u);  // 1 + 1 = 2
  EXPECT_EQ(arithmetic("add.f16 %h0, %h1, %h2;", 0x3C00, 0x1000), 0x3C00u);  // 1 + 2^-11: tie, to even
  EXPECT_EQ(arithmetic("add.f16 %h0, %h1, %h2;", 0x3C01, 0x1000), 0x3C02u);  // (1 + 2^-10) + 2^-11: to even
  EXPECT_EQ(arithmetic("sub.f16 %h0, %h1, %h2;", 0x3C00, 0x4000), 0xBC00u);  // 1 - 2 = -1
  EXPECT_EQ(arithmetic("mul.f16 %h0, %h1, %h2;", 0x4200, 0x3800), 0x3E00u);  // 3 * 0.5 = 1.5
  EXPECT_EQ(arithmetic("fma.rn.f16 %h0, %h1, %h2, %h3;", 0x4000, 0x4200, 0x3C00), 0x4700u);  // 2 * 3 + 1 = 7
  EXPECT_EQ(arithmetic("add.f16 %h0, %h1, %h2;", 0x7BFF, 0x7BFF), 0x7C00u);                  // 65504 * 2: infinity
  EXPECT_EQ(arithmetic("add.f16 %h0, %h1, %h2;", 0x0001, 0x0001), 0x0002u);                  // subnormals
  EXPECT_EQ(arithmetic("neg.f16 %h0, %h1;", 0x3C00), 0xBC00u);
  EXPECT_EQ(arithmetic("abs.bf16 %h0, %h1;", 0xBF80), 0x3F80u);
  EXPECT_EQ(arithmetic("max.f16 %h0, %h1, %h2;", 0xC000, 0xBC00), 0xBC00u);  // max(-2, -1) = -1
  EXPECT_EQ(arithmetic("min.f16 %h0, %h1, %h2;", 0x7E00, 0x3C00), 0x3C00u);  // a NaN operand gives the other
  EXPECT_EQ(arithmetic("mov.f16 %h0, %h1;", 0x7E01), 0x7E01u);               // a copy of the bits
}

TEST(PtxSemantics, BfloatArithmeticRoundsToNearestEven) {
  EXPECT_EQ(arithmetic("add.bf16 %h0, %h1, %h2;", 0x3F80, 0x3F80), 0x4000u);  // 1 + 1 = 2
  EXPECT_EQ(arithmetic("add.bf16 %h0, %h1, %h2;", 0x3F80, 0x3B80), 0x3F80u);  // 1 + 2^-8: tie, to even
  EXPECT_EQ(arithmetic("add.bf16 %h0, %h1, %h2;", 0x3F81, 0x3B80), 0x3F82u);  // (1 + 2^-7) + 2^-8: to even
  EXPECT_EQ(arithmetic("fma.rn.bf16 %h0, %h1, %h2, %h3;", 0x3FC0, 0x3FC0, 0x8000), 0x4010u);  // 1.5 * 1.5 - 0 = 2.25
}

TEST(PtxSemantics, PairsAreComputedElementByElement) {
  // {low, high}: {2, 1} + {1, 2} = {3, 3}; {1, 2} * {0.5, 0.25} + {1, 1} = {1.5, 1.5}.
  EXPECT_EQ(arithmetic("add.f16x2 %r0, %r1, %r2;", 0x3C004000, 0x40003C00), 0x42004200u);
  EXPECT_EQ(arithmetic("fma.rn.f16x2 %r0, %r1, %r2, %r3;", 0x40003C00, 0x34003800, 0x3C003C00), 0x3E003E00u);
  EXPECT_EQ(arithmetic("mul.bf16x2 %r0, %r1, %r2;", 0x40003F80, 0x40004000), 0x40804000u);  // {1*2, 2*2}
  EXPECT_EQ(arithmetic("add.f16x2 %r0, %r1, %r2;", 0x7E003C00, 0x3C003C00), std::nullopt);  // one NaN element
}

TEST(PtxSemantics, SingleAndDoubleAreCorrectlyRounded) {
  // (1 + 2^-12)^2 + 2^-60 lies just above the halfway point 1 + 2^-11 + 2^-24: up, to 0x3F801001.
  // Rounding to double first (std::fma, then to float) lands on the halfway point and goes to even.
  EXPECT_EQ(arithmetic("fma.rn.f32 %f0, %f1, %f2, %f3;", 0x3F800800, 0x3F800800, 0x21800000), 0x3F801001u);
  EXPECT_EQ(arithmetic("add.f32 %f0, %f1, %f2;", bits_of(1.0f), bits_of(0.5f)), bits_of(1.5f));
  EXPECT_EQ(arithmetic("div.rn.f32 %f0, %f1, %f2;", bits_of(1.0f), bits_of(3.0f)), bits_of(1.0f / 3.0f));
  EXPECT_EQ(arithmetic("copysign.f32 %f0, %f1, %f2;", bits_of(-1.0f), bits_of(2.0f)), bits_of(-2.0f));
  EXPECT_EQ(arithmetic("add.sat.f32 %f0, %f1, %f2;", bits_of(0.75f), bits_of(0.5f)), bits_of(1.0f));
  EXPECT_EQ(arithmetic("sqrt.rn.f32 %f0, %f1;", bits_of(-1.0f)), std::nullopt);  // NaN
}

TEST(PtxSemantics, FlushToZero) {
  // .ftz flushes subnormal inputs (exactly defined); a subnormal result is left unknown.
  EXPECT_EQ(arithmetic("add.ftz.f32 %f0, %f1, %f2;", 0x00000001, bits_of(1.0f)), bits_of(1.0f));
  EXPECT_EQ(arithmetic("mul.ftz.f32 %f0, %f1, %f2;", 0x00000001, bits_of(2.0f)), 0x0u);
  EXPECT_EQ(arithmetic("mul.ftz.f32 %f0, %f1, %f2;", 0x00800000, bits_of(0.5f)), std::nullopt);
  EXPECT_EQ(arithmetic("mul.f32 %f0, %f1, %f2;", 0x00800000, bits_of(0.5f)), 0x00400000u);
}

TEST(PtxSemantics, HalfComparisonsCompareValues) {
  const DecodedInstruction lt = decoded("setp.lt.f16 %p0, %h1, %h2;");
  EXPECT_EQ(float_operand(lt, 0xBC00, lt.src_type), -1.0);
  EXPECT_EQ(float_operand(lt, 0xC000, lt.src_type), -2.0);  // as bits 0xC000 > 0xBC00, as values -2 < -1
  EXPECT_EQ(float_operand(lt, 0x0001, lt.src_type), 0x1p-24);
  const DecodedInstruction bf = decoded("setp.gt.bf16 %p0, %h1, %h2;");
  EXPECT_EQ(float_operand(bf, 0xC040, bf.src_type), -3.0);
  EXPECT_EQ(float_one(decoded("set.lt.f16.f16 %h0, %h1, %h2;").type), 0x3C00u);
  EXPECT_EQ(float_one(decoded("set.lt.bf16.bf16 %h0, %h1, %h2;").type), 0x3F80u);
}

TEST(PtxSemantics, HalfConversions) {
  EXPECT_EQ(converted("cvt.f32.f16 %f0, %h1;", 0x3C00), 0x3F800000u);        // 1.0 exactly
  EXPECT_EQ(converted("cvt.f32.f16 %f0, %h1;", 0x0001), bits_of(0x1p-24f));  // the smallest subnormal
  EXPECT_EQ(converted("cvt.rn.f16.f32 %h0, %f1;", 0x3F800000), 0x3C00u);
  EXPECT_EQ(converted("cvt.rn.f16.f32 %h0, %f1;", bits_of(65519.0f)), 0x7BFFu);  // below halfway: 65504
  EXPECT_EQ(converted("cvt.rn.f16.f32 %h0, %f1;", bits_of(65520.0f)), 0x7C00u);  // halfway, to even: infinity
  EXPECT_EQ(converted("cvt.rn.f16.f32 %h0, %f1;", bits_of(0x1p-25f)), 0x0000u);  // halfway to 2^-24, to even: 0
  EXPECT_EQ(converted("cvt.rn.f16.f32 %h0, %f1;", bits_of(0x1.8p-25f)), 0x0001u);
  EXPECT_EQ(converted("cvt.rn.bf16.f32 %h0, %f1;", 0x3F808000), 0x3F80u);  // halfway, to even
  EXPECT_EQ(converted("cvt.rn.bf16.f32 %h0, %f1;", 0x3F818000), 0x3F82u);  // halfway, to even
  EXPECT_EQ(converted("cvt.rn.bf16.f32 %h0, %f1;", 0x3F808001), 0x3F81u);  // above halfway
  EXPECT_EQ(converted("cvt.f32.bf16 %f0, %h1;", 0x4049), 0x40490000u);
  EXPECT_EQ(converted("cvt.rzi.s32.f16 %r0, %h1;", 0xC500), 0xFFFFFFFFFFFFFFFBu);  // -5, sign-extended
  EXPECT_EQ(converted("cvt.rn.f16.s32 %h0, %r1;", 0xFFFFFFFD), 0xC200u);           // -3
  EXPECT_EQ(converted("cvt.rn.f16x2.f32 %r0, %f1, %f2;", bits_of(1.0f), bits_of(2.0f)), 0x3C004000u);  // a on top
  EXPECT_EQ(converted("cvt.rn.bf16x2.f32 %r0, %f1, %f2;", bits_of(1.0f), bits_of(-2.0f)), 0x3F80C000u);
  EXPECT_EQ(converted("cvt.f32.f16 %f0, %h1;", 0x7E00), std::nullopt);  // NaN: unspecified bits
}

TEST(PtxSemantics, IntegerAndFloatConversions) {
  EXPECT_EQ(converted("cvt.rni.s32.f32 %r0, %f1;", bits_of(2.5f)), 2u);
  EXPECT_EQ(converted("cvt.rni.s32.f32 %r0, %f1;", bits_of(3.5f)), 4u);
  EXPECT_EQ(converted("cvt.rmi.f32.f32 %f0, %f1;", bits_of(-1.5f)), bits_of(-2.0f));
  EXPECT_EQ(converted("cvt.rzi.s32.f32 %r0, %f1;", bits_of(3e9f)), 0x7FFFFFFFu);  // clamped
  EXPECT_EQ(converted("cvt.rzi.u32.f32 %r0, %f1;", bits_of(-1.0f)), 0u);
  EXPECT_EQ(converted("cvt.rzi.s32.f32 %r0, %f1;", 0x7FC00000), 0u);  // NaN
  EXPECT_EQ(converted("cvt.rzi.s64.f32 %rd0, %f1;", 0x7FC00000), 0x8000000000000000u);
  EXPECT_EQ(converted("cvt.rn.f32.s64 %f0, %rd1;", 0x1000001000000001), 0x5D800001u);  // rounded once
  EXPECT_EQ(converted("cvt.rn.bf16.s64 %h0, %rd1;", 0x1000001000000001), std::nullopt);
  EXPECT_EQ(converted("cvt.s8.s32 %r0, %r1;", 300), 44u);                  // 8 bits kept, sign-extended
  EXPECT_EQ(converted("cvt.s8.s32 %r0, %r1;", 200), 0xFFFFFFFFFFFFFFC8u);  // -56
  EXPECT_EQ(converted("cvt.sat.s8.s32 %r0, %r1;", 300), 127u);
  EXPECT_EQ(converted("cvt.sat.u8.s32 %r0, %r1;", 0xFFFFFFFB), 0u);
  EXPECT_EQ(converted("cvt.s64.s32 %rd0, %r1;", 0xFFFFFFFF), 0xFFFFFFFFFFFFFFFFu);
  EXPECT_EQ(converted("cvt.u64.u32 %rd0, %r1;", 0xFFFFFFFF), 0xFFFFFFFFu);
}

TEST(PtxSemantics, IntegerInstructions) {
  EXPECT_EQ(lop3(0xF0F0F0F0, 0xFF00FF00, 0x0F0F0000, 0x80), 0x00000000u);         // a & b & c
  EXPECT_EQ(lop3(0xF0F0F0F0, 0xFF00FF00, 0x0F0F0000, 0xFE), 0xFFFFFFF0u);         // a | b | c
  EXPECT_EQ(lop3(0xF0F0F0F0, 0xFF00FF00, 0x0F0F0000, 0x1A), 0x0FFF00F0u);         // (a & b | c) ^ a
  EXPECT_EQ(funnel_shift(0x80000001, 0x80000001, 1, true, false), 3u);            // rotate left
  EXPECT_EQ(funnel_shift(0x80000001, 0x80000001, 33, true, false), 3u);           // wrapped to 1
  EXPECT_EQ(funnel_shift(0x11111111, 0x22222222, 40, false, true), 0x22222222u);  // clamped to 32: b
  EXPECT_EQ(funnel_shift(0x00000010, 0x00000001, 4, false, false), 0x10000001u);  // right: low 32 bits
  const std::uint32_t a = 0x33221100, b = 0x77665544;
  EXPECT_EQ(permute_bytes(a, b, 0x3210, PermuteMode::generic), a);
  EXPECT_EQ(permute_bytes(a, b, 0x7654, PermuteMode::generic), b);
  EXPECT_EQ(permute_bytes(a, b, 0x0123, PermuteMode::generic), 0x00112233u);
  EXPECT_EQ(permute_bytes(0x80000000, 0, 0x000B, PermuteMode::generic), 0x000000FFu);  // sign of byte 3
  EXPECT_EQ(permute_bytes(a, b, 1, PermuteMode::f4e), 0x44332211u);
  EXPECT_EQ(permute_bytes(a, b, 0, PermuteMode::b4e), 0x55667700u);
  EXPECT_EQ(permute_bytes(a, b, 3, PermuteMode::rc8), 0x33333333u);
  EXPECT_EQ(permute_bytes(a, b, 2, PermuteMode::ecl), 0x33222222u);
  EXPECT_EQ(permute_bytes(a, b, 1, PermuteMode::ecr), 0x11111100u);
  EXPECT_EQ(permute_bytes(a, b, 1, PermuteMode::rc16), 0x33223322u);
  EXPECT_EQ(mul24(0x01000003, 5, false, false), 15u);              // the low 24 bits only
  EXPECT_EQ(mul24(0xFFFFFF, 0xFFFFFF, false, true), 0xFFFFFE00u);  // bits 47..16 of 2^48 - 2^25 + 1
  EXPECT_EQ(mul24(0xFFFFFF, 2, true, false), 0xFFFFFFFEu);         // -1 * 2 as 24-bit signed
  // The decoder reads the modes.
  const DecodedInstruction shf = decoded("shf.l.clamp.b32 %r0, %r1, %r2, %r3;");
  EXPECT_TRUE(shf.shift_left);
  EXPECT_TRUE(shf.shift_clamp);
  EXPECT_FALSE(decoded("shf.r.wrap.b32 %r0, %r1, %r2, %r3;").shift_left);
  EXPECT_EQ(decoded("prmt.b32.ecl %r0, %r1, %r2, %r3;").permute_mode, PermuteMode::ecl);
}

TEST(PtxSemantics, LaneWideComparisonsAgreeWithTheLaneByLaneOnes) {
  // Values near each width's sign bit and its wrap-around, in every type and comparison.
  std::mt19937_64 random(5);
  const std::uint64_t edges[] = {0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                 0x100000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, ~std::uint64_t{0}};
  const auto any_value = [&] { return random() % 2 == 0 ? edges[random() % std::size(edges)] : random() >> (random() % 64); };
  for (const TypeKind kind : {TypeKind::s, TypeKind::u, TypeKind::b}) {
    for (const int bits : {8, 16, 32, 64}) {
      const ScalarType t{kind, static_cast<std::uint8_t>(bits), 1};
      for (int c = 0; c <= static_cast<int>(Compare::nan); ++c) {
        for (int trial = 0; trial < 20; ++trial) {
          std::array<std::uint64_t, 32> a, b;
          for (std::size_t l = 0; l < 32; ++l) {
            a[l] = any_value();
            b[l] = l % 4 == 0 ? a[l] : any_value();
          }
          const std::uint32_t holds = compare_integer_lanes(static_cast<Compare>(c), a.data(), b.data(), t);
          for (unsigned l = 0; l < 32; ++l) {
            ASSERT_EQ((holds >> l & 1) != 0, compare_integers(static_cast<Compare>(c), a[l], b[l], t))
                << "compare " << c << ", " << bits << " bits, lane " << l;
          }
        }
      }
    }
  }
}

TEST(PtxSemantics, UnmodelledFormsAreNamed) {
  const auto form = [](const std::string& line) {
    const DecodedInstruction in = decoded(line);
    EXPECT_EQ(in.opcode, Opcode::other_calc) << line;
    return in.modelling == Modelling::unmodelled ? in.modelling_name : "(modelled)";
  };
  EXPECT_EQ(form("div.approx.f32 %f0, %f1, %f2;"), "div.approx");
  EXPECT_EQ(form("cvt.rz.f16.f32 %h0, %f1;"), "cvt.rz");
  EXPECT_EQ(form("cvt.rna.tf32.f32 %r0, %f1;"), "cvt.rna");
  EXPECT_EQ(form("cvt.rn.f16x2.e4m3x2 %r0, %h1;"), "cvt.e4m3x2");
  EXPECT_EQ(form("setp.lt.bf16x2 %p0|%p1, %r1, %r2;"), "setp.bf16x2");
  EXPECT_EQ(form("add.f32.f16 %f0, %h1, %f2;"), "add.f32.f16");
  EXPECT_EQ(form("add.sat.s32 %r0, %r1, %r2;"), "add.sat");
  EXPECT_EQ(form("min.u16x2 %r0, %r1, %r2;"), "min.u16x2");
  EXPECT_EQ(form("add.cc.u32 %r0, %r1, %r2;"), "add.cc");
  EXPECT_EQ(form("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, "
                 "{%f0, %f1, %f2, %f3};"),
            "mma");
  EXPECT_EQ(form("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%r0];"), "ldmatrix");
  EXPECT_EQ(form("bar.red.popc.u32 %r0, 0, %p1;"), "bar.red");
  EXPECT_EQ(form("membar.gl;"), "(modelled)");  // nothing to compute: no assumption
  // Results of unmodelled instructions are unknown, never left stale.
  EXPECT_EQ(decoded("bar.red.popc.u32 %r1, 0, %p1;").dsts.size(), 1u);
}

TEST(PtxSemantics, TheOpcodeTableDrivesEveryPart) {
  for (const std::string_view name :
       {"ld", "ldu", "st", "atom", "red", "cp", "tex", "tld4", "suld", "sust", "sured", "wmma"}) {
    ASSERT_NE(find_opcode(name), nullptr) << name;
    EXPECT_EQ(find_opcode(name)->opcode_class, OpcodeClass::memory) << name;
    EXPECT_TRUE(is_memory_access(find_opcode(name)->opcode)) << name;
  }
  for (const Opcode op :
       {Opcode::mov, Opcode::cvta, Opcode::alloca, Opcode::bra, Opcode::bar, Opcode::shfl, Opcode::other_calc}) {
    EXPECT_FALSE(is_memory_access(op));
  }
  EXPECT_EQ(find_opcode("barrier")->opcode, Opcode::bar);
  EXPECT_EQ(find_opcode("mma")->opcode_class, OpcodeClass::unmodelled);
  EXPECT_EQ(find_opcode("prefetch")->opcode_class, OpcodeClass::plain);
  EXPECT_EQ(find_opcode("lop3")->opcode_class, OpcodeClass::emulated);
  EXPECT_EQ(find_opcode("lop3")->operands, -1);
  EXPECT_EQ(find_opcode("bfi")->operands, 5);
  EXPECT_EQ(find_opcode("frobnicate"), nullptr);
  EXPECT_TRUE(is_unmodelled_form("add", "cc"));
  EXPECT_FALSE(is_unmodelled_form("add", "s32"));
  EXPECT_TRUE(is_unmodelled_modifier("approx"));
  EXPECT_FALSE(is_unmodelled_modifier("rn"));
}

struct Lowered {
  std::int64_t unknown_branches, stores;
  std::vector<std::int32_t> store_sectors;
  bool operator==(const Lowered&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Lowered& l) {
  out << "{unknown branches " << l.unknown_branches << ", stores " << l.stores << ", sectors";
  for (const std::int32_t s : l.store_sectors) out << ' ' << s;
  return out << "}";
}

Lowered lower_one_warp(const std::string& file, const std::string& kernel = "") {
  LoweringOptions options;
  options.kernel = kernel;
  options.grid = {1, 1, 1};
  options.block = {32, 1, 1};
  const LoweredKernel k = lower_kernel(load_ptx_file(kSource + "/" + file), options);
  Lowered out{k.unknown_branches.count, 0, {}};
  for (const WarpProgram& p : k.programs) {
    out.stores += p.program.dynamic_counts().stores;
    for (std::size_t i = 0; i < p.program.ops().size(); ++i) {
      if (p.program.ops()[i].kind == isa::OpKind::store) out.store_sectors.push_back(p.notes[i].transactions);
    }
  }
  return out;
}

// Each check of exact_values.ptx branches away (three stores) on a wrong value, and is a branch
// on an unknown value on an unknown one. Passing all, the warp stores out[tid]: 4 sectors.
TEST(PtxSemantics, ExactValuesTakeNoCheck) {
  EXPECT_EQ(lower_one_warp("tests/ptx/cases/exact_values.ptx"), (Lowered{0, 1, {4}}));
}

TEST(PtxSemantics, UnspecifiedValuesStayUnknown) {
  EXPECT_EQ(lower_one_warp("tests/ptx/cases/unknown_values.ptx"), (Lowered{9, 1, {1}}));
}

// nvcc output where half-precision values decide a branch or an address (half_precision.cu has
// the hand-worked results): a wrong value stores other lanes, an unknown one falls through.
TEST(PtxSemantics, HalfPrecisionSteersBranchesAndAddressesExactly) {
  for (const char* target : {"sm_75", "sm_80", "sm_90"}) {
    const std::string file = std::string("tests/ptx/cases/half_precision.") + target + ".ptx";
    EXPECT_EQ(lower_one_warp(file, "_Z11half_branchPf"), (Lowered{0, 1, {1}})) << file;  // lanes 0..4
    EXPECT_EQ(lower_one_warp(file, "_Z11bf16_branchPf"), (Lowered{0, 1, {3}})) << file;  // lanes 9..31
    EXPECT_EQ(lower_one_warp(file, "_Z11half2_indexPf"), (Lowered{0, 1, {5}})) << file;  // out[2..32]
  }
}

}  // namespace
}  // namespace warpsim::ptx

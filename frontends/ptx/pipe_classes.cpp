// The expansion table (docs/ptx.md, "Pipes"): which SASS ptxas emits for one PTX instruction,
// per execution pipe. The counts were read off ptxas's SASS for sm_80 (CUDA 13.0, cuobjdump -sass;
// tests/ptx/pipe_classes_test.cpp checks them where ptxas and cuobjdump are at hand). Moves ptxas
// adds to marshal operands, and instructions it fuses or drops, are not counted.
#include "warpsim/ptx/pipe_classes.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/ptx/kernel_ir.hpp"
#include "warpsim/ptx/opcodes.hpp"

namespace warpsim::ptx {
namespace {

using isa::Pipe;

// The kind of a PTX type name, as far as the pipes care.
enum class Kind : std::uint8_t { none, integer, pred, f16, f32, f64, tf32, fp8 };

struct Type {
  Kind kind = Kind::none;
  int bits = 0;       // element width
  bool pair = false;  // f16x2, bf16x2
  bool is_signed = false;
};

Type type_named(std::string_view m) {
  Type t;
  if (m.ends_with("x2") && m.size() > 3) {
    t.pair = true;
    m.remove_suffix(2);
  }
  if (m == "pred") return {Kind::pred, 1, false, false};
  if (m == "f16" || m == "bf16") return {Kind::f16, 16, t.pair, false};
  if (m == "f32") return {Kind::f32, 32, t.pair, false};
  if (m == "f64") return {Kind::f64, 64, false, false};
  if (m == "tf32") return {Kind::tf32, 32, false, false};
  if (m == "e4m3" || m == "e5m2" || m == "e2m1" || m == "e3m2" || m == "e2m3" || m == "ue8m0" || m == "ue4m3") {
    return {Kind::fp8, 8, t.pair, false};
  }
  if (m.size() >= 2 && (m[0] == 'b' || m[0] == 'u' || m[0] == 's')) {
    const std::string_view digits = m.substr(1);
    if (digits == "8" || digits == "16" || digits == "32" || digits == "64" || digits == "4" || digits == "1" ||
        digits == "128") {
      int bits = 0;
      for (const char c : digits) bits = bits * 10 + (c - '0');
      return {Kind::integer, bits, t.pair, m[0] == 's'};
    }
  }
  return {};
}

// The instruction's text ("div.rn.ftz.f32") as its opcode name, modifiers and types in order.
struct Parsed {
  std::string_view name;
  std::vector<std::string_view> modifiers;
  std::vector<Type> types;
  bool has(std::string_view m) const { return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end(); }
  Type type(std::size_t i = 0) const { return i < types.size() ? types[i] : Type{}; }
};

Parsed parse(std::string_view text) {
  Parsed p;
  std::size_t at = text.find('.');
  p.name = text.substr(0, at);
  while (at != std::string_view::npos) {
    const std::size_t next = text.find('.', at + 1);
    const std::string_view m = text.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1);
    p.modifiers.push_back(m);
    if (const Type t = type_named(m); t.kind != Kind::none) p.types.push_back(t);
    at = next;
  }
  return p;
}

// Builds a PipeUse: work and chain per pipe; issue is the total of the non-tensor work unless set.
struct Use {
  PipeUse use;
  Use& add(Pipe pipe, std::int64_t work, std::int64_t chain) {
    use.work[static_cast<std::size_t>(pipe)] += work;
    use.chain[static_cast<std::size_t>(pipe)] += chain;
    return *this;
  }
  // One instruction on `pipe`, on the dependent path.
  Use& one(Pipe pipe) { return add(pipe, 1, 1); }
  PipeUse done() {
    std::int64_t issue = 0;
    for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
      if (!isa::is_tensor(isa::pipe_at(i))) issue += use.work[i];
    }
    use.issue = static_cast<std::int32_t>(issue);
    return use;
  }
  PipeUse done(std::int32_t issue) {
    use.issue = issue;
    return use;
  }
};

PipeUse single(Pipe pipe) { return Use{}.one(pipe).done(); }
PipeUse issue_only() { return Use{}.done(1); }

// An instruction on a float type: fp32, fp64, or fp16 (f16/bf16, scalar or pairs: one HFMA2-class
// instruction either way); tf32/fp8 have no arithmetic of their own here (assumed fp32).
Pipe float_pipe(Kind kind) {
  switch (kind) {
    case Kind::f64: return Pipe::fp64;
    case Kind::f16: return Pipe::fp16;
    default: return Pipe::fp32;
  }
}

bool is_float(Kind kind) { return kind == Kind::f16 || kind == Kind::f32 || kind == Kind::f64 || kind == Kind::tf32 || kind == Kind::fp8; }

// by_type: add, sub, abs, neg, min, max, fma, copysign, setp, set, selp, slct, sad, testp.
PipeUse by_type(const Parsed& p) {
  // setp/set: the comparison type is the last type (set.lt.u32.f32); selp/slct: the first.
  const Type t = (p.name == "setp" || p.name == "set") && !p.types.empty() ? p.types.back() : p.type();
  if (is_float(t.kind)) {
    if (p.name == "copysign") return t.kind == Kind::f64 ? Use{}.add(Pipe::int32, 2, 1).done() : single(Pipe::int32);  // LOP3
    if (t.kind == Kind::f64 && (p.name == "min" || p.name == "max")) {
      // DSETP.MIN/MAX, then FSEL and SEL for the halves and a LOP3 for -0/NaN.
      return Use{}.one(Pipe::fp64).one(Pipe::fp32).add(Pipe::int32, 2, 1).done();
    }
    if (t.kind == Kind::f64 && (p.name == "selp" || p.name == "slct")) return Use{}.add(Pipe::int32, 2, 1).done();  // SEL per half
    return single(float_pipe(t.kind));  // abs/neg fold into FADD/DADD (or a modifier): still one
  }
  if (p.name == "sad") return single(Pipe::int32);  // VABSDIFF
  if (t.bits == 64) {
    // IADD3 + IADD3.X (or IMAD.X); ISETP + ISETP.EX; min/max: ISETP pair + SEL pair; abs: the
    // negation, a compare and two SELs; selp/slct: a SEL per half.
    if (p.name == "add" || p.name == "sub" || p.name == "neg") return Use{}.add(Pipe::int32, 2, 2).done();
    if (p.name == "setp" || p.name == "set") return Use{}.add(Pipe::int32, 2, 2).done();
    if (p.name == "min" || p.name == "max") return Use{}.add(Pipe::int32, 4, 3).done();
    if (p.name == "abs") return Use{}.add(Pipe::int32, 5, 3).done();
    return Use{}.add(Pipe::int32, 2, 1).done();
  }
  return single(Pipe::int32);  // IADD3, IMNMX, ISETP, SEL, IABS, PLOP3 (predicates)
}

// imul: mul, mad, mul24, mad24, madc, dp4a, dp2a.
PipeUse imul(const Parsed& p) {
  const Type t = p.type();
  if (is_float(t.kind)) return single(float_pipe(t.kind));
  if (p.name == "mul24" || p.name == "mad24") return Use{}.one(Pipe::imad).add(Pipe::int32, 2, 1).done();  // 2 SGXT, IMAD
  const bool hi = p.has("hi"), wide = p.has("wide"), mad = p.name == "mad";
  if (t.bits == 64) {
    // mul.lo.s64: IMAD.WIDE.U32 + 2 IMAD + IADD3; mul.hi.u64: 4 IMAD.WIDE.U32 (.X) + 2 IADD3 + MOV.
    if (hi) return Use{}.add(Pipe::imad, 4, 3).add(Pipe::int32, 3, 1).done();
    return Use{}.add(Pipe::imad, 3, 2).add(Pipe::int32, 1, 1).done();
  }
  if (wide && mad) return Use{}.one(Pipe::imad).add(Pipe::int32, 2, 2).done();  // IMAD.WIDE, then a 64-bit add
  return single(Pipe::imad);  // IMAD, IMAD.HI, IMAD.WIDE, IDP, IMAD.X
}

// integer: int whatever the type; 64-bit as two 32-bit halves; bit fields with register
// positions take PRMTs to unpack them.
PipeUse integer(const DecodedInstruction& d, const Parsed& p) {
  const Type t = p.type();
  const auto register_source = [&](std::size_t i) { return i < d.srcs.size() && d.srcs[i].kind == Arg::Kind::reg; };
  if (p.name == "bfe") {
    // SHF + SGXT; with a register position or length, 3 PRMT more to take their bytes apart.
    const bool immediate = !register_source(1) && !register_source(2) && d.opcode != Opcode::other_calc;
    return Use{}.add(Pipe::int32, immediate ? 2 : 5, 2).done();
  }
  if (p.name == "bfi") {
    const bool immediate = !register_source(2) && !register_source(3) && d.opcode != Opcode::other_calc;
    return Use{}.add(Pipe::int32, immediate ? 2 : 6, 2).done();  // SHF + LOP3; BMSK and PRMTs with registers
  }
  if (p.name == "cnot") return Use{}.add(Pipe::int32, 2, 2).done();  // ISETP + SEL
  if (t.bits == 64 && t.kind == Kind::integer) {
    if (p.name == "cvta" || p.name == "mov" || p.name == "isspacep" || p.name == "mapa" || p.name == "alloca") {
      return single(Pipe::int32);  // a move or one address add (ptxas often folds it away)
    }
    if (p.name == "addc" || p.name == "subc") return Use{}.add(Pipe::int32, 2, 2).done();
    return Use{}.add(Pipe::int32, 2, 1).done();  // LOP3 per half; SHF.L.U32 + SHF.L.U64.HI
  }
  return single(Pipe::int32);  // MOV, LOP3, SHF, PRMT, S2R for special registers (counted as int)
}

// bits: popc, clz, brev, bfind.
PipeUse bits(const Parsed& p) {
  const bool wide = p.type().bits == 64;
  if (p.name == "clz") {
    // FLO.U32 and 31 - x; 64-bit: a FLO of the half that is not zero, chosen by ISETP/SEL.
    return wide ? Use{}.one(Pipe::bits).add(Pipe::int32, 4, 3).done() : Use{}.one(Pipe::bits).one(Pipe::int32).done();
  }
  if (p.name == "bfind") {
    Use u;
    if (wide) {
      u.add(Pipe::bits, 2, 1).add(Pipe::int32, 2, 2).one(Pipe::control);  // two FLO, a compare, a branch
    } else {
      u.one(Pipe::bits);
    }
    if (p.has("shiftamt")) u.one(Pipe::int32);
    return u.done();
  }
  if (wide && p.name == "popc") return Use{}.add(Pipe::bits, 2, 1).one(Pipe::int32).done();  // POPC per half + IADD3
  if (wide) return Use{}.add(Pipe::bits, 2, 1).done();  // BREV per half
  return single(Pipe::bits);
}

// conv: cvt.
PipeUse conv(const Parsed& p) {
  const Type to = p.type(0), from = p.types.size() > 1 ? p.types[1] : p.type(0);
  const bool to_float = is_float(to.kind), from_float = is_float(from.kind);
  if (!to_float && !from_float) return single(Pipe::int32);  // SHF for sign, or a move (often none)
  if (to_float && from_float) {
    if (to.kind == from.kind && to.kind != Kind::f16) {
      // cvt.rni.f32.f32 is FRND (conv); cvt.sat.f32.f32 and cvt.ftz.f32.f32 an FADD/FMUL.
      const bool rounds = p.has("rni") || p.has("rzi") || p.has("rmi") || p.has("rpi");
      return single(rounds ? Pipe::conv : float_pipe(to.kind));
    }
    if (to.kind == Kind::f32 && from.kind == Kind::f16) {
      // f16 -> f32 is HADD2.F32 on the fp16 pipe; bf16 -> f32 a shift (IMAD.U32/PRMT).
      const bool bf = std::find(p.modifiers.begin(), p.modifiers.end(), "bf16") != p.modifiers.end();
      return single(bf ? Pipe::int32 : Pipe::fp16);
    }
    if (to.kind == Kind::f64 && from.kind == Kind::f16) return Use{}.one(Pipe::fp16).one(Pipe::conv).done();
    // F2F between f32 and f64 (ptxas's F2F.F64.F32 / F2F.F32.F64, on the conversion unit, not the
    // fp64 pipe), F2FP for f32 -> f16/bf16 pairs (Ampere runs it on the ALU: counted as conv),
    // F2F.F16.F64, and the tf32/fp8 packings.
    return single(Pipe::conv);
  }
  return single(Pipe::conv);  // F2I, I2F (16-bit floats: the same conversion, with a PRMT at most)
}

// sfu: rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh.
PipeUse sfu(const Parsed& p) {
  const Type t = p.type();
  const bool approx = p.has("approx"), ftz = p.has("ftz");
  if (t.kind == Kind::f16) return Use{}.add(Pipe::sfu, t.pair ? 2 : 1, 1).done();  // MUFU.EX2.F16, MUFU.TANH.F16 per half
  if (p.name == "tanh") return single(Pipe::sfu);
  if (p.name == "sin" || p.name == "cos") return Use{}.one(Pipe::fp32).one(Pipe::sfu).done();  // FMUL.RZ, MUFU.SIN
  if (t.kind == Kind::f64) {
    if (p.name == "rcp" && approx) return single(Pipe::sfu);  // MUFU.RCP64H
    if (p.name == "rcp") {
      // rcp.rn.f64 fast path: MUFU.RCP64H, IADD3, FSETP, 5 DFMA, the branch to the slow path.
      return Use{}.one(Pipe::sfu).add(Pipe::fp64, 5, 5).one(Pipe::int32).add(Pipe::fp32, 1, 0).add(Pipe::control, 1, 0).done();
    }
    if (p.name == "sqrt") {
      // sqrt.rn.f64 fast path: MUFU.RSQ64H, 3 DMUL + 5 DFMA, 4 integer (IADD3, ISETP, moves), BRA.
      return Use{}.one(Pipe::sfu).add(Pipe::fp64, 8, 6).add(Pipe::int32, 4, 1).add(Pipe::control, 1, 0).done();
    }
    // rsqrt.approx.f64: MUFU.RSQ64H refined by 2 DMUL + 3 DFMA, IADD3 + ISETP, BRA.
    return Use{}.one(Pipe::sfu).add(Pipe::fp64, 5, 5).add(Pipe::int32, 2, 1).add(Pipe::control, 1, 0).done();
  }
  if (approx) {
    if (ftz) return single(Pipe::sfu);
    // Without .ftz ptxas scales subnormal inputs: FSETP + 2 FMUL (rcp: 2 FSETP, 2 FMUL, 2 FSEL;
    // lg2: FSETP, FMUL and an FADD of the exponent).
    if (p.name == "rcp") return Use{}.one(Pipe::sfu).add(Pipe::fp32, 6, 3).done();
    return Use{}.one(Pipe::sfu).add(Pipe::fp32, 3, 3).done();
  }
  // The rounded f32 forms, their fast path (the subnormal/special-value call not counted).
  if (p.name == "sqrt") {
    // IADD3, ISETP, BRA; MUFU.RSQ; 2 FMUL + 2 FFMA.
    return Use{}.one(Pipe::sfu).add(Pipe::fp32, 4, 3).add(Pipe::int32, 2, 1).add(Pipe::control, 1, 0).done();
  }
  // rcp.rn.f32: IADD3, LOP3, ISETP, BRA; MUFU.RCP, FFMA, FADD, FFMA.
  return Use{}.one(Pipe::sfu).add(Pipe::fp32, 3, 3).add(Pipe::int32, 3, 1).add(Pipe::control, 1, 0).done();
}

// divide: div, rem.
PipeUse divide(const Parsed& p) {
  const Type t = p.type();
  if (t.kind == Kind::f32) {
    if (p.has("approx")) {
      // MUFU.RCP + FMUL; without .ftz an FSETP and 2 FMULs scale large divisors.
      return p.has("ftz") ? Use{}.one(Pipe::sfu).one(Pipe::fp32).done() : Use{}.one(Pipe::sfu).add(Pipe::fp32, 4, 3).done();
    }
    if (p.has("full")) {
      // FSETP(s) and FMULs around MUFU.RCP: 4 with .ftz, 7 without.
      return p.has("ftz") ? Use{}.one(Pipe::sfu).add(Pipe::fp32, 4, 3).done() : Use{}.one(Pipe::sfu).add(Pipe::fp32, 7, 4).done();
    }
    // div.rn.f32 (and .rz/.rm/.rp) fast path: MUFU.RCP, FCHK, 5 FFMA, BRA past the slow-path call.
    return Use{}.one(Pipe::sfu).add(Pipe::fp32, 6, 5).add(Pipe::control, 1, 0).done();
  }
  if (t.kind == Kind::f64) {
    // div.rn.f64 fast path: MUFU.RCP64H, 7 DFMA + DMUL, FSETP x2 + FFMA (range checks), BRA.
    return Use{}.one(Pipe::sfu).add(Pipe::fp64, 8, 8).add(Pipe::fp32, 3, 0).add(Pipe::control, 1, 0).done();
  }
  if (is_float(t.kind)) return Use{}.one(Pipe::sfu).add(float_pipe(t.kind), 2, 2).done();  // f16: assumed like approx
  const bool is_signed = t.is_signed;
  const bool rem = p.name == "rem";
  if (t.bits == 64) {
    // Always a CALL to ptxas's 64-bit division routine: I2F.U64.RP, MUFU.RCP, F2I.U64, then
    // Newton steps of 64-bit multiplies (6 IMAD.WIDE.U32, 9 IMAD, 9 IMAD.HI) and corrections
    // (IADD3/IMAD.X carries, ISETP pairs, SELs; signed: the negations around it).
    Use u;
    u.add(Pipe::conv, 2, 2).one(Pipe::sfu).add(Pipe::control, 2, 0).add(Pipe::imad, 24, 12);
    if (is_signed) {
      u.add(Pipe::int32, rem ? 50 : 56, 14);
    } else {
      u.add(Pipe::int32, rem ? 36 : 40, 12);
    }
    return u.done();
  }
  // 32-bit (and narrower): I2F.RP, MUFU.RCP, F2I, 4 IMAD(.HI), then the corrections; signed
  // adds 3 IABS and the sign fix.
  Use u;
  u.add(Pipe::conv, 2, 2).one(Pipe::sfu).add(Pipe::imad, 4, 4);
  if (is_signed) {
    u.add(Pipe::int32, rem ? 14 : 16, 5);
  } else {
    u.add(Pipe::int32, rem ? 9 : 10, 4);
  }
  return u.done();
}

// The tensor pipe of an mma's input types: fp8 > tf32 > i8 > f16 > f64, so that the accumulator
// types (f32, s32) do not decide. wmma.mma for f16 names only its D and C types: f16.
Pipe tensor_pipe(const Parsed& p) {
  bool f16 = false, tf32 = false, i8 = false, fp8 = false, f64 = false;
  for (std::size_t i = 0; i < p.types.size(); ++i) {
    const Type t = p.types[i];
    switch (t.kind) {
      case Kind::f16: f16 = true; break;
      case Kind::tf32: tf32 = true; break;
      case Kind::fp8: fp8 = true; break;
      case Kind::f64: f64 = true; break;
      case Kind::integer: if (t.bits <= 8) i8 = true; break;
      default: break;
    }
  }
  if (fp8 || p.has("kind::f8f6f4") || p.has("kind::mxf8f6f4") || p.has("kind::mxf4") || p.has("kind::mxf4nvf4")) {
    return Pipe::tensor_fp8;
  }
  if (tf32 || p.has("kind::tf32")) return Pipe::tensor_tf32;
  if (i8 || p.has("kind::i8")) return Pipe::tensor_i8;
  if (f16 || p.has("kind::f16")) return Pipe::tensor_f16;
  if (f64) return Pipe::tensor_f64;
  return Pipe::tensor_f16;
}

// m, n, k of a shape modifier (m16n8k16), or 0 when there is none.
std::int64_t shape_fmas(const Parsed& p) {
  for (const std::string_view m : p.modifiers) {
    if (m.size() < 6 || m[0] != 'm') continue;
    std::int64_t value[3] = {0, 0, 0};
    int part = 0;
    bool ok = true;
    for (std::size_t i = 1; i < m.size() && ok; ++i) {
      const char c = m[i];
      if (c >= '0' && c <= '9') {
        value[part] = value[part] * 10 + (c - '0');
      } else if ((c == 'n' && part == 0) || (c == 'k' && part == 1)) {
        ++part;
      } else {
        ok = false;
      }
    }
    if (ok && part == 2 && value[0] > 0 && value[1] > 0 && value[2] > 0) return value[0] * value[1] * value[2];
  }
  return 0;
}

// mma: mma(.sp).sync, wmma.mma, wgmma.mma_async; wmma.load/store are memory; wgmma's fences and
// tcgen05 (shape in a descriptor register) are issue only.
PipeUse mma(const Parsed& p) {
  const bool wmma = p.name == "wmma", wgmma = p.name == "wgmma";
  if (wmma && !p.has("mma")) return issue_only();  // wmma.load / wmma.store: the memory model prices them
  if (wgmma && !p.has("mma_async") && !p.has("mma_async.sp")) return single(Pipe::control);  // fence, commit, wait
  const std::int64_t fmas = shape_fmas(p);
  if (p.name == "tcgen05" || fmas == 0) return single(Pipe::control);  // no shape to price: issue only (assumed)
  const std::int64_t per_warp = wgmma ? fmas / 4 : fmas;  // a warpgroup's wgmma: 4 warps share it
  const std::int64_t units = std::max<std::int64_t>(1, per_warp / isa::kTensorUnitFmas);
  Use u;
  u.add(tensor_pipe(p), units, 1);
  // SASS instructions: mma.sync and wgmma one (HMMA.16816, IMMA.16832, DMMA.884, HGMMA); wmma
  // m16n16k16 is two HMMA.16816 (8 units each).
  return u.done(wmma ? static_cast<std::int32_t>(std::max<std::int64_t>(1, units / 8)) : 1);
}

// cp: cp.async and cp.async.bulk are memory; the group/wait forms issue only (LDGDEPBAR, DEPBAR).
PipeUse memory(const DecodedInstruction& d, const Parsed& p) {
  if (p.name == "cp" && d.opcode == Opcode::other_calc) return single(Pipe::control);
  if (p.name == "cp" && (p.has("commit_group") || p.has("wait_group") || p.has("wait_all"))) return single(Pipe::control);
  return issue_only();
}

}  // namespace

PipeUse pipe_use(const DecodedInstruction& d) {
  const Parsed p = parse(d.text);
  const OpcodeInfo* info = find_opcode(p.name);
  if (info == nullptr) {
    // An opcode warpsim does not know: assumed one fp32 instruction (an assumption, as its results).
    return single(Pipe::fp32);
  }
  switch (info->pipe_rule) {
    case PipeRule::by_type: return by_type(p);
    case PipeRule::imul: return imul(p);
    case PipeRule::integer: return integer(d, p);
    case PipeRule::bits: return bits(p);
    case PipeRule::conv: return conv(p);
    case PipeRule::sfu: return sfu(p);
    case PipeRule::divide: return divide(p);
    case PipeRule::shfl: return single(Pipe::shfl);  // SHFL, VOTE, MATCH, REDUX, ELECT
    case PipeRule::mma: return mma(p);
    case PipeRule::memory: return memory(d, p);
    case PipeRule::control: return single(Pipe::control);
    case PipeRule::barrier:
      // bar.warp.sync emits nothing on sm_80 (a warp converged by construction there); bar.sync,
      // barrier.sync, bar.arrive: one BAR, its waiting is the barrier model's.
      if (p.has("warp")) return Use{}.done(0);
      return issue_only();
    case PipeRule::plain:
      // Ordering, hints, ldmatrix/stmatrix (LDSM/STSM: shared memory, but not counted as
      // accesses), mbarrier: issue only, on the control pipe (membar.gl is 3 SASS: counted as 1).
      return single(Pipe::control);
  }
  return single(Pipe::fp32);  // not reached: every rule is handled (an fp32 instruction assumed)
}

bool is_load_for_use_distance(const DecodedInstruction& d) {
  switch (d.opcode) {
    case Opcode::ld:
    case Opcode::ldu: return true;  // ld.param too (ptxas turns kernel params into constant operands)
    case Opcode::atom: return d.atomic_returns;
    case Opcode::tex: return true;
    case Opcode::surface: return d.text.starts_with("suld");
    case Opcode::cp_async: return true;  // used at its wait (copy_wait_distance)
    default: return false;
  }
}

namespace {

bool starts_with_any(const std::string& text, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return text.starts_with(p); });
}

// A cp.async copy is used where the warp waits for it: the first cp.async.wait_all, or the first
// cp.async.wait_group N once more than N groups were committed since the copy (its own group
// among them). Searched in code order across blocks, following the back edge of a loop around
// the copy once (its next iteration, where a multistage pipeline waits); -1 when there is none.
// A static count: the iterations of an inner loop in between are counted once, so the warp waits
// earlier than on the GPU (the copy overlaps less: conservative).
std::int32_t copy_wait_distance(const std::vector<DecodedInstruction>& code, std::uint32_t copy) {
  std::int64_t committed = 0, distance = 0;
  bool wrapped = false;
  for (std::uint32_t j = copy + 1; j < code.size(); ++j, ++distance) {
    const DecodedInstruction& in = code[j];
    const std::string& text = in.text;
    if (starts_with_any(text, {"cp.async.commit_group", "cp.async.bulk.commit_group"})) ++committed;
    if (starts_with_any(text, {"cp.async.wait_all"})) return static_cast<std::int32_t>(distance);
    if (starts_with_any(text, {"cp.async.wait_group", "cp.async.bulk.wait_group"})) {
      // The operand N (an immediate); an unreadable one counts as 0, the strictest wait.
      const std::int64_t pending = !in.srcs.empty() && in.srcs[0].kind == Arg::Kind::imm ? static_cast<std::int64_t>(in.srcs[0].imm) : 0;
      if (committed > pending) return static_cast<std::int32_t>(distance);
    }
    if (in.opcode == Opcode::bra && in.target <= copy && !wrapped) {  // the back edge of a loop around the copy
      wrapped = true;
      j = in.target - 1;  // on to the loop head
    }
  }
  return -1;
}

}  // namespace

// At most this many instructions: ptxas's scheduler keeps a bounded number of loads in flight
// (registers), and in unrolled code equal values let the lowering fold the loop again.
constexpr std::int32_t kMaxHoist = 32;

void set_use_distances(DecodedFunction& function, const std::vector<std::vector<std::uint32_t>>& reads) {
  std::vector<DecodedInstruction>& code = function.code;
  const auto size = static_cast<std::uint32_t>(code.size());
  // Block leaders as cfg.cpp has them: branch targets, and what follows a branch, ret, exit, trap.
  std::vector<bool> leader(size + 1, false);
  leader[0] = true;
  for (std::uint32_t i = 0; i < size; ++i) {
    const DecodedInstruction& in = code[i];
    if (in.opcode == Opcode::bra && in.target <= size) leader[in.target] = true;
    for (const std::uint32_t t : in.branch_table) {
      if (t <= size) leader[t] = true;
    }
    if (in.opcode == Opcode::bra || in.opcode == Opcode::brx || in.opcode == Opcode::ret || in.opcode == Opcode::exit ||
        in.opcode == Opcode::trap) {
      leader[i + 1] = true;
    }
  }
  std::uint32_t block_end = size;  // one past the last instruction of the block of i
  for (std::uint32_t i = size; i-- > 0;) {
    if (leader[i + 1]) block_end = i + 1;
    DecodedInstruction& in = code[i];
    if (!is_load_for_use_distance(in)) continue;
    std::int32_t distance = static_cast<std::int32_t>(block_end - i - 1);
    if (in.opcode == Opcode::cp_async) {
      const std::int32_t wait = copy_wait_distance(code, i);
      in.use_distance = wait >= 0 ? wait : distance;
      in.hoist = 0;  // ordered with its commit group
      continue;
    }
    for (std::uint32_t j = i + 1; j < block_end; ++j) {
      const std::vector<std::uint32_t>& r = reads[j];
      const bool uses = std::any_of(in.dsts.begin(), in.dsts.end(), [&](const Arg& dst) {
        return dst.kind == Arg::Kind::reg && std::find(r.begin(), r.end(), dst.reg) != r.end();
      });
      if (uses) {
        distance = static_cast<std::int32_t>(j - i - 1);
        break;
      }
    }
    in.use_distance = distance;
    // How far ptxas could hoist it: back to the latest instruction that writes what it reads, or
    // a barrier, store, atomic or fence (its order with other memory instructions), or the
    // block's start.
    std::int32_t hoist = 0;
    for (std::uint32_t j = i; j-- > 0 && !leader[j + 1] && hoist < kMaxHoist;) {
      const DecodedInstruction& before = code[j];
      const bool writes_input = std::any_of(before.dsts.begin(), before.dsts.end(), [&](const Arg& dst) {
        return dst.kind == Arg::Kind::reg && std::find(reads[i].begin(), reads[i].end(), dst.reg) != reads[i].end();
      });
      const bool ordered = before.block_barrier || before.opcode == Opcode::st || before.opcode == Opcode::atom ||
                           before.opcode == Opcode::red || before.opcode == Opcode::bar || before.pipes.issue == 0 ||
                           before.text.starts_with("membar") || before.text.starts_with("fence");
      if (writes_input || ordered) break;
      ++hoist;
    }
    in.hoist = hoist;
  }
}

}  // namespace warpsim::ptx

// The SASS opcodes and what each occupies. Sources:
// - NVIDIA, "CUDA Binary Utilities", section "Instruction Set Reference": the opcodes of each
//   architecture (Turing, Ampere and Ada, Hopper, Blackwell) and their one-line meaning;
// - NVIDIA, "CUDA C++ Programming Guide", table "Throughput of Native Arithmetic Instructions":
//   the classes of arithmetic that share a unit (the isa::Pipe enumerators follow it);
// - Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking" (2018) and
//   "... Turing T4 GPU ..." (2019): which instructions complete through a write barrier (variable
//   latency: memory, MUFU, S2R, shuffles) and that the uniform datapath issues beside the others.
// Rows are checked against ptxas's own code in tests/sass/ and tests/ptx/pipe_classes_test.cpp.
#include "opcode_table.hpp"

#include <algorithm>
#include <array>

namespace warpsim::sass::detail {
namespace {

using isa::Pipe;
using K = OpcodeKind;

// Compute-capability sets (bits of kComputeCapabilities: 75, 80, 86, 89, 90, 100, 120).
constexpr std::uint8_t kAll = 0x7f;
constexpr std::uint8_t kFrom80 = 0x7e;
constexpr std::uint8_t kFrom89 = 0x78;
constexpr std::uint8_t kFrom90 = 0x70;
constexpr std::uint8_t kFrom100 = 0x60;
constexpr std::uint8_t kOnly90 = 0x10;        // warpgroup MMA (wgmma), sm_90 only

constexpr OpcodeRow arith(std::string_view name, Pipe pipe, Dests dests = Dests::first, Wide wide = Wide::none) {
  return {name, K::arithmetic, pipe, dests, wide};
}
constexpr OpcodeRow variable(OpcodeRow row) {
  row.variable_latency = true;
  return row;
}
constexpr OpcodeRow moves(OpcodeRow row) {
  row.move = true;
  return row;
}
constexpr OpcodeRow alias(OpcodeRow row) {
  row.integer_alias = true;
  return row;
}
constexpr OpcodeRow on(std::uint8_t ccs, OpcodeRow row) {
  row.ccs = ccs;
  return row;
}
constexpr OpcodeRow load(std::string_view name) { return {name, K::memory, Pipe::control, Dests::first, Wide::none, kAll, false, true}; }
constexpr OpcodeRow store(std::string_view name) { return {name, K::memory, Pipe::control, Dests::none, Wide::none, kAll, false, true}; }
constexpr OpcodeRow flow(std::string_view name) { return {name, K::control, Pipe::control, Dests::none}; }

// Sorted by name (find_row searches it); a row with a modifier overrides its base's.
constexpr auto kRows = [] {
  std::array rows{
      store("ARRIVES"),  // cp.async.mbarrier.arrive: a shared-memory update
      load("ATOM"), load("ATOMG"), load("ATOMS"),
      OpcodeRow{"BAR", K::barrier, Pipe::control, Dests::none},
      variable(arith("BMMA", Pipe::tensor_i8)),
      flow("BMOV"), arith("BMSK", Pipe::int32), flow("BPT"), flow("BRA"), flow("BREAK"), variable(arith("BREV", Pipe::bits)),
      flow("BRX"), flow("BSSY"), flow("BSYNC"), flow("CALL"), flow("CCTL"), flow("CGAERRBAR"),
      OpcodeRow{"CS2R", K::special_register, Pipe::control},
      arith("DADD", Pipe::fp64, Dests::first, Wide::all), flow("DEPBAR"),
      arith("DFMA", Pipe::fp64, Dests::first, Wide::all),
      on(kFrom80, variable(arith("DMMA", Pipe::tensor_f64))),  // also on sm_86/89, where FP64 is slow
      arith("DMNMX", Pipe::fp64, Dests::first, Wide::all), arith("DMUL", Pipe::fp64, Dests::first, Wide::all),
      arith("DSETP", Pipe::fp64, Dests::predicates, Wide::all),
      on(kFrom90, OpcodeRow{"ELECT", K::uniform}), flow("ERRBAR"), flow("EXIT"),
      variable(arith("F2F", Pipe::conv)), variable(arith("F2FP", Pipe::conv)), variable(arith("F2I", Pipe::conv)),
      variable(arith("F2IP", Pipe::conv)), arith("FADD", Pipe::fp32), arith("FCHK", Pipe::fp32, Dests::predicates),
      flow("FENCE"), arith("FFMA", Pipe::fp32), variable(arith("FLO", Pipe::bits)), arith("FMNMX", Pipe::fp32),
      arith("FMUL", Pipe::fp32), variable(arith("FRND", Pipe::conv)), arith("FSEL", Pipe::fp32), arith("FSET", Pipe::fp32),
      arith("FSETP", Pipe::fp32, Dests::predicates), arith("FSWZADD", Pipe::fp32),
      arith("HADD2", Pipe::fp16), arith("HFMA2", Pipe::fp16),
      on(kOnly90, variable(arith("HGMMA", Pipe::tensor_f16))), variable(arith("HMMA", Pipe::tensor_f16)),
      arith("HMNMX2", Pipe::fp16), arith("HMUL2", Pipe::fp16), arith("HSET2", Pipe::fp16),
      arith("HSETP2", Pipe::fp16, Dests::predicates),
      variable(arith("I2F", Pipe::conv)), variable(arith("I2FP", Pipe::conv)), variable(arith("I2I", Pipe::conv)),
      variable(arith("I2IP", Pipe::conv)), arith("IABS", Pipe::int32), arith("IADD", Pipe::int32), arith("IADD3", Pipe::int32),
      arith("IDP", Pipe::imad), on(kOnly90, variable(arith("IGMMA", Pipe::tensor_i8))),
      // IMAD and its aliases run on the IMAD unit: IMAD.IADD, IMAD.SHL, IMAD.X and IMAD.U32 are
      // integer adds, shifts and moves ptxas put there (to balance it with the integer ALU),
      // IMAD.MOV is its register move, IMAD.WIDE a 32x32->64 multiply-add.
      arith("IMAD", Pipe::imad), alias(arith("IMAD.IADD", Pipe::imad)), moves(arith("IMAD.MOV", Pipe::imad)),
      alias(arith("IMAD.SHL", Pipe::imad)), alias(arith("IMAD.U32", Pipe::imad)), alias(arith("IMAD.X", Pipe::imad)),
      arith("IMAD.WIDE", Pipe::imad, Dests::first, Wide::dest_and_addend),
      variable(arith("IMMA", Pipe::tensor_i8)), arith("IMNMX", Pipe::int32), arith("IMUL", Pipe::imad),
      arith("ISETP", Pipe::int32, Dests::predicates), flow("JMP"), flow("JMX"), flow("KILL"),
      load("LD"), load("LDC"), on(kFrom100, load("LDCU")), load("LDG"), on(kFrom80, store("LDGSTS")), flow("LDGDEPBAR"), load("LDL"), load("LDS"),
      load("LDSM"), arith("LEA", Pipe::int32), arith("LOP", Pipe::int32), arith("LOP3", Pipe::int32),
      variable(arith("MATCH", Pipe::shfl)), flow("MEMBAR"), moves(arith("MOV", Pipe::int32)), variable(arith("MUFU", Pipe::sfu)),
      flow("NANOSLEEP"), flow("NOP"), arith("P2R", Pipe::int32), arith("PLOP3", Pipe::int32, Dests::predicates),
      flow("PMTRIG"), variable(arith("POPC", Pipe::bits)), arith("PRMT", Pipe::int32),
      on(kFrom89, variable(arith("QGMMA", Pipe::tensor_fp8))), on(kFrom89, variable(arith("QMMA", Pipe::tensor_fp8))),
      arith("R2P", Pipe::int32, Dests::none), OpcodeRow{"R2UR", K::uniform}, store("RED"), on(kFrom90, store("REDG")), flow("RET"),
      variable(arith("REDUX", Pipe::shfl)), OpcodeRow{"S2R", K::special_register, Pipe::control, Dests::first, Wide::none, kAll, false, true},
      OpcodeRow{"S2UR", K::uniform}, arith("SEL", Pipe::int32), arith("SGXT", Pipe::int32), arith("SHF", Pipe::int32),
      variable(arith("SHFL", Pipe::shfl)), store("ST"), store("STG"), store("STL"), store("STS"), on(kFrom90, store("STSM")),
      load("SUATOM"), load("SULD"), store("SURED"), store("SUST"), on(kFrom90, load("SYNCS")),
      load("TEX"), load("TLD"), load("TLD4"), load("TMML"), load("TXD"), load("TXQ"),
      on(kFrom90, store("UBLKCP")), on(kFrom90, store("UTMALDG")), on(kFrom90, store("UTMAPF")),
      on(kFrom90, store("UTMASTG")), arith("VABSDIFF", Pipe::int32), arith("VABSDIFF4", Pipe::int32),
      on(kFrom90, arith("VIADD", Pipe::int32)), on(kFrom90, arith("VIADDMNMX", Pipe::int32)),
      on(kFrom90, arith("VIMNMX", Pipe::int32)), arith("VOTE", Pipe::shfl), OpcodeRow{"VOTEU", K::uniform},
      on(kFrom90, flow("WARPGROUP")), flow("WARPSYNC"), flow("YIELD"),
  };
  std::sort(rows.begin(), rows.end(), [](const OpcodeRow& a, const OpcodeRow& b) { return a.name < b.name; });
  return rows;
}();

const OpcodeRow* exact(std::string_view name) {
  const auto it = std::lower_bound(kRows.begin(), kRows.end(), name, [](const OpcodeRow& row, std::string_view n) { return row.name < n; });
  return it != kRows.end() && it->name == name ? &*it : nullptr;
}

constexpr OpcodeRow kUniform{"U*", K::uniform};

}  // namespace

const OpcodeRow* find_row(std::string_view opcode) {
  const std::size_t dot = opcode.find('.');
  const std::string_view base = opcode.substr(0, dot);
  if (dot != std::string_view::npos) {
    const std::size_t next = opcode.find('.', dot + 1);
    if (const OpcodeRow* row = exact(opcode.substr(0, next))) return row;
  }
  if (const OpcodeRow* row = exact(base)) return row;
  if (!base.empty() && base.front() == 'U') return &kUniform;  // UIADD3, ULDC, UMOV, ULOP3...
  return nullptr;
}

}  // namespace warpsim::sass::detail

// The decoded form of a PTX module that the warp emulator runs: names resolved to register
// indices, labels to instruction indices, opcodes and modifiers to enums. Built by decode.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/ptx/pipe_classes.hpp"
#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

// One enumerator per opcode with semantics of its own, from the opcode table (opcodes.def).
enum class Opcode : std::uint8_t {
#define WARPSIM_OPCODE(enumerator, name, operands, cls, pipes) enumerator,
#include "warpsim/ptx/opcodes.def"
  other_calc,  // no semantics: plain and unmodelled opcodes, unknown opcodes, external calls
};

// f: IEEE binary16/32/64; bf: bfloat16; narrow_float: tf32 and the fp8/fp6/fp4 formats, which
// the emulator does not compute.
enum class TypeKind : std::uint8_t { untyped, b, u, s, f, bf, narrow_float, pred };

struct ScalarType {
  TypeKind kind = TypeKind::untyped;
  std::uint8_t bits = 0;      // the whole width: 8, 16, 32, 64 (pred: 1; f16x2: 32)
  std::uint8_t elements = 1;  // 2 for the packed pairs f16x2, bf16x2, e4m3x2, ...

  bool is_signed() const { return kind == TypeKind::s; }
  bool is_float() const { return kind == TypeKind::f || kind == TypeKind::bf || kind == TypeKind::narrow_float; }
  int bytes() const { return bits <= 8 ? 1 : bits / 8; }
  bool operator==(const ScalarType&) const = default;
};

enum class Compare : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };
enum class MulMode : std::uint8_t { lo, hi, wide };
enum class ShflMode : std::uint8_t { up, down, bfly, idx };
enum class VoteMode : std::uint8_t { all, any, uni, ballot };
enum class PermuteMode : std::uint8_t { generic, f4e, b4e, rc8, ecl, ecr, rc16 };  // prmt
// cvt's integer rounding (.rni .rzi .rmi .rpi), of float-to-integer and float-to-float conversions.
enum class IntegerRounding : std::uint8_t { none, nearest_even, zero, down, up };

// How the emulator treats an instruction, for the assumptions report (assumptions.hpp).
enum class Modelling : std::uint8_t {
  modelled,        // emulated, or nothing to compute (membar, fence)
  unmodelled,      // a known opcode or form the emulator does not compute: results unknown
  unknown_opcode,  // an opcode warpsim does not know: results unknown
  external_call,   // a call to a function without a body, or through a register
};

// Special registers, materialised per lane when a frame starts.
enum class Special : std::uint8_t {
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  laneid, warpid, nwarpid, smid, nsmid, gridid, lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt,
  lanemask_ge, warpsize, unknown,  // clocks, timers, envreg: no value
};

struct Arg {
  enum class Kind : std::uint8_t { none, reg, imm, sink };
  Kind kind = Kind::none;
  bool negated = false;  // !%p
  std::uint32_t reg = 0;
  std::uint64_t imm = 0;
};

// An address operand: base register or symbol plus offset. `symbol` >= 0 for a symbol base:
// for the param space it is a param slot id, otherwise the symbol's address is `imm` of base.
struct Address {
  Arg base;  // reg, or imm (absolute or symbol address)
  std::int64_t offset = 0;
  std::int32_t param_slot = -1;  // ld.param/st.param of a named parameter
};

struct DecodedInstruction {
  Opcode opcode = Opcode::other_calc;
  ScalarType type;      // the operation type (destination type for cvt)
  ScalarType src_type;  // cvt source type; setp/set comparison type
  StateSpace space = StateSpace::generic;  // memory space of ld/st/atom/red/cvta
  bool to_space = false;                   // cvta.to.X (generic -> X)
  std::uint8_t vector_width = 1;
  Compare compare = Compare::eq;
  BoolOp bool_op = BoolOp::none;
  MulMode mul_mode = MulMode::lo;
  ShflMode shfl_mode = ShflMode::idx;
  VoteMode vote_mode = VoteMode::any;
  PermuteMode permute_mode = PermuteMode::generic;
  bool shift_left = false;   // shf.l (else shf.r)
  bool shift_clamp = false;  // shf.clamp (else shf.wrap)
  bool atomic_returns = false;  // atom (returns the old value) vs red
  bool writes_global = false;    // cp.async(.bulk) from shared to global, cp.reduce.async.bulk
  bool unknown_footprint = false;  // wmma fragments, tensor-map copies: sectors not computed
  bool block_barrier = false;      // bar.sync/barrier.sync/bar.red of the whole block: a barrier item
  bool flush_subnormals = false;   // .ftz
  bool saturate = false;           // .sat
  IntegerRounding integer_rounding = IntegerRounding::none;
  Modelling modelling = Modelling::modelled;
  std::string modelling_name;  // unmodelled: the opcode or form ("mma", "div.approx"); external_call: the callee
  bool has_guard = false;
  bool guard_negated = false;
  std::uint32_t guard_reg = 0;
  std::vector<Arg> dsts;
  std::vector<Arg> srcs;
  Address address;
  std::uint32_t target = 0;                 // bra: instruction index; call: function index
  std::vector<std::uint32_t> branch_table;  // brx.idx targets
  std::vector<std::int32_t> call_args;      // call: param slots of the arguments
  std::vector<std::int32_t> call_returns;   // call: param slots receiving the return values
  std::int32_t addressed_param = -1;        // a source is this param slot's address (mov %rd1, k_param_0)
  Position pos;
  std::string text;  // opcode with modifiers, for messages
  PipeUse pipes;     // the SASS it costs per execution pipe (pipe_classes.hpp), set by the decoder
  // Loads (ld, ldu, atom, tex, suld): instructions after it in its basic block before the first
  // that reads a destination (0: the next one); none does: the instructions left in the block.
  // -1 for every other instruction (pipe_classes.hpp, set_use_distances).
  std::int32_t use_distance = -1;
  // A load's: the instructions before it in its basic block that it could issue ahead of (none
  // writes a register it reads; no barrier, store or fence between), as ptxas hoists loads.
  std::int32_t hoist = 0;
};

// Registers one function may declare (all `.reg` declarations together); nvcc's largest -G
// builds stay far below. The emulator keeps 32 lane values per register.
inline constexpr std::int64_t kMaxRegistersPerFunction = std::int64_t{1} << 18;

struct DecodedFunction {
  std::string name;
  bool is_entry = false;
  std::uint32_t register_count = 0;
  std::vector<ScalarType> register_types;
  std::vector<std::pair<std::uint32_t, Special>> special_registers;
  std::vector<std::string> special_register_names;  // parallel to special_registers ("%tid.x")
  std::vector<std::int32_t> param_slots;   // parameter i -> its param slot
  std::vector<std::int32_t> return_slots;  // return value i -> its param slot
  std::vector<DecodedInstruction> code;    // index code.size() is the function's exit
};

// A kernel or function parameter, or a `.param` variable of a call sequence.
struct ParamSlot {
  std::string name;
  ScalarType type;
  bool is_array = false;  // `.b8 name[16]`: an aggregate passed by value
  bool is_pointer = false;  // `.ptr` attribute
};

struct Warning {
  Position pos;
  std::string message;
};

struct DecodedModule {
  std::string file;
  std::vector<DecodedFunction> functions;  // same order as Module::functions
  std::vector<ParamSlot> param_slots;
  std::vector<Warning> warnings;  // e.g. unknown opcodes, kept as calc instructions
};

// Synthetic address layout of the emulated generic address space (docs/ptx.md).
inline constexpr std::uint64_t kPointerParamBase = std::uint64_t{1} << 36;   // parameter i at (i+1) * 2^36
inline constexpr std::uint64_t kGlobalSymbolBase = std::uint64_t{1} << 46;   // module .global variables
inline constexpr std::uint64_t kSharedWindow = std::uint64_t{1} << 47;       // generic = window + shared offset
inline constexpr std::uint64_t kLocalWindow = kSharedWindow + (std::uint64_t{1} << 40);
inline constexpr std::uint64_t kConstWindow = kSharedWindow + (std::uint64_t{2} << 40);
inline constexpr std::uint64_t kParamWindow = kSharedWindow + (std::uint64_t{3} << 40);
inline constexpr std::uint64_t kWindowSize = std::uint64_t{1} << 40;

}  // namespace warpsim::ptx

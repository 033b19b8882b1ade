// The syntax tree of a PTX module as nvcc emits it (PTX ISA 7.x-9.x). The parser fills it; the
// decoder (decode.hpp) resolves names and turns instructions into something the emulator runs.
// Positions are 1-based line and column in the source file, for FILE:LINE:COL diagnostics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace warpsim::ptx {

struct Position {
  int line = 0;
  int column = 0;
};

// State spaces of declarations and of memory instructions (`ld.global` -> global).
enum class StateSpace : std::uint8_t { reg, sreg, param, global, shared, local, constant, texture, surface, generic };
const char* to_string(StateSpace space);

enum class Linkage : std::uint8_t { none, visible, external, weak, common };

// One declared variable, or a `%r<12>` range of registers, or a kernel/function parameter.
//   .reg .b32 %r<12>;                    space reg, type "b32", name "%r", range_count 12
//   .reg .pred %p1;                      range_count -1
//   .shared .align 4 .b8 sdata[1024];    space shared, alignment 4, array_dims {1024}
//   .param .u64 .ptr.global.align 1 _Z3fooPf_param_0;   pointer_space global, alignment 1
//   .global .align 4 .u32 g[2][3] = {...};              array_dims {2, 3}, has_initializer
struct Declaration {
  Position pos;
  StateSpace space = StateSpace::reg;
  Linkage linkage = Linkage::none;
  std::string type;                      // scalar type without the dot: "b32", "u64", "f32", "pred"
  int vector_width = 1;                  // 2, 4 or 8 for `.v2 .f32` and the like
  std::int64_t alignment = 0;            // bytes; 0 when not given
  bool is_pointer = false;               // `.ptr` attribute on a parameter
  std::optional<StateSpace> pointer_space;  // `.ptr.global` and the like
  std::string name;
  int range_count = -1;                  // N for `%r<N>` (declares %r0 .. %r(N-1)), else -1
  std::vector<std::int64_t> array_dims;  // empty for a scalar; 0 for an unsized `[]` dimension
  bool has_initializer = false;
};

struct Operand {
  enum class Kind : std::uint8_t {
    name,      // %r1, %tid.x, %laneid, _Z3fooPf_param_0, $L__BB0_2, a function name; `!%p1` sets negated
    integer,   // 42, -1, 0x1F, 0xFFFFFFFFU, 017, 0b101: value holds the two's-complement bits
    floating,  // 1.5, 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits)
    address,   // [%rd1], [%rd1+8], [%rd1+-8], [sym], [sym+4], [1024]: text is the base (empty when absolute)
    vector,    // {%f1, %f2, _, %f4}: elements
    pair,      // %p1|%p2 (setp's two destinations): elements (a chain a|b|c has three)
    list,      // (retval0) and (param0, param1) of `call`: elements
    sink,      // _
  };
  Kind kind = Kind::name;
  Position pos;
  std::string text;             // name, or the base of an address
  bool negated = false;         // !%p
  std::uint64_t integer = 0;    // integer value (bits), or an address's offset as two's complement
  double floating = 0;          // floating value
  std::int64_t offset = 0;      // address offset, also `name+8` outside brackets
  std::vector<Operand> elements;
};

struct Guard {
  std::string predicate;  // "%p1"
  bool negated = false;   // @!%p1
};

// One instruction: `@%p1 bra.uni $L__BB0_2;` -> guard %p1, opcode "bra", modifiers {"uni"},
// operands {$L__BB0_2}. `ld.global.nc.v2.f32` -> opcode "ld", modifiers {"global","nc","v2","f32"}.
struct Instruction {
  Position pos;
  std::optional<Guard> guard;
  std::string opcode;
  std::vector<std::string> modifiers;
  std::vector<Operand> operands;
  int debug_file = 0;  // from the latest `.loc FILE LINE COL`; 0 when none
  int debug_line = 0;
  int inlined_file = 0;  // its `inlined_at FILE LINE COL`: where the inlined function was called; 0 when none
  int inlined_line = 0;
};

struct Label {
  Position pos;
  std::string name;
};

using Statement = std::variant<Label, Instruction>;

// An .entry or a .func. Declarations inside brace-scoped blocks (callseq blocks) are collected
// into `locals` in source order: nvcc never gives one name two different meanings in a function.
struct Function {
  Position pos;
  std::string name;
  bool is_entry = false;
  Linkage linkage = Linkage::none;
  bool has_body = false;               // false for prototypes (`.extern .func foo (...);`)
  std::vector<Declaration> params;     // in order; position i is parameter i
  std::vector<Declaration> returns;    // `.func (.param .b32 retval) foo (...)`
  std::vector<Declaration> locals;     // .reg/.local/.shared/.param/.const declared in the body
  std::vector<Statement> body;
  // Performance tuning directives, e.g. {"maxntid", {256, 1, 1}}, {"noreturn", {}}.
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> tuning;
  // `ts: .branchtargets L1, L2;` tables for brx.idx, by name.
  std::vector<std::pair<std::string, std::vector<std::string>>> branch_targets;
};

// A DWARF section as nvcc writes it into PTX (`.section .debug_info { .b8 1 .b32 .debug_abbrev }`),
// kept as bytes for the C++ parameter names of -G builds (debug_names.hpp). A value written as a
// symbol (`$L__info_string3`, `.debug_loc+242`) reads as zero bytes and is listed in `symbols`.
struct DebugSection {
  struct Symbol {
    std::size_t offset = 0;  // of the value in `bytes`
    std::string name;
    std::int64_t addend = 0;  // `.debug_loc+242`
  };
  std::string name;  // ".debug_info"
  std::vector<std::uint8_t> bytes;
  std::vector<Symbol> symbols;
  std::vector<std::pair<std::string, std::size_t>> labels;  // `$L__info_string0:` and its offset
};

struct Module {
  std::string file;  // for messages
  int version_major = 0;
  int version_minor = 0;
  std::vector<std::string> targets;  // "sm_90a", "debug", "texmode_independent"
  int address_size = 64;
  std::vector<Declaration> globals;  // module-scope .global/.shared/.const/.tex declarations
  std::vector<Function> functions;   // in source order, entries and funcs together
  std::vector<std::string> files;    // `.file N "name"` by index N (index 0 unused)
  std::vector<DebugSection> debug_sections;  // .debug_abbrev, .debug_info and .debug_str; others are dropped
};

}  // namespace warpsim::ptx

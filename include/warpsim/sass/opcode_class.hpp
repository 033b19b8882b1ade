// What a SASS instruction means for timing, per compute capability (docs/sass.md, "Opcode
// classes"): an arithmetic pipe with its work, a memory access with its width, a barrier, control
// flow, the uniform datapath or a special-register read.
#pragma once

#include <cstdint>
#include <string_view>

#include "warpsim/isa/pipes.hpp"
#include "warpsim/sass/listing.hpp"

namespace warpsim::sass {

enum class OpcodeKind : std::uint8_t {
  unknown,           // not in the table, or not an opcode of that compute capability
  arithmetic,        // occupies `pipe` for `units` (tensor pipes: units of isa::kTensorUnitFmas)
  memory,            // the LSU, texture or TMA path: `access_bits` per thread
  barrier,           // block-wide synchronisation (BAR)
  control,           // branches, calls, convergence, NOP, dependency waits: issue only
  uniform,           // the uniform datapath (U*, S2UR, ULDC): issue only
  special_register,  // S2R, CS2R: S2R has a variable latency (a write barrier), CS2R a fixed one
};

struct OpcodeClass {
  OpcodeKind kind = OpcodeKind::unknown;
  isa::Pipe pipe = isa::Pipe::control;  // arithmetic only
  std::int64_t units = 0;               // arithmetic: warp-instructions, or tensor units
  int access_bits = 0;                  // memory: bits per thread (8..128)
  bool store = false;                   // memory: writes memory and no register (ST*, RED)
  bool move = false;                    // a register move or constant (MOV, IMAD.MOV, HFMA2.MMA -RZ, RZ)
  bool variable_latency = false;        // completes through a write barrier (memory, S2R, MUFU...)
  // IMAD.IADD, IMAD.SHL, IMAD.X, IMAD.U32: an integer add, shift or move (int32 work in PTX terms)
  // that ptxas placed on the IMAD unit, whose pipe `pipe` is.
  bool integer_alias = false;
};

// The class of `in` on compute capability 75, 80, 86, 89, 90, 100 or 120 (another one reads as
// the nearest lower of these).
OpcodeClass pipe_of(const Instruction& in, int compute_capability);

// "unknown", "arithmetic", "memory", "barrier", "control", "uniform", "special_register".
const char* to_string(OpcodeKind kind);

}  // namespace warpsim::sass

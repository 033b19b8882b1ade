// Execution pipes per PTX instruction (docs/ptx.md, "Pipes"): the SASS ptxas emits for one PTX
// instruction, as warp-instructions per isa::Pipe, from the opcode's pipe rule (opcodes.def) and
// the instruction's types and modifiers. The decoder fills DecodedInstruction::pipes once, so the
// per-dynamic-instruction path only reads it.
#pragma once

#include <cstdint>
#include <vector>

#include "warpsim/isa/pipes.hpp"

namespace warpsim::ptx {

struct DecodedInstruction;
struct DecodedFunction;

// What one PTX instruction costs in SASS on sm_75 and newer (the expansion table; docs/ptx.md).
struct PipeUse {
  isa::PipeCounts work{};   // per pipe: SASS warp-instructions (tensor pipes: units of isa::kTensorUnitFmas dense FMAs per warp)
  isa::PipeCounts chain{};  // per pipe: SASS instructions on the dependent path from the sources to the result
  std::int32_t issue = 1;   // SASS instructions issued in all (0 for pure markers that emit nothing)
  bool operator==(const PipeUse&) const = default;
};

PipeUse pipe_use(const DecodedInstruction& instruction);

// A load's use distance (DecodedInstruction::use_distance) for every load of `function`: the
// instructions after it in its basic block before the first that reads one of its destinations
// (0: the next one does), or, where none in the rest of the block does, the instructions left in
// the block. `reads[i]` lists the registers instruction i reads (sources, address base, guard).
// The blocks are split as the control-flow graph splits them (cfg.cpp): at branch targets and
// after branches, returns and exits.
void set_use_distances(DecodedFunction& function, const std::vector<std::vector<std::uint32_t>>& reads);

// Whether the use distance applies: ld, ldu, atom (which returns the old value), tex, suld.
bool is_load_for_use_distance(const DecodedInstruction& instruction);

}  // namespace warpsim::ptx

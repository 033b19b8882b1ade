// SASS as the timed instruction stream (docs/sass.md): what ptxas emitted for each PTX
// instruction, as DecodedInstruction::pipes, use_distance and hoist, so the emulation (control
// flow, addresses, trip counts, warp classes) stays PTX's and the cost of each executed piece is
// the machine code's.
#pragma once

#include <cstdint>

#include "warpsim/ptx/kernel_ir.hpp"
#include "warpsim/sass/listing.hpp"

namespace warpsim::ptx {

// How much of the kernel the SASS stream priced, for the report.
struct SassCoverage {
  std::int64_t sass_instructions = 0;  // in the functions priced (padding after the last branch left out)
  std::int64_t without_line = 0;       // SASS that names no PTX line: charged to the instruction before it
  std::int64_t blocks = 0;             // PTX basic blocks of the functions priced
  std::int64_t unmapped_blocks = 0;    // blocks with work that no SASS names: priced by the PTX table, in PTX order
  std::int64_t unrolled_blocks = 0;    // blocks ptxas copied more than once (unrolling, peeling)
  std::int64_t loads = 0;              // loads whose use distance the SASS wait masks give
  std::int64_t functions_missing = 0;  // functions of the module the listing does not hold
  bool operator==(const SassCoverage&) const = default;
};

// Replaces the expansion table's pipes, and the PTX-order use distances and hoists, of every
// function of `module` that `listing` holds (by name), with what its SASS costs per execution:
// the SASS instructions of each PTX line, divided by the number of copies ptxas made of its
// basic block (unrolled loops), on the pipes of `compute_capability`'s opcode table; a load's
// use distance from the SASS instructions before the first that waits on its scoreboard, those
// of them that come before it in PTX order as its hoist. Call before merge_shared_loads.
SassCoverage apply_sass_costs(DecodedModule& module, const sass::Listing& listing, int compute_capability);

}  // namespace warpsim::ptx

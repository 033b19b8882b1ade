// The scheduling control bits ptxas writes into every SASS instruction of Volta and newer
// (sm_70+): stall, yield, dependency barriers and register reuse (docs/sass.md, "Control bits").
#pragma once

#include <cstdint>

namespace warpsim::sass {

struct ControlBits {
  int stall = 0;                 // cycles before the warp issues its next instruction, 0..15
  bool yield = false;            // the raw yield bit (its polarity: docs/sass.md)
  int write_barrier = -1;        // the barrier 0..5 this instruction's result releases, -1 none (7)
  int read_barrier = -1;         // the barrier 0..5 released once its sources are read, -1 none
  std::uint8_t wait_mask = 0;    // bit b: wait for barrier b before issuing (6 bits)
  std::uint8_t reuse = 0;        // operand reuse-cache flags, bit s for source slot s (4 bits)
  bool operator==(const ControlBits&) const = default;
  bool waits_on(int barrier) const { return barrier >= 0 && barrier < 6 && ((wait_mask >> barrier) & 1) != 0; }
};

// Bits 41..61 of the high 64-bit word (bits 105..125 of the 128-bit instruction), after Jia et
// al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking" (2018), and its
// Turing sequel (2019).
ControlBits decode_control(std::uint64_t high_word);

}  // namespace warpsim::sass

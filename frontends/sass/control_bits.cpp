// Jia et al. (2018, Volta; 2019, Turing), "Control information": from the high word's bit 41
// up, stall (4 bits), yield (1), write barrier (3), read barrier (3), wait mask (6), reuse (4).
// The layout is checked on ptxas's own code by tests/sass/control_bits_test.cpp: a load's
// write barrier is in the wait mask of the first instruction that reads its result.
#include "warpsim/sass/control_bits.hpp"

namespace warpsim::sass {
namespace {

int field(std::uint64_t word, int low, int bits) { return static_cast<int>((word >> low) & ((std::uint64_t{1} << bits) - 1)); }

// 7 is "no barrier"; 6 is not used by ptxas and read the same way.
int barrier(int index) { return index >= 6 ? -1 : index; }

}  // namespace

ControlBits decode_control(std::uint64_t high_word) {
  ControlBits bits;
  bits.stall = field(high_word, 41, 4);
  bits.yield = field(high_word, 45, 1) != 0;
  bits.write_barrier = barrier(field(high_word, 46, 3));
  bits.read_barrier = barrier(field(high_word, 49, 3));
  bits.wait_mask = static_cast<std::uint8_t>(field(high_word, 52, 6));
  bits.reuse = static_cast<std::uint8_t>(field(high_word, 58, 4));
  return bits;
}

}  // namespace warpsim::sass

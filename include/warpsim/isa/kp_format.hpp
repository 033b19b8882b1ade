// The .kp kernel-program text format (docs/formats.md):
//   kernel NAME        optional, before the first instruction
//   tm CYCLES          optional default t_m, before the first instruction
//   calc|load|store CYCLES
//   load|store CYCLES SPACE [sectors=N|ways=N]   for the memory-aware model (docs/formats.md)
//   bar [CYCLES]       a block barrier (__syncthreads)
//   repeat COUNT|PARAMETER ... end      nestable; `end repeat` is accepted too
//   # comments run to the end of the line
#pragma once

#include <string>
#include <string_view>

#include "warpsim/isa/program.hpp"

namespace warpsim::isa {

// Parses .kp text. `source` names it in messages. Throws InputError with the line.
Program parse_kp(std::string_view text, const std::string& source);

// Reads and parses a .kp file; the kernel is named after the file unless a `kernel` line names it.
Program load_kp_file(const std::string& path);

// Writes the program as .kp text that parse_kp reads back to the same program.
std::string to_kp(const Program& program);

}  // namespace warpsim::isa

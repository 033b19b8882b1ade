// A SASS listing as `nvdisasm -c -hex -g FILE.cubin` prints it (docs/sass.md): per function,
// its instructions with predicate, opcode, operands, the two encoded words, the decoded control
// bits, the source line of the last `//## File` marker and the registers each one writes and
// reads.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/sass/control_bits.hpp"

namespace warpsim::sass {

// General registers first .. first + count - 1 (R0..R254; RZ is never listed).
struct RegisterRange {
  int first = 0;
  int count = 1;
  bool operator==(const RegisterRange&) const = default;
  bool contains(int reg) const { return reg >= first && reg < first + count; }
};

struct Instruction {
  std::uint32_t offset = 0;   // byte offset in the function (/*0090*/)
  std::string predicate;      // "@P0", "@!PT", or "" when unpredicated
  std::string opcode;         // with its modifiers: "ISETP.GE.AND"
  std::string operands;       // the text between the opcode and ';', trimmed
  std::uint64_t low = 0;      // the first hex word (opcode and operands)
  std::uint64_t high = 0;     // the second (operands and control bits)
  ControlBits control;
  std::uint32_t ptx_line = 0;  // the line of the last `//## File` marker in this function, 0 when none
  std::vector<RegisterRange> writes, reads;                  // general registers
  std::vector<int> uniform_writes, uniform_reads;            // UR0..UR62 (URZ never listed)
  std::uint8_t predicate_writes = 0, predicate_reads = 0;    // bit p: P0..P6 (PT never listed)
  int listing_line = 0;       // 1-based line of the instruction in the listing
  // The opcode without modifiers: "ISETP".
  std::string_view base() const { return std::string_view(opcode).substr(0, opcode.find('.')); }
};

struct Function {
  std::string name;                    // the section's symbol: "_Z11sgemm_naiveiPKfS0_Pf"
  int registers = -1;                  // SHI_REGISTERS, -1 when the listing gives none
  std::vector<Instruction> code;
  std::map<std::string, std::size_t> labels;  // label -> index of the instruction after it (code.size() at the end)
  // The index where ptxas's padding starts: the final `BRA` to itself and the NOPs after it,
  // which no thread executes; code.size() when the function has none.
  std::size_t padding_start() const;
};

struct Listing {
  std::string arch;  // "sm_80", from `.target`
  std::vector<Function> functions;
  const Function* find(std::string_view name) const;  // nullptr when absent
};

// Reads nvdisasm's text. Throws InputError at the listing's line on malformed input.
Listing read_listing(std::string_view text, const std::string& file_name);

}  // namespace warpsim::sass

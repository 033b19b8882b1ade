// Where a long emulation is: reported every 2^16 warp instructions (for a progress line that
// names the loop) and carried by Interrupted (for a located error when a time limit stops it).
#pragma once

#include <cstdint>
#include <string>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

struct EmulationPlace {
  std::int64_t block_x = 0, block_y = 0, block_z = 0;  // the block (a class's first block)
  std::int64_t warp = 0;                               // the warp in its block
  Position at;            // the instruction about to run
  Position loop;          // the innermost loop: the target of the last backward branch taken (line 0: none)
  std::int64_t iterations = 0;  // that back edge, taken so many times in a row
  // Between warps: how many warp classes (or blocks) are done and known so far (0, 0: unknown).
  std::int64_t done = 0, known = 0;
};

struct DecodedModule;
// Before warp `warp` of block `block` starts: at the kernel's first instruction, `done` of `known`.
EmulationPlace place_before(const DecodedModule& module, std::uint32_t entry, std::int64_t block_x,
                            std::int64_t block_y, std::int64_t block_z, std::int64_t warp, std::int64_t done,
                            std::int64_t known);

// "warp 3 of block (4,0,0), in the loop at line 120 (iteration 93102), at line 131" (no loop
// part before the first backward branch); between warps "warp 3 of block (4,0,0), before line 40,
// after 3000 of 8192 warp classes or blocks".
std::string describe(const EmulationPlace& place);

}  // namespace warpsim::ptx

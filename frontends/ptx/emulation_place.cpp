#include "warpsim/ptx/emulation_place.hpp"

#include <algorithm>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

std::string describe(const EmulationPlace& place) {
  std::string text = "warp " + std::to_string(place.warp) + " of block (" + std::to_string(place.block_x) + "," +
                     std::to_string(place.block_y) + "," + std::to_string(place.block_z) + ")";
  if (place.loop.line > 0) {
    text += ", in the loop at line " + std::to_string(place.loop.line) + " (iteration " +
            std::to_string(place.iterations + 1) + ")";
  }
  if (place.known > 0) {
    return text + ", before line " + std::to_string(place.at.line) + ", after " + std::to_string(place.done) + " of " +
           std::to_string(place.known) + " warp classes or blocks";
  }
  return text + ", at line " + std::to_string(place.at.line);
}

EmulationPlace place_before(const DecodedModule& module, std::uint32_t entry, std::int64_t block_x,
                            std::int64_t block_y, std::int64_t block_z, std::int64_t warp, std::int64_t done,
                            std::int64_t known) {
  EmulationPlace p;
  p.block_x = block_x;
  p.block_y = block_y;
  p.block_z = block_z;
  p.warp = warp;
  const std::vector<DecodedInstruction>& code = module.functions[entry].code;
  if (!code.empty()) p.at = code.front().pos;
  p.done = done;
  p.known = std::max<std::int64_t>(known, 1);
  return p;
}

}  // namespace warpsim::ptx

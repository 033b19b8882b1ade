// What ptxas does to shared-memory loads before the GPU sees them: scalar loads of adjacent words
// from one base register become one 64- or 128-bit load (LDS.64 / LDS.128) where the address is
// provably aligned. nvcc's PTX for a tiled matrix multiply reads a row of the A tile as 16 scalar
// `ld.shared.f32 [%r+0] .. [%r+60]`; ptxas (sm_75, checked on the SASS) issues 4 LDS.128 for them.
// The merged load is one instruction with one access, priced as such (docs/ptx.md).
#pragma once

#include <cstdint>
#include <vector>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// The largest power of two that each register's value is provably a multiple of, from a
// flow-insensitive pass over every write to it (symbol addresses, shifts, products, sums).
// Capped at kAlignmentCap; 1 where nothing is known (thread indices, loaded values).
inline constexpr std::uint64_t kAlignmentCap = std::uint64_t{1} << 12;
std::vector<std::uint64_t> register_alignment(const DecodedFunction& function);

// Merges, within each basic block, groups of 4 (else 2) scalar 32-bit shared loads, or 2 64-bit
// ones, that read base + o, o + w, ... with o a multiple of the group's bytes and the base
// aligned to them, into one vector load at the first one's place. A load moves up only past
// instructions that neither write its base or destination nor read its destination, and never
// past a store, atomic, barrier, fence, call or branch. Branch targets are renumbered.
void merge_shared_loads(DecodedFunction& function);
void merge_shared_loads(DecodedModule& module);

}  // namespace warpsim::ptx

// What the warp emulator reports: each warp-level instruction it issues, with the memory access
// it makes.
#pragma once

#include <cstdint>

#include "frontends/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

enum class AccessKind : std::uint8_t { load, store, atomic };

// One warp-level memory access: which space, and how many distinct 32-byte sectors the active
// lanes touch (-1 when some address is unknown).
struct Access {
  StateSpace space = StateSpace::global;
  AccessKind kind = AccessKind::load;
  std::int32_t sectors = 0;
  bool operator==(const Access&) const = default;
};

class InstructionSink {
 public:
  virtual ~InstructionSink() = default;
  // One instruction issued by the warp; `access` is set for memory instructions (not ld.param).
  virtual void instruction(const DecodedInstruction& instruction, const Access* access) = 0;
};

}  // namespace warpsim::ptx

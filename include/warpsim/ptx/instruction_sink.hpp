// What the warp emulator reports: each warp-level instruction it issues, with the memory access
// it makes.
#pragma once

#include <cstdint>
#include <memory>

#include "warpsim/ptx/kernel_ir.hpp"
#include "warpsim/isa/program.hpp"

namespace warpsim::ptx {

enum class AccessKind : std::uint8_t { load, store, atomic };

// One warp-level memory access: its space, and what it costs the memory system in
// `transactions`, -1 when some address is unknown:
// - global, local, texture/surface: the distinct 32-byte sectors the active lanes touch;
// - shared: the bank-conflict degree (passes): over 32 banks of 4 bytes, the most distinct 4-byte
//   words the active lanes touch in one bank (lanes on one word share it; an 8- or 16-byte access
//   touches 2 or 4 words);
// - const: the distinct addresses (the 4-byte words holding each lane's first byte), which the
//   constant cache serves one after another.
// 0 when no lane is active.
struct Access {
  StateSpace space = StateSpace::global;
  AccessKind kind = AccessKind::load;
  std::int32_t transactions = 0;
  std::int32_t lines = 0;  // global, local, texture with known sectors: the distinct 128-byte lines (else 0)
  bool broadcast = false;  // shared: every active lane (more than one) touches the same single word
  isa::CacheReuse reuse;   // global, local: how the instruction re-reads data (reuse_sampler.hpp)
  // Atomics (atom, red) with every address known: the most active lanes on one address (shared:
  // also in `transactions`, where the program keeps it); global: the updates to the sample's busiest address
  // (SampledAccess::hot_updates_milli). 0 otherwise.
  std::int32_t same_address = 0;
  std::int32_t hot_updates_milli = 0;
  // Global and shared with every address known: the fewest sectors (global) or passes (shared)
  // the same lanes moving the same bytes could take, coalesced or conflict-free (explain's
  // findings price the access at it); 0 unknown.
  std::int32_t ideal = 0;
  bool operator==(const Access&) const = default;
};

// The lanes a divergent branch leaves idle while an instruction issues (explain's branch-divergence
// finding): not a guard's lanes, nor lanes that exited.
struct Divergence {
  std::int32_t idle_milli = 0;  // thousandths of the warp's live lanes off this path (0: converged)
  int branch_line = 0;          // the PTX line of the branch that split them off (0: none)
};

class InstructionSink {
 public:
  virtual ~InstructionSink() = default;
  // One instruction issued by the warp; `access` is set for memory instructions (not ld.param,
  // st.param). Block barriers arrive with no access (DecodedInstruction::block_barrier).
  virtual void instruction(const DecodedInstruction& instruction, const Access* access, Divergence divergence) = 0;
  // The items the sink holds for this warp so far (the emulator bounds it: EmulatorOptions::max_trace_items).
  virtual std::int64_t held_items() const { return 0; }
};

// A sink that can take again, in closed form, a stretch of the instructions it was given: what
// the emulator's closed-form loops need of the trace folder (trace_folder.hpp), and no more.
class RepeatableSink : public InstructionSink {
 public:
  // What the sink knows of itself at one moment, to repeat what arrives after it.
  class Mark {
   public:
    virtual ~Mark() = default;
  };
  virtual std::unique_ptr<Mark> mark() const = 0;
  // The instructions that arrived since `before` (a mark of this sink) arrive `times` more
  // times, in closed form: false, with nothing changed, where the sink cannot prove that it
  // would end exactly as if they had arrived one by one.
  virtual bool repeat_since(const Mark& before, std::int64_t times) = 0;
};

}  // namespace warpsim::ptx

// The warp emulator: runs the 32 lanes of one warp over a kernel's control flow with the real
// launch shape and kernel parameters, and reports each warp-level instruction it issues to a
// sink. Divergent lanes run one path after the other and reconverge at the branch's immediate
// post-dominator (the classic SIMT stack). Values loaded from memory are unknown; a branch on
// an unknown value follows the configured policy (docs/ptx.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontends/ptx/cfg.hpp"
#include "frontends/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

enum class UnknownBranchPolicy : std::uint8_t { fallthrough, taken };

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

struct EmulatorOptions {
  // A branch on an unknown value that leaves a loop is taken at its N-th evaluation (so such a
  // loop runs about N times); any other branch on an unknown value follows `unknown_branch`.
  std::int64_t unknown_loop_trips = 1;
  UnknownBranchPolicy unknown_branch = UnknownBranchPolicy::fallthrough;
  std::int64_t max_steps_per_warp = std::int64_t{1} << 28;  // warp instructions
};

// Where the emulator met something first, and how often.
struct OccurrenceReport {
  std::int64_t count = 0;
  Position first;
};
// Branches decided by an unknown value.
using UnknownBranchReport = OccurrenceReport;
// Generic accesses counted as global because their address does not tell the space.
using GenericAsGlobalReport = OccurrenceReport;

// Adds `later` (met after everything in `into`) to `into`.
inline void merge(OccurrenceReport& into, const OccurrenceReport& later) {
  if (later.count > 0 && into.count == 0) into.first = later.first;
  into.count += later.count;
}

class WarpEmulator {
 public:
  // `param_values[i]` is the value of kernel parameter i (std::nullopt: unknown, e.g. an
  // aggregate); pointer parameters come with their synthetic base address already.
  WarpEmulator(const DecodedModule& module, std::uint32_t entry, Dim3 grid, Dim3 block,
               std::vector<std::optional<std::uint64_t>> param_values, EmulatorOptions options);

  // Runs warp `warp` of block (bx, by, bz) to completion. Returns the warp instructions issued.
  // Throws InputError when the warp exceeds max_steps_per_warp or calls too deep.
  std::int64_t run(Dim3 block_index, std::int64_t warp, InstructionSink& sink);

  // The branches on unknown values met since the last call, and a fresh count.
  UnknownBranchReport take_unknown_branches() { return std::exchange(unknown_branches_, UnknownBranchReport{}); }
  // The generic accesses counted as global since the last call, and a fresh count.
  GenericAsGlobalReport take_generic_as_global() { return std::exchange(generic_as_global_, GenericAsGlobalReport{}); }

 private:
  // A value stored in the param space (call arguments and return values), per lane.
  struct Slot {
    std::int64_t offset = 0;
    std::array<std::uint64_t, 32> values{};
    std::uint32_t known = 0;
  };
  struct StackEntry {
    std::uint32_t pc = 0;
    std::uint32_t reconverge = 0;  // pop when pc reaches it
    std::uint32_t mask = 0;
  };
  struct Frame {
    std::uint32_t function = 0;
    std::size_t register_base = 0;  // index of register 0 in known_ (values_: times 32)
    std::uint32_t call_pc = 0;      // the caller's call instruction (frames after the first)
    std::vector<StackEntry> stack;
  };
  void start_frame(std::uint32_t function, std::uint32_t mask, std::uint32_t return_pc);
  void execute(const DecodedInstruction& in, std::uint32_t active, std::uint32_t gtrue, std::uint32_t gunknown);
  bool fast_integer_op(const DecodedInstruction& in, std::size_t base, std::uint32_t lanes, std::uint32_t executing);
  Access access_of(const DecodedInstruction& in, std::uint32_t lanes);
  void note_unknown_branch(const DecodedInstruction& in);
  void note_generic_as_global(const DecodedInstruction& in, Access& access);
  void copy_param(std::int32_t from, std::int32_t to);
  // Which of `unknown` lanes take the branch at `pc` of the current frame.
  std::uint32_t unknown_lanes_taking(std::uint32_t pc, std::uint32_t unknown);

  const DecodedModule& module_;
  std::uint32_t entry_;
  Dim3 grid_, block_;
  std::vector<std::optional<std::uint64_t>> param_values_;
  EmulatorOptions options_;
  std::vector<ControlFlowGraph> cfgs_;
  UnknownBranchReport unknown_branches_;
  GenericAsGlobalReport generic_as_global_;
  // Per-warp state, reused between warps to avoid allocation.
  Dim3 block_index_;
  std::int64_t warp_ = 0;
  std::uint32_t alive_ = 0;
  std::vector<std::uint64_t> values_;
  std::vector<std::uint32_t> known_;
  std::vector<Frame> frames_;
  std::unordered_map<std::int32_t, std::vector<Slot>> param_store_;  // by param slot id
  std::vector<std::pair<std::uint64_t, std::int64_t>> loop_exit_counts_;
  std::uint64_t alloca_top_ = 0;  // (function << 32 | pc, evaluations)
};

}  // namespace warpsim::ptx

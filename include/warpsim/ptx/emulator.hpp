// The warp emulator: runs the 32 lanes of one warp over a kernel's control flow with the real
// launch shape and kernel parameters, and reports each warp-level instruction it issues to a
// sink. Divergent lanes run one path after the other and reconverge at the branch's immediate
// post-dominator (the classic SIMT stack). Values loaded from memory are unknown; a branch on
// an unknown value follows the configured policy (docs/ptx.md).
#pragma once

#include <array>
#include <memory>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "warpsim/ptx/cfg.hpp"
#include "warpsim/ptx/emulation_place.hpp"
#include "warpsim/ptx/input_contents.hpp"
#include "warpsim/ptx/instruction_sink.hpp"
#include "warpsim/ptx/kernel_ir.hpp"
#include "warpsim/ptx/warp_program_map.hpp"

namespace warpsim::ptx {

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

enum class UnknownBranchPolicy : std::uint8_t { fallthrough, taken };

// How a class emulation narrowed its box of blocks: it goes on with child 0 of the cut (prefix
// and each cuts); a residue cut restarts every child (RestartClass).
struct ClassSplit {
  SplitKind kind = SplitKind::prefix;
  int dim = 0;
  std::int64_t parameter = 0;
};
struct RestartClass {
  ClassSplit split;
};

// Symbols a class emulation tracks values over: the block index (x, y, z) and the iteration
// of up to five nested loops run in closed form.
inline constexpr int kMaxSymbols = 8;
inline constexpr int kBlockSymbols = 3;

// How each memory instruction of the module re-reads data (reuse_sampler.hpp), by instruction:
// function index << 32 | instruction index.
// What the sample found of one memory instruction (reuse_sampler.hpp): how it re-reads data, and
// for an atomic the updates one warp access makes, on average, to the busiest address of all of
// its accesses in the sample, in thousandths.
struct SampledAccess {
  isa::CacheReuse reuse;
  std::int32_t hot_updates_milli = 0;
  bool operator==(const SampledAccess&) const = default;
};
using ReuseTable = std::unordered_map<std::uint64_t, SampledAccess>;

struct EmulatorOptions {
  // A branch on an unknown value that leaves a loop is taken at its N-th evaluation (so such a
  // loop runs about N times); any other branch on an unknown value follows `unknown_branch`.
  std::int64_t unknown_loop_trips = 1;
  UnknownBranchPolicy unknown_branch = UnknownBranchPolicy::fallthrough;
  std::int64_t max_steps_per_warp = std::int64_t{1} << 28;  // warp instructions
  // The most items a warp's sink may hold (InstructionSink::held_items), checked every 2^16
  // instructions: a stream that folds into no loops grows by about 1.1 KB an item, so this bounds
  // a warp's memory (about 1 GB) where the step limit alone would let it reach tens of GB.
  std::int64_t max_trace_items = std::int64_t{1} << 20;
  const std::atomic<bool>* cancel = nullptr;                 // stop (throw Interrupted) when set
  // Called every 2^16 warp instructions of a warp, from the thread emulating it, with where it is.
  std::function<void(const EmulationPlace&)> report_place;
  const ReuseTable* reuse = nullptr;  // when set, each global/local Access carries its instruction's reuse
  // Per kernel parameter (pointers), what its buffer holds where the user stated it (--input):
  // loads from it return those values. Set by lower_kernel from LoweringOptions::inputs.
  const std::vector<std::optional<InputContents>>* inputs = nullptr;
};

// Thrown when EmulatorOptions::cancel was set: where the emulation was, when a warp was running.
struct Interrupted {
  std::optional<EmulationPlace> place;
};

// Receives, in a concrete run, the distinct 32-byte sectors (sorted) of each global or local access
// whose addresses are all known (reuse_sampler.hpp).
class SectorObserver {
 public:
  virtual ~SectorObserver() = default;
  // `key`: the instruction's key in a ReuseTable.
  virtual void sectors(const DecodedInstruction& instruction, std::uint64_t key, std::span<const std::uint64_t> sectors) = 0;
  // An atomic (atom, red) on global memory with every active lane's address known, in lane order.
  virtual void atomic_addresses(std::uint64_t key, std::span<const std::uint64_t> addresses) {
    static_cast<void>(key), static_cast<void>(addresses);
  }
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
  ~WarpEmulator();
  WarpEmulator(WarpEmulator&&) noexcept;
  WarpEmulator& operator=(WarpEmulator&&) noexcept;

  // Runs warp `warp` of block (bx, by, bz) to completion. Returns the warp instructions issued.
  // Throws InputError when the warp exceeds max_steps_per_warp or calls too deep.
  std::int64_t run(Dim3 block_index, std::int64_t warp, InstructionSink& sink);

  // Runs warp `warp` of every block of `box` at once, as the box's first block, tracking how
  // each value varies over the box (affine in the block index, per lane). Where a decision or
  // what the warp issues could differ inside the box, the box is narrowed (`splits`, each
  // continuing with its child 0; RestartClass for a residue cut), so at the end every block
  // left in the box issues exactly this stream. Loops whose iterations provably repeat are
  // run in closed form into `folder`. Returns the warp instructions issued per block.
  std::int64_t run_class(const BlockBox& box, std::int64_t warp, RepeatableSink& folder, std::vector<ClassSplit>& splits);

  // The branches on unknown values met since the last call, and a fresh count.
  UnknownBranchReport take_unknown_branches();
  // The generic accesses counted as global since the last call, and a fresh count.
  GenericAsGlobalReport take_generic_as_global();
  // The warp instructions that closed-form loops added without executing them since the last
  // call (part of what run_class returned), and a fresh count.
  std::int64_t take_closed_form_steps();

  // For concrete runs only (a class run would report one block's sectors for the whole box).
  void observe_sectors(SectorObserver* observer);

 private:
  class Impl;  // frontends/ptx/warp_emulator_impl.hpp
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim::ptx

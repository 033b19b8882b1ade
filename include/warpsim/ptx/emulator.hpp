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
  UnknownBranchReport take_unknown_branches() { return std::exchange(unknown_branches_, UnknownBranchReport{}); }
  // The generic accesses counted as global since the last call, and a fresh count.
  GenericAsGlobalReport take_generic_as_global() { return std::exchange(generic_as_global_, GenericAsGlobalReport{}); }

  // For concrete runs only (a class run would report one block's sectors for the whole box).
  void observe_sectors(SectorObserver* observer) { sector_observer_ = observer; }

 private:
  struct StackEntry {
    std::uint32_t pc = 0;
    std::uint32_t reconverge = 0;  // pop when pc reaches it
    std::uint32_t mask = 0;
    int branch_line = 0;  // the PTX line of the divergent branch that split these lanes off (0: none)
    bool operator==(const StackEntry&) const = default;
  };
  struct Frame {
    std::uint32_t function = 0;
    std::size_t register_base = 0;  // index of register 0 in known_ (values_: times 32)
    std::uint32_t call_pc = 0;      // the caller's call instruction (frames after the first)
    std::vector<StackEntry> stack;
  };
  void start_frame(std::uint32_t function, std::uint32_t mask, std::uint32_t return_pc);
  std::int64_t run_box(const BlockBox& box, std::int64_t warp, InstructionSink& sink, RepeatableSink* folder,
                       std::vector<ClassSplit>* splits);
  void execute(const DecodedInstruction& in, std::uint32_t active, std::uint32_t gtrue, std::uint32_t gunknown);
  bool fast_integer_op(const DecodedInstruction& in, std::size_t base, std::uint32_t lanes, std::uint32_t executing);
  // An operand the lane-wide paths take (a register or an immediate, not negated), and its 32
  // lanes: a register's row in place, an immediate spread into `spread`.
  static bool plain_operand(const Arg& arg) { return !arg.negated && (arg.kind == Arg::Kind::reg || arg.kind == Arg::Kind::imm); }
  const std::uint64_t* lane_row(const Arg& arg, std::size_t base, std::array<std::uint64_t, 32>& spread) const;
  Access access_of(const DecodedInstruction& in, std::uint32_t lanes);
  Access counted_access(const DecodedInstruction& in, std::uint32_t lanes);
  // Sets the access's sectors and 128-byte lines from its distinct sectors (sorted), and shows them
  // to the observer.
  void note_sectors(const DecodedInstruction& in, std::span<const std::uint64_t> sectors, Access& access);
  // The addresses the active `lanes` of memory instruction `in` touch, in lane order: how many.
  using LaneAddresses = std::array<std::uint64_t, 32>;
  std::size_t lane_addresses(const DecodedInstruction& in, std::uint32_t lanes, LaneAddresses& out) const;
  std::uint64_t instruction_key() const;  // of the instruction being executed (ReuseTable)
  void note_unknown_branch(const DecodedInstruction& in);
  void note_generic_as_global(const DecodedInstruction& in, Access& access);
  void copy_param(std::int32_t from, std::int32_t to);
  void note_backward_branch(std::uint32_t target);
  EmulationPlace place(std::uint32_t pc) const;  // of the current frame's instruction `pc`
  // Which of `unknown` lanes take the branch at `pc` of the current frame.
  std::uint32_t unknown_lanes_taking(std::uint32_t pc, std::uint32_t unknown);

  // --- the symbolic layer (emulator_symbolic.cpp) ---
  struct Coefficients {
    std::uint32_t symbols = 0;  // symbols with a nonzero coefficient in some lane
    bool poisoned = false;      // varies over the symbols in a way not tracked (irrelevant registers only)
    std::array<std::array<std::uint64_t, 32>, kMaxSymbols> lane{};  // per index step, modulo 2^64
    bool operator==(const Coefficients&) const = default;
  };
  // A value stored in the param space (call arguments and return values), per lane, with how it
  // varies over the symbols (class runs), so an index passed to a function stays affine.
  struct Slot {
    std::int64_t offset = 0;
    std::array<std::uint64_t, 32> values{};
    std::uint32_t known = 0;
    std::optional<Coefficients> coefficients;  // of a value stored `coefficient_bits` wide
    std::uint8_t coefficient_bits = 0;
    bool operator==(const Slot&) const = default;
  };
  struct Symbol {
    bool loop = false;
    int dim = 0;              // block symbols: the grid dimension
    std::int64_t count = 1;   // indices 0 .. count-1
    // Block symbols: one step is `step` steps of the box along `dim`. A dimension split into
    // digits (reshape) has a low digit with `restart_modulus` > 0: narrowing it restarts the
    // class cut into residues modulo restart_modulus, as before the split.
    std::int64_t step = 1;
    std::int64_t restart_modulus = 0;
  };
  struct LaneForm;  // a lane's value as an integer affine form of the symbols' indices
  bool symbolic() const { return live_ != 0; }
  bool tainted(std::size_t r) const;
  const Coefficients* coefficients(std::size_t r) const;
  Coefficients& writable_coefficients(std::size_t r);
  void clear_coefficients(std::size_t r);
  void clear_frame_coefficients(std::size_t base, std::uint32_t count);
  std::uint32_t symbols_of(const Arg& a) const;
  // The lane's value read as `type` (its base value from the register, or `raw`): false when it
  // wraps around inside the box, so that it is no integer affine form there.
  bool form_of(const Arg& a, int lane, ScalarType type, LaneForm& form, const std::uint64_t* raw = nullptr) const;
  void narrow(int symbol, std::int64_t count, SplitKind kind);
  void fix(int symbol);
  void fix_all(std::uint32_t symbols);
  void residue_cut(int symbol, std::int64_t modulus);
  // Splits block symbol `symbol` (count a multiple of `modulus`) into a low digit of `modulus`
  // indices and the rest, in every coefficient kept; false when no symbol is free.
  bool reshape(int symbol, std::int64_t modulus);
  void substitute(Coefficients& c, int symbol, int digit, std::int64_t modulus) const;
  template <typename Uniform>
  void narrow_until(Uniform uniform, std::uint32_t involved);
  // Narrows the box until what `in` observes (guard, address, index, compared values) is the same in every block.
  void observe(const DecodedInstruction& in, std::uint32_t gtrue, std::uint32_t gunknown);
  void observe_access(const DecodedInstruction& in, std::uint32_t lanes);
  void force_uniform_compare(const DecodedInstruction& in, const Arg& a, const Arg& b, Compare compare,
                             ScalarType type, std::uint32_t lanes);
  static std::uint32_t nonzero_symbols(const Coefficients& c);  // symbols with a nonzero coefficient in some lane
  void capture_sources(const DecodedInstruction& in);
  void propagate(const DecodedInstruction& in, std::uint32_t executing);
  Slot* stored_param(const DecodedInstruction& in);  // the slot a param ld/st addresses, if stored
  void store_param_coefficients(const DecodedInstruction& in, std::uint32_t executing);
  bool propagate_affine(const DecodedInstruction& in, std::uint32_t lanes, Coefficients& out);
  // floor(x/d), x mod d, d floor(x/d), and x & m for a mask m below d (constant where x mod d is).
  // masked: x & m for any constant m; field: for m one run of bits (0b111000), which moves with x
  // where x's bits below the run do not.
  enum class Division : std::uint8_t { quotient, remainder, rounded_down, masked, field };
  // x is source `x_index` of `in`. Where x stays within one multiple of `period` (the divisor, or
  // a mask's lowest bit) over the box, the result is constant.
  bool propagate_division(const DecodedInstruction& in, std::size_t x_index, std::uint32_t lanes, std::uint64_t divisor,
                          std::uint64_t period, Division part, Coefficients& out);
  std::uint64_t source_value(std::size_t i, int lane) const;  // captured before the instruction ran
  void period_hint(int symbol, std::int64_t period);

  // --- loops in closed form (emulator_loops.cpp) ---
  // The state a loop iteration starts from: the current frame's relevant registers and what
  // else a warp's path depends on.
  struct LoopSnapshot {
    std::size_t depth = 0;
    std::uint32_t function = 0;
    std::vector<StackEntry> stack;
    std::uint32_t alive = 0;
    std::vector<std::uint64_t> values;  // relevant registers x 32 lanes
    std::vector<std::uint32_t> known;   // relevant registers
    std::vector<std::pair<std::uint32_t, Coefficients>> coefficients;  // (position in the relevant list, ...)
    std::unordered_map<std::int32_t, std::vector<Slot>> param_store;
    std::vector<std::pair<std::uint64_t, std::int64_t>> loop_exit_counts;
    std::uint64_t alloca_top = 0;
    std::int64_t arrival = 0;
  };
  struct LoopTracker {
    std::size_t depth = 0;
    std::uint32_t function = 0, header = 0;
    std::size_t stack_size = 0;
    std::int64_t arrivals = 0;
    std::int64_t next_attempt = 2;  // arrival at which to snapshot next
    int failures = 0;
    int period = 1;
    bool snapshotted = false;
    bool running = false;
    LoopSnapshot snapshot;
  };
  struct LoopRun {
    std::size_t tracker = 0;
    int symbol = 0;
    int arrivals = 0;
    LoopSnapshot start;
    std::vector<std::uint64_t> delta;  // per relevant register x lane: the change per iteration
    std::int64_t steps = 0;
    std::int64_t unknown_branches = 0;
    std::int64_t generic_as_global = 0;
    std::unique_ptr<RepeatableSink::Mark> folder;
  };
  void loop_arrival();
  bool take_snapshot(LoopSnapshot& s) const;
  bool start_run(std::size_t tracker);
  enum class RunEnd : std::uint8_t { jumped, soft_failure, failure };
  RunEnd end_run(LoopRun& run);
  void drop_run();
  void drop_runs_from(std::size_t depth);

  std::array<Symbol, kMaxSymbols> symbols_{};
  std::uint32_t live_ = 0;      // symbols with count > 1
  std::uint32_t allocated_ = 0; // symbols in use
  std::vector<std::int32_t> coefficient_slot_;  // per register slot (as known_): index into pool, -1 none
  std::vector<Coefficients> coefficient_pool_;
  std::vector<std::int32_t> free_slots_;
  std::vector<std::vector<bool>> relevant_;         // per function
  std::vector<std::vector<std::uint32_t>> relevant_list_;  // per function: its relevant registers
  std::vector<ClassSplit>* splits_ = nullptr;
  BlockBox box_;
  RepeatableSink* folder_ = nullptr;  // loops run in closed form only with a folder
  std::vector<LoopTracker> trackers_;
  std::vector<LoopRun> runs_;   // innermost last
  std::int64_t steps_ = 0;
  // The innermost loop so far (EmulationPlace): its header and how often in a row it was entered again.
  std::uint32_t loop_function_ = 0;
  std::uint32_t loop_header_ = kNoLoop;
  std::int64_t loop_iterations_ = 0;
  static constexpr std::uint32_t kNoLoop = ~std::uint32_t{0};
  std::array<std::array<std::uint64_t, 32>, 4> captured_{};  // source values before the instruction

  const DecodedModule& module_;
  std::uint32_t entry_;
  Dim3 grid_, block_;
  std::vector<std::optional<std::uint64_t>> param_values_;
  // An atomic's lanes on one address (Access::same_address), and its addresses for the observer.
  void note_atomic(const DecodedInstruction& in, std::uint32_t lanes, Access& access);
  // The stated buffer (options_.inputs) `address` lies in, with its offset there; null if none.
  const InputContents* stated_buffer(std::uint64_t address, std::uint64_t& offset) const;
  EmulatorOptions options_;
  std::vector<ControlFlowGraph> cfgs_;
  UnknownBranchReport unknown_branches_;
  GenericAsGlobalReport generic_as_global_;
  SectorObserver* sector_observer_ = nullptr;
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

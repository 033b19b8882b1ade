// The warp emulator's implementation (include/warpsim/ptx/emulator.hpp is its interface), private
// to the three files that define it. Its state is split by purpose: the concrete state of the warp
// being run (LaneState), the box of blocks a class run tracks values over (SymbolicBox; its
// methods in emulator_symbolic.cpp) and the loops run in closed form (LoopAccelerator;
// emulator_loops.cpp). What every warp shares (the module, the launch, the options, the reports)
// is the Impl's own; the interpreter, SIMT stack and accesses are in emulator.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "warpsim/ptx/emulator.hpp"

namespace warpsim::ptx {

class WarpEmulator::Impl {
 public:
  Impl(const DecodedModule& module, std::uint32_t entry, Dim3 grid, Dim3 block,
       std::vector<std::optional<std::uint64_t>> param_values, EmulatorOptions options);
  std::int64_t run(Dim3 block_index, std::int64_t warp, InstructionSink& sink);
  std::int64_t run_class(const BlockBox& box, std::int64_t warp, RepeatableSink& folder, std::vector<ClassSplit>& splits);
  UnknownBranchReport take_unknown_branches() { return std::exchange(unknown_branches_, UnknownBranchReport{}); }
  GenericAsGlobalReport take_generic_as_global() { return std::exchange(generic_as_global_, GenericAsGlobalReport{}); }
  std::int64_t take_closed_form_steps() { return std::exchange(closed_form_steps_, 0); }
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
  bool symbolic() const { return symbolic_.live != 0; }
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

  // An atomic's lanes on one address (Access::same_address), and its addresses for the observer.
  void note_atomic(const DecodedInstruction& in, std::uint32_t lanes, Access& access);
  // The stated buffer (options_.inputs) `address` lies in, with its offset there; null if none.
  const InputContents* stated_buffer(std::uint64_t address, std::uint64_t& offset) const;

  static constexpr std::uint32_t kNoLoop = ~std::uint32_t{0};

  // The warp being run: its lanes' registers, SIMT stacks and param slots; reused between warps
  // so that a warp allocates nothing once warm.
  struct LaneState {
    Dim3 block_index;
    std::int64_t warp = 0;
    std::uint32_t alive = 0;
    std::vector<std::uint64_t> values;  // register slot x 32 lanes
    std::vector<std::uint32_t> known;   // per register slot: the lanes whose value is known
    std::vector<Frame> frames;
    std::unordered_map<std::int32_t, std::vector<Slot>> param_store;  // by param slot id
    std::vector<std::pair<std::uint64_t, std::int64_t>> loop_exit_counts;  // (function << 32 | pc, evaluations)
    std::uint64_t alloca_top = 0;
    std::int64_t steps = 0;  // warp instructions issued
    // The innermost loop so far (EmulationPlace): its header and how often in a row it was entered again.
    std::uint32_t loop_function = 0;
    std::uint32_t loop_header = kNoLoop;
    std::int64_t loop_iterations = 0;
  };
  // A class run's box of blocks and how each register varies over its symbols (the block index,
  // and the iterations of loops run in closed form).
  struct SymbolicBox {
    std::array<Symbol, kMaxSymbols> symbols{};
    std::uint32_t live = 0;       // symbols with count > 1
    std::uint32_t allocated = 0;  // symbols in use
    std::vector<std::int32_t> coefficient_slot;  // per register slot (as LaneState::known): index into pool, -1 none
    std::vector<Coefficients> coefficient_pool;
    std::vector<std::int32_t> free_slots;
    std::vector<ClassSplit>* splits = nullptr;
    BlockBox box;
    std::array<std::array<std::uint64_t, 32>, 4> captured{};  // source values before the instruction
  };
  // Loops whose iterations provably repeat, run in closed form into the folder.
  struct LoopAccelerator {
    RepeatableSink* folder = nullptr;  // loops run in closed form only with a folder
    std::vector<LoopTracker> trackers;
    std::vector<LoopRun> runs;  // innermost last
  };

  const DecodedModule& module_;
  std::uint32_t entry_;
  Dim3 grid_, block_;
  std::vector<std::optional<std::uint64_t>> param_values_;
  EmulatorOptions options_;
  std::vector<ControlFlowGraph> cfgs_;
  std::vector<std::vector<bool>> relevant_;                // per function
  std::vector<std::vector<std::uint32_t>> relevant_list_;  // per function: its relevant registers
  UnknownBranchReport unknown_branches_;
  GenericAsGlobalReport generic_as_global_;
  std::int64_t closed_form_steps_ = 0;  // warp instructions added by closed-form loops, not executed
  SectorObserver* sector_observer_ = nullptr;
  LaneState lanes_;
  SymbolicBox symbolic_;
  LoopAccelerator loops_;
};

}  // namespace warpsim::ptx

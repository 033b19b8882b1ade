// A kernel program (MODEL.md section 1): calc/load/store instructions with durations, and loop
// segments `repeat COUNT ... end`. Loops are kept as segments in one flat list, never expanded,
// so a loop of 2^20 iterations costs two list entries.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/isa/pipes.hpp"
#include "warpsim/isa/time.hpp"

namespace warpsim::isa {

// barrier: `bar.sync` / __syncthreads (docs/model.md#barriers); a calc of its duration under the
// paper's model.
enum class OpKind : std::uint8_t { calc, load, store, barrier, repeat, end };

inline bool is_instruction(OpKind kind) { return kind <= OpKind::barrier; }
inline bool is_memory(OpKind kind) { return kind == OpKind::load || kind == OpKind::store; }
const char* to_string(OpKind kind);

// Where a memory instruction goes, for the memory-aware model. `unspecified` is the paper's
// unannotated load/store; the paper's model times `global` ones the same way and every other space
// as a calc of the instruction's duration (its rule: calc periods end only at global accesses).
enum class MemorySpace : std::uint8_t { unspecified, global, local, shared, constant, texture };
const char* to_string(MemorySpace space);
// "global", ...; nullopt for any other word.
std::optional<MemorySpace> memory_space_named(std::string_view word);
// Shared and constant accesses are priced by `ways` (passes: bank-conflict degree, or distinct
// addresses); the others by 32-byte `sectors`.
inline bool counts_ways(MemorySpace space) { return space == MemorySpace::shared || space == MemorySpace::constant; }
// The fewest 128-byte lines `sectors` 32-byte sectors fit in.
inline std::int32_t fewest_lines(std::int32_t sectors) { return (sectors + 3) / 4; }

// How a global, local or texture access re-reads data the launch touched shortly before
// (docs/model.md, "Caches"): the fraction of its sectors, in thousandths, that were touched
// earlier, and the median reuse distance of those, in bytes touched in between per resident block
// (an LRU stack distance). The memory-aware model turns it into a cache hit rate on each GPU.
struct CacheReuse {
  std::int32_t permille = 0;       // [0, 1000]
  std::int64_t distance_bytes = 0;  // [0, kMaxReuseDistance]
  bool operator==(const CacheReuse&) const = default;
};
inline constexpr std::int64_t kMaxReuseDistance = std::int64_t{1} << 50;

struct Op {
  OpKind kind = OpKind::calc;
  Millicycles duration = 0;     // instructions: > 0
  std::int64_t count = 0;       // repeat: iterations, once bound
  std::string count_parameter;  // repeat: parameter name, empty when the count is literal
  std::uint32_t partner = 0;    // repeat <-> its end, as indices into ops()
  int line = 0;                 // source line, 0 when built in code
  MemorySpace space = MemorySpace::unspecified;  // load/store
  std::int32_t transactions = 0;  // load/store with a space: sectors or ways (counts_ways); 0 unknown; kNoLanes none
  std::int32_t lines = 0;         // load/store in a sector-counted space: distinct 128-byte lines; 0: ceil(sectors / 4)
  CacheReuse reuse;               // load/store in a sector-counted space
  std::uint32_t mix = 0;          // calc: 1 + its CalcMix's index in Program::mixes(); 0 none
  std::int32_t use_distance = -1;  // load: instructions issued before the first use of its value; -1 unknown
  std::int32_t hoist = 0;          // load with a use distance: instructions before it it could issue ahead of
  bool asynchronous = false;       // load: a copy to shared memory (cp.async) whose use is its wait, not a register read
  // Atomics (atom, red) in a sector-counted space: the most lanes of the warp on one address
  // (they update it one after another; 0: not an atomic, or unknown), and the updates it makes,
  // on average, to the launch's busiest address, in thousandths (serialised there with every
  // other warp's; 0: none known).
  std::int32_t same_address = 0;
  std::int32_t hot_updates_milli = 0;

  bool same_meaning(const Op& other) const;  // equal, ignoring source lines
  // Whether the paper's model times it as a memory instruction (else as a calc of its duration).
  bool is_paper_memory() const {
    return is_memory(kind) && (space == MemorySpace::unspecified || space == MemorySpace::global);
  }
};

using ParameterValues = std::map<std::string, std::int64_t, std::less<>>;

// Dynamic counts with every loop multiplied out (a bound program).
struct DynamicCounts {
  std::int64_t instructions = 0;
  std::int64_t calcs = 0;  // calc and bar instructions: the paper times a barrier as a calc
  std::int64_t loads = 0;
  std::int64_t stores = 0;
  Millicycles calc_time = 0;
  Millicycles memory_duration = 0;  // sum of load and store durations
};

inline constexpr int kMaxLoopDepth = 64;
inline constexpr std::int64_t kMaxLoopCount = std::int64_t{1} << 40;
inline constexpr std::int32_t kMaxTransactions = std::int32_t{1} << 30;
// Op::transactions of an access no lane made (all predicated off): it issues, but moves no data
// (`sectors=0` / `ways=0` in a .kp file).
inline constexpr std::int32_t kNoLanes = -1;

class Program {
 public:
  Program() = default;
  Program(std::string name, std::string source) : name_(std::move(name)), source_(std::move(source)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  // The file the program came from, for messages; empty when built in code.
  const std::string& source() const { return source_; }
  // A default t_m carried by the program (`tm` line of a .kp file).
  const std::optional<Millicycles>& default_tm() const { return default_tm_; }
  void set_default_tm(std::optional<Millicycles> tm) { default_tm_ = tm; }

  // Building, in program order. Each throws InputError (at `line`) on a malformed program.
  void add(OpKind kind, Millicycles duration, int line = 0);
  // A load or store annotated for the memory-aware model: its space and its sectors or ways
  // (0: unknown; kNoLanes: no lane active), and for sector-counted spaces how it re-reads data and the 128-byte lines its
  // sectors lie in (0: as few as they fit, ceil(sectors / 4)).
  void add_access(OpKind kind, Millicycles duration, MemorySpace space, std::int32_t transactions, int line = 0,
                  CacheReuse reuse = {}, std::int32_t lines = 0);
  // A calc with its pipe mix for the pipes model (which times a calc without one by its
  // duration; an empty mix, issue 0, takes no time there: the +9 of the paper's calc period).
  // Throws for a count outside [0, kMaxMixCount] or pipe work without an issue.
  void add_calc(Millicycles duration, const CalcMix& mix, int line = 0);
  // The last op, a load, issues `instructions` more before its value is first used, and could
  // issue `hoist` instructions earlier than where it stands (as ptxas schedules loads).
  void set_use_distance(std::int32_t instructions, std::int32_t hoist = 0, int line = 0);
  // The last op, a load, is an asynchronous copy (cp.async, `async` in a .kp file): the warp goes
  // on past it, and its use distance counts the instructions up to its wait (cp.async.wait_group).
  void set_asynchronous(int line = 0);
  // The last op, a global, local or tex load or store, is an atomic: `same` lanes on its busiest
  // address (>= 1), `hot_milli` thousandths of an update to the launch's busiest (0 to 32000).
  void set_atomic(std::int32_t same, std::int32_t hot_milli, int line = 0);
  void begin_repeat(std::int64_t count, int line = 0);
  void begin_repeat(std::string parameter, int line = 0);
  void end_repeat(int line = 0);
  // Checks that every repeat is closed; call once when building is done.
  void finish(int line = 0);

  const std::vector<Op>& ops() const { return ops_; }
  // The mix of a calc op, or null.
  const CalcMix* mix_of(const Op& op) const { return op.mix == 0 ? nullptr : &mixes_[op.mix - 1]; }
  std::span<const CalcMix> mixes() const { return mixes_; }
  bool has_mixes() const { return !mixes_.empty(); }
  bool empty() const { return ops_.empty(); }
  int max_loop_depth() const { return max_loop_depth_; }
  // The largest literal or bound repeat count (0 without loops).
  std::int64_t max_loop_count() const;
  // Parameter names used as loop counts, sorted, each once.
  std::vector<std::string> parameters() const;
  bool is_bound() const;
  // Whether any instruction carries what only the memory-aware model reads (a space, a barrier).
  bool has_memory_annotations() const { return annotated_; }

  // A copy with every parameter replaced by its value. Throws InputError for a parameter without
  // a value, a value given for a name the program does not use, and negative or huge counts.
  Program bind(const ParameterValues& values) const;

  // Requires a bound program. Throws InputError when a count overflows 64 bits.
  DynamicCounts dynamic_counts() const;

  bool same_meaning(const Program& other) const;

  // A copy whose memory instructions (numbered 0, 1, ... in program order) take the duration
  // `choose` gives them, else their own. Every other field of every op is copied as it is, so a
  // re-timing cannot forget an annotation (spaces, sectors, lines, reuse, and whatever comes next).
  // Throws InputError (at the op's line) for a duration that is not positive.
  Program with_memory_durations(
      const std::function<std::optional<Millicycles>(std::size_t index, const Op& op)>& choose) const;

  // A copy in which `edit` may change each op (numbered 0, 1, ... as in ops()) and, for a calc
  // with a pipe mix, that mix: explain's findings time the kernel with one cause removed. Loops
  // and counts must stay, and kinds but one way: a load or store made a calc (the value kept in a
  // register: a one-issue move timed by its duration) loses its memory fields. Throws InputError
  // (at the op's line) for other kind changes and for sectors, ways or mix counts out of range.
  Program with_ops_edited(const std::function<void(std::size_t index, Op& op, CalcMix* mix)>& edit) const;

  // Everything a timing model reads of a bound program, exactly, as integers: each op's kind,
  // duration, count, space, transactions, lines, reuse, use distance and mix (not names, sources
  // or source lines).
  // Equal identities time the same under every model: caches key on it (never on an address).
  std::vector<std::int64_t> timing_identity() const;

 private:
  [[noreturn]] void fail(int line, const std::string& what) const;
  void push_repeat(Op op);

  std::string name_;
  std::string source_;
  std::optional<Millicycles> default_tm_;
  std::vector<Op> ops_;
  std::vector<CalcMix> mixes_;
  std::vector<std::uint32_t> open_repeats_;
  int max_loop_depth_ = 0;
  bool annotated_ = false;
};

}  // namespace warpsim::isa

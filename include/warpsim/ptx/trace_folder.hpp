// Folds the instruction stream of one warp into calc runs, memory instructions, barriers and
// loops. Every memory access (but ld.param/st.param) is an item of its own, with its space and
// transactions, and so is every block barrier; the instructions between them are calc items.
// The paper's timing (section 5.3) is kept: its calc period, a maximal run of n instructions
// without a global access, lasts n + 9 cycles; here each instruction of a period lasts 1 cycle
// (a calc item its count, a non-global access or a barrier 1) and the period's first item
// carries the +9 (`opens_period`: a calc item, or a calc item of 0 instructions put before a
// period that opens with an access or a barrier). Repeated runs of items become loops as they
// arrive, so a loop of 2^20 iterations costs the same memory as one iteration. Folding is greedy
// and exact: the folded form always expands to the stream it was given.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "warpsim/isa/pipes.hpp"
#include "warpsim/ptx/instruction_sink.hpp"

namespace warpsim::ptx {

// How many of an item's instructions are on one PTX line (`warpsim explain`'s hot lines).
struct LineCount {
  int line = 0;
  std::int64_t instructions = 0;
  std::int64_t idle_milli = 0;  // over its instructions: thousandths of the live lanes divergence left idle
  int branch_line = 0;          // the PTX line of the divergent branch that left them idle (the latest; 0: none)
  bool operator==(const LineCount&) const = default;
};

struct TraceItem {
  enum class Kind : std::uint8_t { calc, load, store, barrier, loop };
  Kind kind = Kind::calc;
  bool opens_period = false;       // calc: the first item of a paper calc period (it adds 9 cycles)
  bool broadcast = false;          // load/store: Access::broadcast
  StateSpace space = StateSpace::global;  // load/store
  std::int32_t transactions = 0;   // load/store: Access::transactions (-1 unknown)
  std::int32_t lines = 0;          // load/store: Access::lines
  isa::CacheReuse reuse;           // load/store: Access::reuse
  std::int64_t count = 0;          // calc: instructions; loop: iterations
  isa::CalcMix mix;                // calc: the pipes of its instructions and its longest dependent chain
  std::int32_t use_distance = -1;  // load: DecodedInstruction::use_distance
  std::int32_t hoist = 0;          // load: DecodedInstruction::hoist
  bool asynchronous = false;       // load: a cp.async copy (isa::Op::asynchronous)
  std::int32_t same_address = 0;   // load/store: Access::same_address
  std::int32_t hot_updates_milli = 0;  // load/store: Access::hot_updates_milli
  std::int32_t ideal = 0;          // load/store: Access::ideal
  std::vector<TraceItem> body;     // loop
  std::size_t hash = 0;
  // The PTX lines of its instructions, not part of its identity (an item folded into a loop keeps
  // the first iteration's lines): a calc's in line order; a load, store or barrier's one line
  // (no allocation for the commonest items).
  std::vector<LineCount> source;
  int line = 0;

  bool operator==(const TraceItem& other) const;
  bool same_except_hash(const TraceItem& other) const;  // for an arriving item, not yet hashed
};

class TraceFolder final : public RepeatableSink {
 public:
  void instruction(const DecodedInstruction& instruction, const Access* access, Divergence divergence) override;
  std::int64_t held_items() const override { return static_cast<std::int64_t>(items_.size()); }
  // The folded stream; the folder is empty afterwards and can take the next warp.
  std::vector<TraceItem> finish();

  // What repeating a stretch of the stream needs to know of the folder before it.
  struct Signature : Mark {
    struct Item {
      std::size_t hash = 0;
      std::size_t body_hash = 0;  // loops
      std::int64_t count = 0;     // loops: iterations (0 for other items)
    };
    std::vector<Item> items;  // the top-level items
    std::vector<std::pair<std::size_t, std::int64_t>> cursor;  // TraceFolder::cursor_'s (index, iteration)
    std::int64_t pending_calc = 0;
    isa::CalcMix pending_mix;
    std::vector<LineCount> pending_source;
    isa::PipeCounts segment_path{};
    std::int64_t segment_length = 0;
    bool in_period = false;
  };
  Signature signature() const;
  std::unique_ptr<Mark> mark() const override { return std::make_unique<Signature>(signature()); }
  // The instructions that arrived since `before` was taken arrive `times` more times: done in
  // closed form when the folder provably ends exactly as it would have (the stretch started and
  // ended inside a paper period or outside one alike, and only added to the pending calc run, or
  // only raised the count of one loop, whose count nothing else can be compared with). False,
  // with nothing changed, otherwise.
  bool repeat_since(const Mark& before, std::int64_t times) override;

 private:
  void flush_calc();
  // An access or barrier inside a paper period: the period's +9 goes before it if it opens one.
  void push_in_period(TraceItem&& item);
  void push(TraceItem&& item);
  void append(TraceItem&& item);
  // Matching arriving items against the next iteration of items_.back() (a loop), item by item
  // of its body's expansion, into nested loops too (those of at most kMaxMatchedExpansion items):
  // true when `item` is the next one. The cursor is then one further, or, at the body's end, the
  // loop has one more iteration.
  bool match_next(const TraceItem& item);
  // The items matched so far, expanded, in arrival order.
  std::vector<TraceItem> matched_items() const;
  // A mismatch (or the warp's end): the matched items become plain items again, in order.
  void put_back_matched();
  struct MatchFrame {
    const std::vector<TraceItem>* body = nullptr;  // the items of this level's loop (heap storage: stable)
    std::int64_t count = 0;                        // that loop's iterations (nested levels)
    std::size_t index = 0;                         // the body item expected next
    std::int64_t iteration = 0;                    // the iterations of this level's loop done (nested levels)
  };
  bool fold_tail();

  // The pending calc run's instructions for the pipes model: their pipes, and its dependency
  // chain: the run is cut into segments where control flows backwards (a loop's next iteration),
  // and the chain is the sum over its segments of each one's longest chain of dependent
  // instructions through the registers the segment wrote. A loop's iterations thus add their
  // chains (exact for a chain carried from one iteration to the next, which a warp's in-order
  // issue mostly serialises anyway), and repeating a stretch of iterations adds exactly what it
  // added before, which keeps closed-form loops (repeat_since) equal to emulating them.
  // run_ tells the current segment's register entries from older ones: no clearing.
  void add_to_run(const DecodedInstruction& instruction, Divergence divergence);
  void close_segment();
  // The longest chain into a register. Its path (the instructions of each pipe along it) lies in
  // paths_, so that an instruction copies a register's chain in 16 bytes, not 136.
  struct RegisterChain {
    std::uint32_t run = 0;
    std::uint32_t path = 0;   // in paths_ (valid while run == run_)
    std::int64_t length = 0;  // nominal latency, to choose the longest path (trace_folder.cpp)
  };

  std::int64_t pending_calc_ = 0;
  isa::CalcMix pending_mix_;
  // The pending calc run's lines: the first pending_sorted_ in line order, one entry a line; the
  // rest in arrival order (tally_line). Put in order (sort_pending_source) wherever they are read.
  mutable std::vector<LineCount> pending_source_;
  mutable std::size_t pending_sorted_ = 0;
  void tally_line(int line, std::int64_t idle_milli, int branch_line);  // one instruction at `line`
  void sort_pending_source() const;
  std::vector<LineCount> spare_source_;    // storage for the next run's lines (from a matched item)
  std::vector<isa::PipeCounts> paths_{isa::PipeCounts{}};  // the current segment's chain paths; paths_[0] is empty
  std::uint32_t segment_path_ = 0;  // the current segment's longest chain, in paths_
  std::int64_t segment_length_ = 0;
  std::pair<int, int> last_position_{};  // line, column of the run's latest instruction
  bool in_segment_ = false;
  std::vector<RegisterChain> chains_;
  std::uint32_t run_ = 1;
  bool in_period_ = false;  // an item of the current paper period was pushed (it carried the +9)
  std::vector<TraceItem> items_;
  // Where the items seen of the next iteration of items_.back() (a loop) have reached: one frame
  // per loop level entered, outermost first; empty when none was seen.
  std::vector<MatchFrame> cursor_;
  // A polynomial hash of each prefix of items_ (prefix_[i]: items 0 .. i-1), valid for the first
  // prefix_valid_ items, so that fold_tail rejects two unequal runs of items in O(1) rather than
  // comparing them item by item (a stream of many equal items made that most of the lowering).
  // fold_tail scans these compact copies of each item's hash and loop body size (0: not a loop),
  // not the items themselves.
  void changed_from(std::size_t index) { prefix_valid_ = std::min(prefix_valid_, index); }
  void sync_tail_index();
  std::uint64_t run_hash(std::size_t begin, std::size_t length) const;  // of items begin .. begin+length-1
  std::vector<std::uint64_t> prefix_{0};
  std::vector<std::size_t> hashes_;
  std::vector<std::size_t> body_sizes_;
  std::size_t prefix_valid_ = 0;
  // Where each pair of items (by their hashes: item i-1 and item i, at i) is, and where the loops
  // are, in increasing order: fold_tail visits only the candidates, not every position of its
  // window. Entries at or after an item that changed are dropped as the index is brought up to
  // date; an earlier item whose hash changed is told by hashes_.
  std::unordered_map<std::size_t, std::vector<std::size_t>> positions_by_pair_;
  std::size_t pair_key(std::size_t i) const;  // of items i-1 and i (i >= 1)
  std::vector<std::size_t> loop_positions_;
};

// Hash of an item from its fields and its body's hashes.
void rehash(TraceItem& item);

}  // namespace warpsim::ptx

// Folds the instruction stream of one warp into calc periods, memory instructions and loops.
// Calc periods follow the paper's rule (section 5.3): a maximal run of instructions without a
// global load or store is one period. Repeated runs of items become loops as they arrive, so a
// loop of 2^20 iterations costs the same memory as one iteration. Folding is greedy and exact:
// the folded form always expands to the stream it was given.
#pragma once

#include <cstdint>
#include <vector>

#include "frontends/ptx/instruction_sink.hpp"

namespace warpsim::ptx {

// Equal accesses of a calc period counted together, in order of first appearance, so a loop of
// shared-memory accesses keeps one entry per distinct access whatever its trip count.
struct AccessCount {
  Access access;
  std::int64_t count = 0;
  bool operator==(const AccessCount&) const = default;
};

// Adds `times` x `access` to a list of counted accesses.
void add_access(std::vector<AccessCount>& accesses, const Access& access, std::int64_t times = 1);

struct TraceItem {
  enum class Kind : std::uint8_t { calc, load, store, loop };
  Kind kind = Kind::calc;
  std::int64_t count = 0;         // calc: instructions; loop: iterations
  std::int32_t sectors = 0;       // load/store: 32-byte sectors touched, -1 when unknown
  std::vector<AccessCount> accesses;  // calc: shared/local/const/texture accesses inside the period
  std::vector<TraceItem> body;    // loop
  std::size_t hash = 0;

  bool operator==(const TraceItem& other) const;
};

class TraceFolder final : public InstructionSink {
 public:
  void instruction(const DecodedInstruction& instruction, const Access* access) override;
  // The folded stream; the folder is empty afterwards and can take the next warp.
  std::vector<TraceItem> finish();

  // What repeating a stretch of the stream needs to know of the folder before it.
  struct Signature {
    struct Item {
      std::size_t hash = 0;
      std::size_t body_hash = 0;  // loops
      std::int64_t count = 0;     // loops: iterations (0 for other items)
    };
    std::vector<Item> items;  // the top-level items
    std::size_t matched = 0;
    std::int64_t pending_calc = 0;
    std::vector<AccessCount> pending_accesses;
  };
  Signature signature() const;
  // The instructions that arrived since `before` was taken arrive `times` more times: done in
  // closed form when the folder provably ends exactly as it would have (the stretch only added
  // to the pending calc period, or only raised the count of one loop, whose count nothing else
  // can be compared with). False, with nothing changed, otherwise.
  bool repeat_since(const Signature& before, std::int64_t times);

 private:
  void flush_calc();
  void push(TraceItem item);
  void append(TraceItem item);
  bool fold_tail();

  std::int64_t pending_calc_ = 0;
  std::vector<AccessCount> pending_accesses_;
  std::vector<TraceItem> items_;
  std::size_t matched_ = 0;  // items of the next iteration of items_.back() (a loop) seen so far
};

// Hash of an item from its fields and its body's hashes.
void rehash(TraceItem& item);

}  // namespace warpsim::ptx

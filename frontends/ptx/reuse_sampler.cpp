#include "warpsim/ptx/reuse_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace warpsim::ptx {
namespace {

struct SectorTouch {
  std::int64_t position = 0;  // the warp's instructions before this one
  std::int64_t warp = 0;      // among the sampled warps
  std::uint64_t instruction = 0;  // ReuseTable key
  std::uint64_t sector = 0;
};

struct BudgetSpent {};

// Records one warp's sectors, and stops the warp (BudgetSpent) once it has used its share.
class TouchRecorder final : public InstructionSink, public SectorObserver {
 public:
  TouchRecorder(std::vector<SectorTouch>& touches, std::int64_t max_instructions, std::int64_t max_sectors)
      : touches_(touches), max_instructions_(max_instructions), max_sectors_(max_sectors) {}

  void start_warp(std::int64_t warp) {
    warp_ = warp;
    position_ = 0;
    sectors_ = 0;
  }
  void instruction(const DecodedInstruction&, const Access*, Divergence) override {
    if (++position_ >= max_instructions_ || sectors_ >= max_sectors_) throw BudgetSpent{};
  }
  void sectors(const DecodedInstruction&, std::uint64_t key, std::span<const std::uint64_t> sectors) override {
    for (const std::uint64_t s : sectors) touches_.push_back(SectorTouch{position_, warp_, key, s});
    sectors_ += static_cast<std::int64_t>(sectors.size());
  }
  void atomic_addresses(std::uint64_t key, std::span<const std::uint64_t> addresses) override {
    AtomicUpdates& a = atomics_[key];
    ++a.accesses;
    for (const std::uint64_t address : addresses) a.per_address[address] += 1;
  }

  // Per atomic instruction: its warp accesses in the sample, and its lanes' updates per address.
  struct AtomicUpdates {
    std::int64_t accesses = 0;
    std::unordered_map<std::uint64_t, std::int64_t> per_address;
  };
  const std::unordered_map<std::uint64_t, AtomicUpdates>& atomics() const { return atomics_; }

 private:
  std::vector<SectorTouch>& touches_;
  std::int64_t max_instructions_;
  std::int64_t max_sectors_;
  std::unordered_map<std::uint64_t, AtomicUpdates> atomics_;
  std::int64_t warp_ = 0;
  std::int64_t position_ = 0;
  std::int64_t sectors_ = 0;
};

// A Fenwick tree of 0/1 marks over times: which touch is, so far, the last of its sector.
class LastTouchMarks {
 public:
  explicit LastTouchMarks(std::size_t size) : tree_(size + 1, 0) {}
  void add(std::size_t at, int delta) {
    for (std::size_t i = at + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
  }
  std::int64_t before(std::size_t at) const {  // marks in [0, at)
    std::int64_t sum = 0;
    for (std::size_t i = at; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  }

 private:
  std::vector<std::int64_t> tree_;
};

struct InstructionReuse {
  std::int64_t sectors = 0;
  std::vector<std::int64_t> distances;  // of the sectors touched before
};

}  // namespace

std::vector<std::int64_t> stack_distances(const std::vector<std::uint64_t>& sectors) {
  std::vector<std::int64_t> distances(sectors.size(), -1);
  LastTouchMarks marks(sectors.size());
  std::unordered_map<std::uint64_t, std::size_t> last_touch;
  last_touch.reserve(sectors.size());
  for (std::size_t t = 0; t < sectors.size(); ++t) {
    const auto [it, first] = last_touch.try_emplace(sectors[t], t);
    if (!first) {
      distances[t] = marks.before(t) - marks.before(it->second + 1);
      marks.add(it->second, -1);
      it->second = t;
    }
    marks.add(t, 1);
  }
  return distances;
}

ReuseTable sample_reuse(const DecodedModule& decoded, std::uint32_t entry, Dim3 grid, Dim3 block,
                        const std::vector<std::optional<std::uint64_t>>& values, const EmulatorOptions& options,
                        const ReuseSampling& sampling) {
  const std::int64_t blocks = std::min(grid.count(), sampling.blocks);
  const std::int64_t warps_per_block = (block.count() + 31) / 32;
  const std::int64_t warps = blocks * warps_per_block;
  if (warps <= 0) return {};
  EmulatorOptions concrete = options;
  concrete.reuse = nullptr;
  WarpEmulator emulator(decoded, entry, grid, block, values, concrete);
  std::vector<SectorTouch> touches;
  TouchRecorder recorder(touches, std::max(sampling.min_instructions_per_warp, sampling.max_instructions / warps),
                         std::max<std::int64_t>(32, sampling.max_sectors / warps));
  emulator.observe_sectors(&recorder);
  for (std::int64_t b = 0; b < blocks; ++b) {
    const Dim3 index{b % grid.x, b / grid.x % grid.y, b / (grid.x * grid.y)};
    for (std::int64_t w = 0; w < warps_per_block; ++w) {
      recorder.start_warp(b * warps_per_block + w);
      try {
        emulator.run(index, w, recorder);
      } catch (const BudgetSpent&) {
        // The warp's share of the budget is spent: what it touched so far is the sample.
      }
    }
  }
  // Lockstep: all the warps' n-th instructions, warp by warp, before any (n+1)-th.
  std::stable_sort(touches.begin(), touches.end(), [](const SectorTouch& a, const SectorTouch& b) {
    return a.position != b.position ? a.position < b.position : a.warp < b.warp;
  });
  std::vector<std::uint64_t> sectors(touches.size());
  for (std::size_t i = 0; i < touches.size(); ++i) sectors[i] = touches[i].sector;
  const std::vector<std::int64_t> distances = stack_distances(sectors);

  std::unordered_map<std::uint64_t, InstructionReuse> per_instruction;
  for (std::size_t i = 0; i < touches.size(); ++i) {
    InstructionReuse& r = per_instruction[touches[i].instruction];
    ++r.sectors;
    if (distances[i] >= 0) r.distances.push_back(distances[i]);
  }
  ReuseTable table;
  for (auto& [instruction, r] : per_instruction) {
    isa::CacheReuse reuse;
    reuse.permille = static_cast<std::int32_t>(std::llround(1000.0 * static_cast<double>(r.distances.size()) /
                                                            static_cast<double>(r.sectors)));
    if (!r.distances.empty()) {
      const auto middle = r.distances.begin() + static_cast<std::ptrdiff_t>(r.distances.size() / 2);
      std::nth_element(r.distances.begin(), middle, r.distances.end());
      // Bytes per sampled block: the blocks resident on a GPU scale it back (cache_hit_rate).
      reuse.distance_bytes = std::min(isa::kMaxReuseDistance, (*middle * 32 + blocks / 2) / blocks);
    }
    if (reuse != isa::CacheReuse{}) table[instruction].reuse = reuse;
  }
  // An atomic's updates to its busiest address per warp access: what each access adds to the queue
  // there (the lanes of every sampled warp on one address update it one after another).
  for (const auto& [instruction, a] : recorder.atomics()) {
    std::int64_t busiest = 0;
    for (const auto& [address, updates] : a.per_address) busiest = std::max(busiest, updates);
    table[instruction].hot_updates_milli =
        static_cast<std::int32_t>(std::min<std::int64_t>(32'000, (busiest * 1000 + a.accesses / 2) / a.accesses));
  }
  return table;
}

}  // namespace warpsim::ptx

#include "warpsim/workload/core_time_cache.hpp"

#include <algorithm>
#include <atomic>
#include <unordered_map>

namespace warpsim::sim::workload {
namespace {

struct KeyHash {
  std::size_t operator()(const CoreTimeKey& key) const {
    std::size_t h = key.size();
    for (const std::int64_t v : key) h = (h ^ static_cast<std::size_t>(v)) * 0x100000001b3ULL + (h >> 29);
    return h;
  }
};

bool before(const std::pair<std::int64_t, isa::Millicycles>& entry, std::int64_t warps) { return entry.first < warps; }

}  // namespace

struct CoreTimeCache::Impl {
  // Programs are looked up once per prepared program or per point, so one lock is enough here;
  // the per-warp-count lookups that follow take none up to ProgramTimes::kDirectWarps, and only
  // their entry's lock beyond.
  std::mutex mutex;
  std::unordered_map<CoreTimeKey, ProgramTimes, KeyHash> programs;  // entries never move
  std::atomic<std::int64_t> hits{0};
  std::atomic<std::int64_t> misses{0};
};

CoreTimeCache::CoreTimeCache() : impl_(std::make_unique<Impl>()) {}
CoreTimeCache::~CoreTimeCache() = default;

CoreTimeCache::ProgramTimes& CoreTimeCache::program(CoreTimeKey key) {
  const std::lock_guard lock(impl_->mutex);
  return impl_->programs.try_emplace(std::move(key), *this).first->second;
}

CoreTimeCache::ProgramTimes::ProgramTimes(CoreTimeCache& cache) : cache_(cache) {
  for (auto& cycles : direct_) cycles.store(kUnknown, std::memory_order_relaxed);
}

std::optional<isa::Millicycles> CoreTimeCache::ProgramTimes::find_beyond(std::int64_t warps) const {
  const std::lock_guard lock(mutex_);
  const auto it = std::lower_bound(beyond_.begin(), beyond_.end(), warps, before);
  if (it == beyond_.end() || it->first != warps) return std::nullopt;
  return it->second;
}

void CoreTimeCache::ProgramTimes::insert(std::int64_t warps, isa::Millicycles cycles) {
  cache_.impl_->misses.fetch_add(1, std::memory_order_relaxed);
  if (warps >= 0 && static_cast<std::size_t>(warps) <= kDirectWarps) {
    direct_[static_cast<std::size_t>(warps)].store(cycles, std::memory_order_relaxed);  // one value: no order needed
    return;
  }
  const std::lock_guard lock(mutex_);
  const auto it = std::lower_bound(beyond_.begin(), beyond_.end(), warps, before);
  if (it == beyond_.end() || it->first != warps) beyond_.insert(it, {warps, cycles});
}

void CoreTimeCache::count_hits(std::int64_t n) { impl_->hits.fetch_add(n, std::memory_order_relaxed); }
std::int64_t CoreTimeCache::hits() const { return impl_->hits.load(); }
std::int64_t CoreTimeCache::misses() const { return impl_->misses.load(); }

}  // namespace warpsim::sim::workload

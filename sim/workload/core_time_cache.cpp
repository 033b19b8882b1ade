#include "sim/workload/core_time_cache.hpp"

#include <atomic>
#include <tbb/concurrent_unordered_map.h>

namespace warpsim::sim::workload {
namespace {

struct KeyHash {
  std::size_t operator()(const CoreTimeKey& key) const {
    std::size_t h = key.size();
    for (const std::int64_t v : key) h = (h ^ static_cast<std::size_t>(v)) * 0x100000001b3ULL + (h >> 29);
    return h;
  }
};

}  // namespace

struct CoreTimeCache::Impl {
  // Lookups take no lock (a split-ordered list); entries are never erased. Sized for a sweep's
  // few hundred distinct T_c.
  using Map = tbb::concurrent_unordered_map<CoreTimeKey, isa::Millicycles, KeyHash>;
  Map map = Map(1024);
  std::atomic<std::int64_t> hits{0};
  std::atomic<std::int64_t> misses{0};
};

CoreTimeCache::CoreTimeCache() : impl_(std::make_unique<Impl>()) {}
CoreTimeCache::~CoreTimeCache() = default;

std::optional<isa::Millicycles> CoreTimeCache::find(const CoreTimeKey& key) {
  const auto found = impl_->map.find(key);
  if (found == impl_->map.end()) return std::nullopt;
  impl_->hits.fetch_add(1, std::memory_order_relaxed);
  return found->second;
}

void CoreTimeCache::insert(const CoreTimeKey& key, isa::Millicycles value) {
  impl_->misses.fetch_add(1, std::memory_order_relaxed);
  impl_->map.emplace(key, value);
}

void CoreTimeCache::count_hits(std::int64_t n) { impl_->hits.fetch_add(n, std::memory_order_relaxed); }
std::int64_t CoreTimeCache::hits() const { return impl_->hits.load(); }
std::int64_t CoreTimeCache::misses() const { return impl_->misses.load(); }

}  // namespace warpsim::sim::workload

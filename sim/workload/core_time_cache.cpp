#include "sim/workload/core_time_cache.hpp"

#include <atomic>
#include <tbb/concurrent_hash_map.h>

namespace warpsim::sim::workload {
namespace {

struct KeyHash {
  static std::size_t hash(const CoreTimeKey& key) {
    std::size_t h = key.size();
    for (const std::int64_t v : key) h = (h ^ static_cast<std::size_t>(v)) * 0x100000001b3ULL + (h >> 29);
    return h;
  }
  static bool equal(const CoreTimeKey& a, const CoreTimeKey& b) { return a == b; }
};

}  // namespace

struct CoreTimeCache::Impl {
  tbb::concurrent_hash_map<CoreTimeKey, isa::Millicycles, KeyHash> map;
  std::atomic<std::int64_t> hits{0};
  std::atomic<std::int64_t> misses{0};
};

// Sized for a typical sweep's few hundred distinct T_c, so filling it does not rehash.
CoreTimeCache::CoreTimeCache() : impl_(std::make_unique<Impl>()) { impl_->map.rehash(1024); }
CoreTimeCache::~CoreTimeCache() = default;

std::optional<isa::Millicycles> CoreTimeCache::find(const CoreTimeKey& key) {
  decltype(impl_->map)::const_accessor found;
  if (!impl_->map.find(found, key)) return std::nullopt;
  impl_->hits.fetch_add(1, std::memory_order_relaxed);
  return found->second;
}

void CoreTimeCache::insert(const CoreTimeKey& key, isa::Millicycles value) {
  impl_->misses.fetch_add(1, std::memory_order_relaxed);
  impl_->map.insert({key, value});
}

void CoreTimeCache::count_hits(std::int64_t n) { impl_->hits.fetch_add(n, std::memory_order_relaxed); }
std::int64_t CoreTimeCache::hits() const { return impl_->hits.load(); }
std::int64_t CoreTimeCache::misses() const { return impl_->misses.load(); }

}  // namespace warpsim::sim::workload

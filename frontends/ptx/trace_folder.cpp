#include "frontends/ptx/trace_folder.hpp"

#include <algorithm>

namespace warpsim::ptx {
namespace {

// The longest loop body (in items) the folder looks for.
constexpr std::size_t kMaxBodyItems = 128;

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

bool ranges_equal(const std::vector<TraceItem>& items, std::size_t a, std::size_t b, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) {
    if (!(items[a + i] == items[b + i])) return false;
  }
  return true;
}

}  // namespace

bool TraceItem::operator==(const TraceItem& other) const {
  return hash == other.hash && kind == other.kind && count == other.count && sectors == other.sectors &&
         accesses == other.accesses && body == other.body;
}

void rehash(TraceItem& item) {
  std::size_t h = mix(static_cast<std::size_t>(item.kind), static_cast<std::size_t>(item.count));
  h = mix(h, static_cast<std::size_t>(item.sectors));
  for (const Access& a : item.accesses) {
    h = mix(h, static_cast<std::size_t>(a.space) * 4 + static_cast<std::size_t>(a.kind));
    h = mix(h, static_cast<std::size_t>(a.sectors));
  }
  for (const TraceItem& b : item.body) h = mix(h, b.hash);
  item.hash = h;
}

void TraceFolder::instruction(const DecodedInstruction&, const Access* access) {
  const bool global = access != nullptr && access->space == StateSpace::global;
  if (!global) {
    ++pending_calc_;
    if (access != nullptr) pending_accesses_.push_back(*access);
    return;
  }
  flush_calc();
  TraceItem item;
  item.kind = access->kind == AccessKind::store ? TraceItem::Kind::store : TraceItem::Kind::load;
  item.sectors = access->sectors;
  rehash(item);
  push(std::move(item));
}

void TraceFolder::flush_calc() {
  if (pending_calc_ == 0) return;
  TraceItem item;
  item.kind = TraceItem::Kind::calc;
  item.count = pending_calc_;
  item.accesses = std::move(pending_accesses_);
  pending_accesses_.clear();
  pending_calc_ = 0;
  rehash(item);
  push(std::move(item));
}

// While the last item is a loop, arriving items are matched against its body; a complete match
// is one more iteration. A mismatch puts the matched items back as plain items.
void TraceFolder::push(TraceItem item) {
  if (!items_.empty() && items_.back().kind == TraceItem::Kind::loop) {
    TraceItem& loop = items_.back();
    if (loop.body[matched_] == item) {
      if (++matched_ == loop.body.size()) {
        ++loop.count;
        rehash(loop);
        matched_ = 0;
      }
      return;
    }
    std::vector<TraceItem> prefix(loop.body.begin(), loop.body.begin() + static_cast<std::ptrdiff_t>(matched_));
    matched_ = 0;
    for (TraceItem& p : prefix) append(std::move(p));
  }
  append(std::move(item));
}

void TraceFolder::append(TraceItem item) {
  items_.push_back(std::move(item));
  while (fold_tail()) {
  }
}

bool TraceFolder::fold_tail() {
  const std::size_t n = items_.size();
  // A loop followed by one more copy of its body: one more iteration.
  for (std::size_t k = 1; k < n && k <= kMaxBodyItems; ++k) {
    TraceItem& loop = items_[n - 1 - k];
    if (loop.kind != TraceItem::Kind::loop || loop.body.size() != k) continue;
    bool same = true;
    for (std::size_t i = 0; i < k && same; ++i) same = loop.body[i] == items_[n - k + i];
    if (!same) continue;
    ++loop.count;
    rehash(loop);
    items_.resize(n - k);
    return true;
  }
  // Two equal loops in a row: one loop.
  if (n >= 2 && items_[n - 1].kind == TraceItem::Kind::loop && items_[n - 2].kind == TraceItem::Kind::loop &&
      items_[n - 1].body == items_[n - 2].body) {
    items_[n - 2].count += items_[n - 1].count;
    rehash(items_[n - 2]);
    items_.pop_back();
    return true;
  }
  // The same k items twice in a row: a loop of two iterations.
  for (std::size_t k = 1; 2 * k <= n && k <= kMaxBodyItems; ++k) {
    if (items_[n - 1].hash != items_[n - 1 - k].hash || !ranges_equal(items_, n - 2 * k, n - k, k)) continue;
    TraceItem loop;
    loop.kind = TraceItem::Kind::loop;
    loop.count = 2;
    loop.body.assign(std::make_move_iterator(items_.begin() + static_cast<std::ptrdiff_t>(n - k)),
                     std::make_move_iterator(items_.end()));
    items_.resize(n - 2 * k);
    rehash(loop);
    items_.push_back(std::move(loop));
    return true;
  }
  return false;
}

std::vector<TraceItem> TraceFolder::finish() {
  flush_calc();
  if (matched_ > 0) {
    std::vector<TraceItem> prefix(items_.back().body.begin(), items_.back().body.begin() + static_cast<std::ptrdiff_t>(matched_));
    matched_ = 0;
    for (TraceItem& p : prefix) append(std::move(p));
  }
  std::vector<TraceItem> result = std::move(items_);
  items_.clear();
  return result;
}

}  // namespace warpsim::ptx

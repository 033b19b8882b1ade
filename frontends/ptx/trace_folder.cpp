#include "warpsim/ptx/trace_folder.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include "warpsim/ptx/vector_loops.hpp"

namespace warpsim::ptx {
namespace {

// The longest loop body (in items) the folder looks for. The candidates come from an index of
// item pairs and are rejected by hash in O(1), so a long limit costs a stream that does not
// repeat little; a -G build's outer loop (every helper a call, every variable on the stack) needs
// thousands.
constexpr std::size_t kMaxBodyItems = 4096;
// The most items a nested loop may expand to for arriving items to be matched into it. A larger
// one (a loop run in closed form, 10^6 iterations) is not matched into: its iterations, arriving
// one by one, would each move the cursor, so the emulator could not run it in closed form again.
constexpr std::int64_t kMaxMatchedExpansion = 4096;

// The items `item` expands to, up to `limit` (then more than `limit`).
std::int64_t expanded_size(const TraceItem& item, std::int64_t limit) {
  if (item.kind != TraceItem::Kind::loop) return 1;
  std::int64_t body = 0;
  for (const TraceItem& b : item.body) {
    body += expanded_size(b, limit);
    if (body > limit) return limit + 1;
  }
  return body > 0 && item.count > limit / body ? limit + 1 : body * item.count;
}

void expand_into(const TraceItem& item, std::vector<TraceItem>& out) {
  if (item.kind != TraceItem::Kind::loop) {
    out.push_back(item);
    return;
  }
  for (std::int64_t i = 0; i < item.count; ++i) {
    for (const TraceItem& b : item.body) expand_into(b, out);
  }
}

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

// How many item pairs' position lists the folder keeps, emptied, from one warp to the next.
constexpr std::size_t kMostKeptPairs = 1024;

// The polynomial base of TraceFolder::run_hash, and its powers up to the longest body.
constexpr std::uint64_t kRunBase = 0x100000001b3ULL;
const std::array<std::uint64_t, kMaxBodyItems + 1> kRunPowers = [] {
  std::array<std::uint64_t, kMaxBodyItems + 1> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * kRunBase;
  return p;
}();

bool ranges_equal(const std::vector<TraceItem>& items, std::size_t a, std::size_t b, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) {
    if (!(items[a + i] == items[b + i])) return false;
  }
  return true;
}

std::size_t body_hash(const std::vector<TraceItem>& body) {
  std::size_t h = body.size();
  for (const TraceItem& b : body) h = mix(h, b.hash);
  return h;
}

// Whether some loop inside `items` (at any depth) has this body.
bool holds_loop_with_body(const std::vector<TraceItem>& items, std::size_t hash) {
  for (const TraceItem& item : items) {
    if (item.kind != TraceItem::Kind::loop) continue;
    if (body_hash(item.body) == hash || holds_loop_with_body(item.body, hash)) return true;
  }
  return false;
}

// Nominal latencies (cycles) that choose a calc run's longest chain, the same on every GPU; the
// pipes model prices the chosen chain's instructions with the GPU's own latencies.
constexpr isa::PipeCounts kNominalLatency{4, 8, 6, 4, 4, 6, 14, 18, 22, 32, 32, 32, 32, 32, 4};

// Whether a chain is longer than another; equal lengths are ordered by their paths, so the chain
// chosen does not depend on the order in which equal ones are met.
bool longer(std::int64_t length, const isa::PipeCounts& path, std::int64_t other_length, const isa::PipeCounts& other_path) {
  return length != other_length ? length > other_length : path > other_path;
}

}  // namespace

namespace {
// `next`'s counts added to `into`, an entry of the same line that came before it (the latest
// branch line wins).
void absorb(LineCount& into, const LineCount& next) {
  into.instructions += next.instructions;
  into.idle_milli += next.idle_milli;
  if (next.branch_line != 0) into.branch_line = next.branch_line;
}
}  // namespace

void TraceFolder::tally_line(int line, std::int64_t idle_milli, int branch_line) {
  // Mostly the same line as the last, or the next; a call of a function written earlier in the
  // file goes back. Lines are appended as they come and put in order only now and then: keeping
  // them in order at every instruction moved the whole list for each line that went back.
  const LineCount one{line, 1, idle_milli, branch_line};
  if (!pending_source_.empty() && pending_source_.back().line == line) {
    absorb(pending_source_.back(), one);
    return;
  }
  const bool in_order = pending_sorted_ == pending_source_.size() && (pending_source_.empty() || pending_source_.back().line < line);
  pending_source_.push_back(one);
  if (in_order) {
    ++pending_sorted_;
  } else if (pending_source_.size() - pending_sorted_ > std::max<std::size_t>(64, pending_sorted_)) {
    sort_pending_source();  // amortised: the unsorted tail is as long as the sorted part
  }
}

void TraceFolder::sort_pending_source() const {
  if (pending_sorted_ == pending_source_.size()) return;
  // Stable: a line's entries stay in arrival order, so the latest branch line is kept.
  std::stable_sort(pending_source_.begin(), pending_source_.end(), [](const LineCount& a, const LineCount& b) { return a.line < b.line; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pending_source_.size(); ++i) {
    const LineCount& next = pending_source_[i];
    if (kept > 0 && pending_source_[kept - 1].line == next.line) {
      absorb(pending_source_[kept - 1], next);
    } else {
      pending_source_[kept++] = next;
    }
  }
  pending_source_.resize(kept);
  pending_sorted_ = kept;
}

bool TraceItem::operator==(const TraceItem& other) const { return hash == other.hash && same_except_hash(other); }

bool TraceItem::same_except_hash(const TraceItem& other) const {
  return kind == other.kind && opens_period == other.opens_period && broadcast == other.broadcast &&
         space == other.space && transactions == other.transactions && lines == other.lines && reuse == other.reuse && count == other.count &&
         use_distance == other.use_distance && hoist == other.hoist && asynchronous == other.asynchronous &&
         same_address == other.same_address && hot_updates_milli == other.hot_updates_milli && ideal == other.ideal &&
         (kind != Kind::calc || mix == other.mix) && (kind != Kind::loop || body == other.body);  // only calcs have mixes, only loops bodies
}

void rehash(TraceItem& item) {
  std::size_t h = mix(static_cast<std::size_t>(item.kind), static_cast<std::size_t>(item.count));
  h = mix(h, static_cast<std::size_t>(item.transactions) << 32 ^ static_cast<std::size_t>(item.lines));
  h = mix(h, static_cast<std::size_t>(item.reuse.permille) ^ static_cast<std::size_t>(item.reuse.distance_bytes) << 10);
  if (item.same_address != 0) h = mix(h, static_cast<std::size_t>(item.same_address) << 40 ^ static_cast<std::size_t>(item.hot_updates_milli));
  if (item.ideal != 0) h = mix(h, static_cast<std::size_t>(item.ideal) << 20);
  h = mix(h, static_cast<std::size_t>(item.space) * 8 + (item.asynchronous ? 4 : 0) + (item.opens_period ? 2 : 0) + (item.broadcast ? 1 : 0));
  h = mix(h, static_cast<std::size_t>(item.use_distance) ^ static_cast<std::size_t>(item.mix.issue) << 20 ^
                 static_cast<std::size_t>(item.hoist) << 44);
  for (std::size_t p = 0; p < isa::kPipeCount && item.kind == TraceItem::Kind::calc; ++p) {  // only calcs have mixes
    if (item.mix.work[p] != 0 || item.mix.chain[p] != 0) h = mix(h, p ^ static_cast<std::size_t>(item.mix.work[p]) << 8 ^ static_cast<std::size_t>(item.mix.chain[p]) << 36);
  }
  for (const TraceItem& b : item.body) h = mix(h, b.hash);
  item.hash = h;
}

void TraceFolder::close_segment() {
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) pending_mix_.chain[p] += paths_[segment_path_][p];
  paths_.resize(1);
  segment_path_ = 0;
  segment_length_ = 0;
  ++run_;
}

WARPSIM_VECTOR_LOOPS void TraceFolder::add_to_run(const DecodedInstruction& instruction, Divergence divergence) {
  // A source position not after the previous instruction's is a backward jump (or a call of a
  // function written earlier in the file), which starts a segment. Positions, not addresses:
  // the segments must not depend on where the functions happen to lie in memory.
  const std::pair<int, int> position{instruction.pos.line, instruction.pos.column};
  if (in_segment_ && position <= last_position_) close_segment();
  in_segment_ = true;
  last_position_ = position;
  tally_line(instruction.pos.line, divergence.idle_milli, divergence.branch_line);
  const PipeUse& use = instruction.pipes;
  pending_mix_.issue += use.issue;
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) pending_mix_.work[p] += use.work[p];
  // The longest chain into this instruction: through the registers it reads that this run wrote.
  const RegisterChain* from = nullptr;
  const auto consider = [&](const Arg& arg) {
    if (arg.kind != Arg::Kind::reg || arg.reg >= chains_.size()) return;
    const RegisterChain& c = chains_[arg.reg];
    // (c.path is checked too: a run number reused after 2^32 segments must not index past paths_.)
    if (c.run == run_ && c.path < paths_.size() && (from == nullptr || longer(c.length, paths_[c.path], from->length, paths_[from->path]))) {
      from = &c;
    }
  };
  for (const Arg& src : instruction.srcs) consider(src);
  consider(instruction.address.base);
  RegisterChain out = from != nullptr ? *from : RegisterChain{run_, 0, 0};
  std::int64_t step = 0;
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) step += use.chain[p] * kNominalLatency[p];
  if (step != 0) {  // the instruction lengthens the chain: a new path (nominal latencies are all positive)
    paths_.emplace_back();  // written in place: a copy through the stack stalled on store forwarding
    const isa::PipeCounts& before = paths_[out.path];
    isa::PipeCounts& path = paths_.back();
    for (std::size_t p = 0; p < isa::kPipeCount; ++p) path[p] = before[p] + use.chain[p];
    out.path = static_cast<std::uint32_t>(paths_.size() - 1);
    out.length += step;
  }
  for (const Arg& dst : instruction.dsts) {
    if (dst.kind != Arg::Kind::reg) continue;
    if (dst.reg >= chains_.size()) chains_.resize(dst.reg + 1);
    chains_[dst.reg] = out;
  }
  if (longer(out.length, paths_[out.path], segment_length_, paths_[segment_path_])) {
    segment_length_ = out.length;
    segment_path_ = out.path;
  }
}

void TraceFolder::instruction(const DecodedInstruction& instruction, const Access* access, Divergence divergence) {
  if (access == nullptr && !instruction.block_barrier) {
    ++pending_calc_;
    add_to_run(instruction, divergence);
    return;
  }
  flush_calc();
  TraceItem item;
  item.line = instruction.pos.line;
  if (access == nullptr) {
    item.kind = TraceItem::Kind::barrier;
  } else {
    item.kind = access->kind == AccessKind::store ? TraceItem::Kind::store : TraceItem::Kind::load;
    item.space = access->space;
    item.transactions = access->transactions;
    item.broadcast = access->broadcast;
    item.lines = access->lines;
    item.reuse = access->reuse;
    item.same_address = access->same_address;
    item.hot_updates_milli = access->hot_updates_milli;
    item.ideal = access->ideal;
    if (item.kind == TraceItem::Kind::load) {
      item.use_distance = instruction.use_distance;
      item.hoist = instruction.hoist;
      item.asynchronous = instruction.opcode == Opcode::cp_async;
    }
  }
  if (access != nullptr && access->space == StateSpace::global) {
    push(std::move(item));
    in_period_ = false;
  } else {
    push_in_period(std::move(item));
  }
}

void TraceFolder::push_in_period(TraceItem&& item) {
  if (!in_period_) {
    static const TraceItem kOpening = [] {
      TraceItem opening;
      opening.kind = TraceItem::Kind::calc;
      opening.opens_period = true;
      rehash(opening);
      return opening;
    }();
    push(TraceItem(kOpening));
    in_period_ = true;
  }
  push(std::move(item));
}

void TraceFolder::flush_calc() {
  if (pending_calc_ == 0) return;
  TraceItem item;
  item.kind = TraceItem::Kind::calc;
  close_segment();
  item.count = pending_calc_;
  item.mix = pending_mix_;
  sort_pending_source();
  item.source = std::move(pending_source_);
  pending_source_ = std::move(spare_source_);  // a matched item's, to fill again without allocating
  item.opens_period = !in_period_;
  pending_calc_ = 0;
  pending_mix_ = {};
  pending_source_.clear();
  pending_sorted_ = 0;
  in_segment_ = false;
  in_period_ = true;
  push(std::move(item));
}

// While the last item is a loop, arriving items are matched against its body; a complete match
// is one more iteration. A mismatch puts the matched items back as plain items. An arriving item
// is hashed only when it is kept: most match.
void TraceFolder::push(TraceItem&& item) {
  if (!items_.empty() && items_.back().kind == TraceItem::Kind::loop) {
    if (match_next(item)) {
      if (item.source.capacity() > spare_source_.capacity()) spare_source_ = std::move(item.source);
      return;
    }
    put_back_matched();
  }
  rehash(item);
  append(std::move(item));
}

bool TraceFolder::match_next(const TraceItem& item) {
  TraceItem& loop = items_.back();
  if (cursor_.empty()) cursor_.push_back({&loop.body, loop.count, 0, 0});
  // Into the nested loops that begin at the cursor.
  const TraceItem* expected = &(*cursor_.back().body)[cursor_.back().index];
  while (expected->kind == TraceItem::Kind::loop) {
    if (expanded_size(*expected, kMaxMatchedExpansion) > kMaxMatchedExpansion) return false;
    cursor_.push_back({&expected->body, expected->count, 0, 0});
    expected = &expected->body.front();
  }
  if (!expected->same_except_hash(item)) return false;
  // One item further: past each body's end, the next iteration or the enclosing level.
  while (++cursor_.back().index == cursor_.back().body->size()) {
    if (cursor_.size() == 1) {
      ++loop.count;
      rehash(loop);
      changed_from(items_.size() - 1);
      cursor_.clear();
      return true;
    }
    MatchFrame& nested = cursor_.back();
    nested.index = 0;
    if (++nested.iteration < nested.count) return true;
    cursor_.pop_back();
  }
  return true;
}

void TraceFolder::put_back_matched() {
  if (cursor_.empty()) return;
  std::vector<TraceItem> prefix = matched_items();
  cursor_.clear();
  for (TraceItem& p : prefix) append(std::move(p));
}

std::vector<TraceItem> TraceFolder::matched_items() const {
  std::vector<TraceItem> out;
  for (const MatchFrame& frame : cursor_) {
    for (std::int64_t i = 0; i < frame.iteration; ++i) {
      for (const TraceItem& b : *frame.body) expand_into(b, out);
    }
    for (std::size_t i = 0; i < frame.index; ++i) expand_into((*frame.body)[i], out);
  }
  return out;
}

void TraceFolder::append(TraceItem&& item) {
  items_.push_back(std::move(item));
  while (fold_tail()) {
  }
}

std::uint64_t TraceFolder::run_hash(std::size_t begin, std::size_t length) const {
  return prefix_[begin + length] - prefix_[begin] * kRunPowers[length];
}

bool TraceFolder::fold_tail() {
  const std::size_t n = items_.size();
  sync_tail_index();
  // A loop followed by one more copy of its body: one more iteration (the nearest loop first).
  for (auto at = loop_positions_.rbegin(); at != loop_positions_.rend(); ++at) {
    if (*at >= n - 1) continue;
    const std::size_t k = n - 1 - *at;
    if (k > kMaxBodyItems) break;
    if (body_sizes_[n - 1 - k] != k) continue;
    TraceItem& loop = items_[n - 1 - k];
    bool same = true;
    for (std::size_t i = 0; i < k && same; ++i) same = loop.body[i] == items_[n - k + i];
    if (!same) continue;
    ++loop.count;
    rehash(loop);
    items_.resize(n - k);
    changed_from(n - 1 - k);
    return true;
  }
  // Two equal loops in a row: one loop.
  if (n >= 2 && items_[n - 1].kind == TraceItem::Kind::loop && items_[n - 2].kind == TraceItem::Kind::loop &&
      items_[n - 1].body == items_[n - 2].body) {
    items_[n - 2].count += items_[n - 1].count;
    rehash(items_[n - 2]);
    items_.pop_back();
    changed_from(n - 2);
    return true;
  }
  // The same k items twice in a row: a loop of two iterations (the shortest first).
  const auto fold_last = [&](std::size_t k) {
    TraceItem loop;
    loop.kind = TraceItem::Kind::loop;
    loop.count = 2;
    loop.body.assign(std::make_move_iterator(items_.begin() + static_cast<std::ptrdiff_t>(n - k)),
                     std::make_move_iterator(items_.end()));
    items_.resize(n - 2 * k);
    changed_from(n - 2 * k);
    rehash(loop);
    items_.push_back(std::move(loop));
  };
  if (n >= 2 && hashes_[n - 2] == hashes_[n - 1] && items_[n - 2] == items_[n - 1]) {
    fold_last(1);
    return true;
  }
  // Longer: only the earlier items that, with the item before them, look like the last two can
  // end the first copy (an index of item pairs: single items matched too many candidates).
  if (n < 4) return false;
  const std::vector<std::size_t>& same = positions_by_pair_[pair_key(n - 1)];
  for (auto at = same.rbegin(); at != same.rend(); ++at) {
    if (*at >= n - 1) continue;  // stale (the items were folded since)
    const std::size_t k = n - 1 - *at;
    if (2 * k > n || k > kMaxBodyItems) break;
    if (k < 2 || hashes_[n - 1 - k] != hashes_[n - 1] || hashes_[n - 2 - k] != hashes_[n - 2] ||
        (k > 2 && hashes_[n - 3 - k] != hashes_[n - 3])) {
      continue;
    }
    if (run_hash(n - 2 * k, k) != run_hash(n - k, k) || !ranges_equal(items_, n - 2 * k, n - k, k)) continue;
    fold_last(k);
    return true;
  }
  return false;
}

TraceFolder::Signature TraceFolder::signature() const {
  Signature s;
  s.items.reserve(items_.size());
  for (const TraceItem& item : items_) {
    const bool loop = item.kind == TraceItem::Kind::loop;
    s.items.push_back(Signature::Item{item.hash, loop ? body_hash(item.body) : 0, loop ? item.count : 0});
  }
  for (const MatchFrame& frame : cursor_) s.cursor.emplace_back(frame.index, frame.iteration);
  s.pending_calc = pending_calc_;
  s.pending_mix = pending_mix_;
  sort_pending_source();
  s.pending_source = pending_source_;
  s.segment_path = paths_[segment_path_];
  s.segment_length = segment_length_;
  s.in_period = in_period_;
  return s;
}

bool TraceFolder::repeat_since(const Mark& mark, std::int64_t times) {
  const auto& before = static_cast<const Signature&>(mark);  // marks come from mark()
  if (times <= 0) return true;
  const bool same_cursor = std::equal(cursor_.begin(), cursor_.end(), before.cursor.begin(), before.cursor.end(),
                                      [](const MatchFrame& now, const std::pair<std::size_t, std::int64_t>& then) {
                                        return now.index == then.first && now.iteration == then.second;
                                      });
  if (!same_cursor || in_period_ != before.in_period || items_.size() != before.items.size() ||
      paths_[segment_path_] != before.segment_path || segment_length_ != before.segment_length) {
    return false;
  }
  const std::size_t n = items_.size();
  std::size_t changed = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (items_[i].hash == before.items[i].hash) continue;
    if (changed != n) return false;
    changed = i;
  }
  if (changed == n) {
    // Only the pending calc run grew: it grows by the same amount each time, and so does its
    // longest chain (a chain carried from iteration to iteration; 0 for independent ones).
    if (pending_calc_ < before.pending_calc) return false;
    pending_calc_ += (pending_calc_ - before.pending_calc) * times;
    const auto grow = [&](std::int64_t& now, std::int64_t then) { now += (now - then) * times; };
    grow(pending_mix_.issue, before.pending_mix.issue);
    for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
      grow(pending_mix_.work[p], before.pending_mix.work[p]);
      grow(pending_mix_.chain[p], before.pending_mix.chain[p]);
    }
    // Each line's instructions grow alike (a line new since `before` had none then).
    std::size_t then = 0;
    sort_pending_source();
    for (LineCount& now : pending_source_) {
      while (then < before.pending_source.size() && before.pending_source[then].line < now.line) ++then;
      const bool was = then < before.pending_source.size() && before.pending_source[then].line == now.line;
      now.instructions += (now.instructions - (was ? before.pending_source[then].instructions : 0)) * times;
      now.idle_milli += (now.idle_milli - (was ? before.pending_source[then].idle_milli : 0)) * times;
    }
    return true;
  }
  // One loop ran more iterations and nothing else changed (the items after it are the same
  // partial iteration). Its count is compared with nothing (no other item holds a loop of the
  // same body), so the intermediate counts that the closed form skips could not have changed
  // how later items fold.
  if (pending_calc_ != before.pending_calc || !(pending_mix_ == before.pending_mix)) return false;
  TraceItem& loop = items_[changed];
  const Signature::Item& old = before.items[changed];
  if (loop.kind != TraceItem::Kind::loop || old.count == 0 || body_hash(loop.body) != old.body_hash || loop.count <= old.count) {
    return false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const TraceItem& item = items_[i];
    if (item.kind != TraceItem::Kind::loop) continue;
    if ((i != changed && body_hash(item.body) == old.body_hash) || holds_loop_with_body(item.body, old.body_hash)) return false;
  }
  loop.count += (loop.count - old.count) * times;
  rehash(loop);
  changed_from(changed);
  return true;
}

std::vector<TraceItem> TraceFolder::finish() {
  flush_calc();
  in_period_ = false;
  put_back_matched();
  // Moved into a vector of its own size: items_ keeps its storage for the next warp (regrowing
  // it from nothing for every warp was a tenth of --emulate-all's time, in page faults).
  std::vector<TraceItem> result(std::make_move_iterator(items_.begin()), std::make_move_iterator(items_.end()));
  items_.clear();
  changed_from(0);
  // The next warp mostly meets the same pairs: their lists are emptied, not freed. A long warp's
  // index is dropped whole (clear() would wipe its bucket array again at every later warp).
  if (positions_by_pair_.size() > kMostKeptPairs) {
    positions_by_pair_ = {};
  } else {
    for (auto& [pair, positions] : positions_by_pair_) positions.clear();
  }
  loop_positions_.clear();
  return result;
}


std::size_t TraceFolder::pair_key(std::size_t i) const { return mix(hashes_[i - 1], hashes_[i]); }

void TraceFolder::sync_tail_index() {
  const std::size_t n = items_.size();
  prefix_.resize(n + 1);
  hashes_.resize(n);
  body_sizes_.resize(n);
  for (; prefix_valid_ < n; ++prefix_valid_) {
    const std::size_t i = prefix_valid_;
    const TraceItem& item = items_[i];
    hashes_[i] = item.hash;
    body_sizes_[i] = item.kind == TraceItem::Kind::loop ? item.body.size() : 0;
    prefix_[i + 1] = prefix_[i] * kRunBase + item.hash;
    while (!loop_positions_.empty() && loop_positions_.back() >= i) loop_positions_.pop_back();
    if (body_sizes_[i] > 0) loop_positions_.push_back(i);
    if (i > 0) {
      std::vector<std::size_t>& same = positions_by_pair_[pair_key(i)];
      while (!same.empty() && same.back() >= i) same.pop_back();
      same.push_back(i);
    }
  }
}

}  // namespace warpsim::ptx

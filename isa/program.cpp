#include "warpsim/isa/program.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::isa {

const char* to_string(OpKind kind) {
  switch (kind) {
    case OpKind::calc: return "calc";
    case OpKind::load: return "load";
    case OpKind::store: return "store";
    case OpKind::barrier: return "bar";
    case OpKind::repeat: return "repeat";
    case OpKind::end: return "end";
  }
  return "?";
}

const char* to_string(MemorySpace space) {
  switch (space) {
    case MemorySpace::unspecified: return "";
    case MemorySpace::global: return "global";
    case MemorySpace::local: return "local";
    case MemorySpace::shared: return "shared";
    case MemorySpace::constant: return "const";
    case MemorySpace::texture: return "tex";
  }
  return "?";
}

std::optional<MemorySpace> memory_space_named(std::string_view word) {
  for (const MemorySpace space : {MemorySpace::global, MemorySpace::local, MemorySpace::shared, MemorySpace::constant,
                                  MemorySpace::texture}) {
    if (word == to_string(space)) return space;
  }
  return std::nullopt;
}

namespace {

Op op_at(OpKind kind, int line) {
  Op op;
  op.kind = kind;
  op.line = line;
  return op;
}

}  // namespace

bool Op::same_meaning(const Op& other) const {
  return kind == other.kind && duration == other.duration && count == other.count &&
         count_parameter == other.count_parameter && partner == other.partner && space == other.space &&
         transactions == other.transactions && lines == other.lines && reuse == other.reuse &&
         use_distance == other.use_distance && hoist == other.hoist && asynchronous == other.asynchronous &&
         same_address == other.same_address && hot_updates_milli == other.hot_updates_milli &&
         (mix == 0) == (other.mix == 0);
}

void Program::fail(int line, const std::string& what) const {
  throw InputError(SourceLocation{source_, line, 0}, what);
}

void Program::add(OpKind kind, Millicycles duration, int line) {
  if (!is_instruction(kind)) fail(line, "internal: add() takes calc, load, store or bar");
  if (duration <= 0) fail(line, std::string(to_string(kind)) + " duration must be positive");
  if (duration > kMaxDuration) fail(line, "duration above the limit of 10^9 cycles");
  annotated_ = annotated_ || kind == OpKind::barrier;
  Op op = op_at(kind, line);
  op.duration = duration;
  ops_.push_back(std::move(op));
}

void Program::add_calc(Millicycles duration, const CalcMix& mix, int line) {
  add(OpKind::calc, duration, line);
  const auto in_range = [](std::int64_t n) { return n >= 0 && n <= kMaxMixCount; };
  bool ok = in_range(mix.issue);
  for (std::size_t p = 0; p < kPipeCount; ++p) ok = ok && in_range(mix.work[p]) && in_range(mix.chain[p]);
  if (!ok) fail(line, "a calc's issue and pipe counts must be whole numbers in [0, 2^30]");
  if (mix.issue == 0 && !mix.empty()) fail(line, "a calc with pipe work must issue at least one instruction (issue=N)");
  mixes_.push_back(mix);
  ops_.back().mix = static_cast<std::uint32_t>(mixes_.size());
}

void Program::set_use_distance(std::int32_t instructions, std::int32_t hoist, int line) {
  if (ops_.empty() || ops_.back().kind != OpKind::load) fail(line, "internal: a use distance belongs to a load");
  if (instructions < 0 || instructions > kMaxTransactions) fail(line, "use= must be a whole number in [0, 2^30]");
  if (hoist < 0 || hoist > kMaxTransactions) fail(line, "hoist= must be a whole number in [0, 2^30]");
  ops_.back().use_distance = instructions;
  ops_.back().hoist = hoist;
}

void Program::set_atomic(std::int32_t same, std::int32_t hot_milli, int line) {
  if (ops_.empty() || !is_memory(ops_.back().kind) || ops_.back().space == MemorySpace::unspecified || counts_ways(ops_.back().space)) {
    fail(line, "only a global, local or tex access takes same= and hot=");
  }
  if (same < 1 || same > 32) fail(line, "same= must be a whole number of lanes in [1, 32]");
  if (hot_milli < 0 || hot_milli > 32'000) fail(line, "hot= must be in [0, 32] updates");
  ops_.back().same_address = same;
  ops_.back().hot_updates_milli = hot_milli;
}

void Program::set_asynchronous(int line) {
  if (ops_.empty() || ops_.back().kind != OpKind::load) fail(line, "internal: only a load is an asynchronous copy");
  ops_.back().asynchronous = true;
}

void Program::add_access(OpKind kind, Millicycles duration, MemorySpace space, std::int32_t transactions, int line,
                         CacheReuse reuse, std::int32_t lines) {
  if (!is_memory(kind)) fail(line, "internal: add_access() takes load or store");
  if (transactions < kNoLanes || transactions > kMaxTransactions || (transactions == kNoLanes && space == MemorySpace::unspecified)) {
    fail(line, std::string(counts_ways(space) ? "ways" : "sectors") + " must be in [0, " +
                   std::to_string(kMaxTransactions) + "]");
  }
  if (reuse != CacheReuse{} && (space == MemorySpace::unspecified || counts_ways(space))) {
    fail(line, "only global, local and tex accesses take reuse= and distance=");
  }
  if (reuse.permille < 0 || reuse.permille > 1000) fail(line, "reuse must be in [0, 1]");
  if (lines != 0 && (space == MemorySpace::unspecified || counts_ways(space))) fail(line, "only global, local and tex accesses take lines=");
  if (lines != 0 && (transactions <= 0 || lines < fewest_lines(transactions) || lines > transactions)) {
    fail(line, "lines=" + std::to_string(lines) + " does not fit sectors=" + std::to_string(transactions) +
                   ": 128-byte lines hold 1 to 4 of the sectors, so ceil(sectors / 4) <= lines <= sectors");
  }
  if (reuse.distance_bytes < 0 || reuse.distance_bytes > kMaxReuseDistance) fail(line, "distance must be in [0, 2^50] bytes");
  add(kind, duration, line);
  ops_.back().space = space;
  ops_.back().transactions = transactions;
  ops_.back().reuse = reuse;
  ops_.back().lines = transactions > 0 && lines == fewest_lines(transactions) ? 0 : lines;  // one spelling per meaning
  annotated_ = annotated_ || space != MemorySpace::unspecified;
}

void Program::push_repeat(Op op) {
  if (static_cast<int>(open_repeats_.size()) >= kMaxLoopDepth) {
    fail(op.line, "repeat nested deeper than " + std::to_string(kMaxLoopDepth) + " levels");
  }
  open_repeats_.push_back(static_cast<std::uint32_t>(ops_.size()));
  max_loop_depth_ = std::max(max_loop_depth_, static_cast<int>(open_repeats_.size()));
  ops_.push_back(std::move(op));
}

void Program::begin_repeat(std::int64_t count, int line) {
  if (count < 0) fail(line, "repeat count cannot be negative");
  if (count > kMaxLoopCount) fail(line, "repeat count above the limit of 2^40");
  Op op = op_at(OpKind::repeat, line);
  op.count = count;
  push_repeat(std::move(op));
}

void Program::begin_repeat(std::string parameter, int line) {
  if (parameter.empty()) fail(line, "repeat needs a count or a parameter name");
  Op op = op_at(OpKind::repeat, line);
  op.count_parameter = std::move(parameter);
  push_repeat(std::move(op));
}

void Program::end_repeat(int line) {
  if (open_repeats_.empty()) fail(line, "'end' without a matching 'repeat'");
  const std::uint32_t begin = open_repeats_.back();
  open_repeats_.pop_back();
  // An empty body would make the engine spin through iterations that do nothing.
  if (begin + 1 == ops_.size()) fail(ops_[begin].line, "repeat has an empty body");
  ops_[begin].partner = static_cast<std::uint32_t>(ops_.size());
  Op op = op_at(OpKind::end, line);
  op.partner = begin;
  ops_.push_back(std::move(op));
}

void Program::finish(int line) {
  if (!open_repeats_.empty()) {
    fail(ops_[open_repeats_.back()].line,
         "repeat is never closed with 'end' (file ends at line " + std::to_string(line) + ")");
  }
}

std::int64_t Program::max_loop_count() const {
  std::int64_t largest = 0;
  for (const Op& op : ops_) {
    if (op.kind == OpKind::repeat) largest = std::max(largest, op.count);
  }
  return largest;
}

std::vector<std::string> Program::parameters() const {
  std::set<std::string> names;
  for (const Op& op : ops_) {
    if (op.kind == OpKind::repeat && !op.count_parameter.empty()) names.insert(op.count_parameter);
  }
  return {names.begin(), names.end()};
}

Program Program::bind(const ParameterValues& values) const {
  const std::vector<std::string> used = parameters();
  for (const auto& [name, value] : values) {
    if (!std::binary_search(used.begin(), used.end(), name)) {
      fail(0, "parameter " + quote_for_message(name) + " is not used by kernel " +
                  quote_for_message(name_) +
                  (used.empty() ? " (it has no parameters)" : ""));
    }
  }
  Program bound = *this;
  for (Op& op : bound.ops_) {
    if (op.kind != OpKind::repeat || op.count_parameter.empty()) continue;
    const auto it = values.find(op.count_parameter);
    if (it == values.end()) {
      fail(op.line, "parameter " + quote_for_message(op.count_parameter) +
                        " has no value (give it with --param " + op.count_parameter + "=VALUE)");
    }
    if (it->second < 0) fail(op.line, "parameter " + op.count_parameter + " cannot be negative");
    if (it->second > kMaxLoopCount) {
      fail(op.line, "parameter " + op.count_parameter + " above the limit of 2^40");
    }
    op.count = it->second;
    op.count_parameter.clear();
  }
  return bound;
}

bool Program::is_bound() const {
  return std::none_of(ops_.begin(), ops_.end(),
                      [](const Op& op) { return op.kind == OpKind::repeat && !op.count_parameter.empty(); });
}

DynamicCounts Program::dynamic_counts() const {
  if (!is_bound()) fail(0, "internal: dynamic_counts() needs a bound program");
  DynamicCounts counts;
  // Each open loop's iterations times those of the loops around it (no allocation: T_c asks
  // for these counts before every simulation).
  std::array<std::int64_t, kMaxLoopDepth + 1> multipliers;
  std::size_t depth = 0;
  multipliers[0] = 1;
  auto add_checked = [&](std::int64_t& total, std::int64_t value) {
    std::int64_t scaled = 0;
    if (__builtin_mul_overflow(value, multipliers[depth], &scaled) ||
        __builtin_add_overflow(total, scaled, &total)) {
      fail(0, "program too long: its dynamic counts overflow 64 bits");
    }
  };
  for (const Op& op : ops_) {
    switch (op.kind) {
      case OpKind::repeat: {
        std::int64_t product = 0;
        if (__builtin_mul_overflow(multipliers[depth], op.count, &product)) {
          fail(op.line, "program too long: nested repeat counts overflow 64 bits");
        }
        multipliers[++depth] = product;
        break;
      }
      case OpKind::end: --depth; break;
      case OpKind::calc:
      case OpKind::barrier:
        add_checked(counts.calcs, 1);
        add_checked(counts.calc_time, op.duration);
        break;
      case OpKind::load:
      case OpKind::store:
        add_checked(op.kind == OpKind::load ? counts.loads : counts.stores, 1);
        add_checked(counts.memory_duration, op.duration);
        break;
    }
    if (is_instruction(op.kind)) add_checked(counts.instructions, 1);
  }
  return counts;
}

bool Program::same_meaning(const Program& other) const {
  return name_ == other.name_ && default_tm_ == other.default_tm_ &&
         std::equal(ops_.begin(), ops_.end(), other.ops_.begin(), other.ops_.end(), [&](const Op& a, const Op& b) {
           const CalcMix* ma = mix_of(a);
           const CalcMix* mb = other.mix_of(b);
           return a.same_meaning(b) && (ma == nullptr || *ma == *mb);
         });
}

Program Program::with_memory_durations(
    const std::function<std::optional<Millicycles>(std::size_t index, const Op& op)>& choose) const {
  Program copy = *this;
  std::size_t index = 0;
  for (Op& op : copy.ops_) {
    if (!is_memory(op.kind)) continue;
    if (const std::optional<Millicycles> duration = choose(index++, op)) {
      if (*duration <= 0) fail(op.line, std::string(to_string(op.kind)) + " duration must be positive");
      op.duration = *duration;
    }
  }
  return copy;
}

Program Program::with_ops_edited(const std::function<void(std::size_t index, Op& op, CalcMix* mix)>& edit) const {
  Program copy = *this;
  for (std::size_t i = 0; i < copy.ops_.size(); ++i) {
    Op& op = copy.ops_[i];
    const OpKind kind = op.kind;
    const std::int64_t count = op.count;
    CalcMix* mix = op.mix == 0 ? nullptr : &copy.mixes_[op.mix - 1];
    edit(i, op, mix);
    const bool to_register = is_memory(kind) && op.kind == OpKind::calc && op.mix == 0;
    if ((op.kind != kind && !to_register) || op.count != count) fail(op.line, "internal: an edit changed an op's kind or count");
    if (to_register) {  // a move: one cycle, no memory fields
      Op move;
      move.duration = kMillicyclesPerCycle;
      move.line = op.line;
      op = move;
    }
    if (op.transactions < kNoLanes || op.transactions > kMaxTransactions) fail(op.line, "sectors or ways out of range");
    if (mix != nullptr) {
      bool ok = mix->issue >= 0 && mix->issue <= kMaxMixCount;
      for (std::size_t p = 0; p < kPipeCount; ++p) ok = ok && mix->work[p] >= 0 && mix->work[p] <= kMaxMixCount && mix->chain[p] >= 0;
      if (!ok || (mix->issue == 0 && !mix->empty())) fail(op.line, "a calc's mix out of range");
    }
  }
  return copy;
}

std::vector<std::int64_t> Program::timing_identity() const {
  if (!is_bound()) fail(0, "internal: timing_identity() needs a bound program");
  std::vector<std::int64_t> identity;
  identity.reserve(ops_.size() * 8 + 2);
  identity.push_back(static_cast<std::int64_t>(ops_.size()));
  for (const Op& op : ops_) {
    identity.insert(identity.end(), {static_cast<std::int64_t>(op.kind), op.duration, op.count, static_cast<std::int64_t>(op.partner),
                                     static_cast<std::int64_t>(op.space), op.transactions, op.lines, op.reuse.permille,
                                     op.reuse.distance_bytes, op.use_distance, op.hoist, op.asynchronous ? 1 : 0, op.same_address,
                                     op.hot_updates_milli, op.mix == 0 ? 0 : 1});
    if (const CalcMix* m = mix_of(op)) {
      identity.push_back(m->issue);
      identity.insert(identity.end(), m->work.begin(), m->work.end());
      identity.insert(identity.end(), m->chain.begin(), m->chain.end());
    }
  }
  return identity;
}

}  // namespace warpsim::isa

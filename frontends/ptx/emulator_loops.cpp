// Loops in closed form (docs/ptx.md, "Loops in closed form"). When a warp comes back to a loop
// header, the emulator compares its state with the state some iterations before: the change
// of every relevant register is a hypothesis (the induction variables advance by that much per
// iteration). The next iteration then runs concretely with a loop symbol J beside it, each
// register known as an affine form in J, and every decision and access checked to be the same
// for all J in [0, count), narrowing count where one would change. If the iteration ends in
// exactly the start state plus the change (the induction holds) the count - 1 iterations
// that behave alike are added to the trace in closed form and the registers advanced; otherwise
// nothing was assumed and the loop simply goes on iterating.
#include <algorithm>
#include <numeric>

#include "warp_emulator_impl.hpp"
#include "warpsim/ptx/lane_arith.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

constexpr std::int64_t kLoopSymbolCount = std::int64_t{1} << 40;  // iterations one closed form may cover
constexpr int kLargestPeriod = 64;                                  // iterations per step of J
constexpr int kMostFailures = 24;                                    // then the loop is left alone

}  // namespace

bool WarpEmulator::Impl::take_snapshot(LoopSnapshot& s) const {
  const Frame& frame = lanes_.frames.back();
  const std::vector<std::uint32_t>& list = relevant_list_[frame.function];
  s.depth = lanes_.frames.size();
  s.function = frame.function;
  s.stack = frame.stack;
  s.alive = lanes_.alive;
  s.values.resize(list.size() * 32);
  s.known.resize(list.size());
  s.coefficients.clear();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::size_t r = frame.register_base + list[i];
    std::copy_n(&lanes_.values[r * 32], 32, &s.values[i * 32]);
    s.known[i] = lanes_.known[r];
    if (const Coefficients* c = coefficients(r); c != nullptr) s.coefficients.emplace_back(static_cast<std::uint32_t>(i), *c);
  }
  s.param_store = lanes_.param_store;
  s.loop_exit_counts = lanes_.loop_exit_counts;
  s.alloca_top = lanes_.alloca_top;
  return true;
}

namespace {

// Everything but the registers: the same path state.
template <typename Snapshot>
bool same_shape(const Snapshot& a, const Snapshot& b) {
  return a.depth == b.depth && a.function == b.function && a.stack == b.stack && a.alive == b.alive &&
         a.param_store == b.param_store && a.loop_exit_counts == b.loop_exit_counts && a.alloca_top == b.alloca_top;
}

template <typename Coefficients>
const Coefficients* find_coefficients(const std::vector<std::pair<std::uint32_t, Coefficients>>& list, std::uint32_t i) {
  for (const auto& [position, c] : list) {
    if (position == i) return &c;
  }
  return nullptr;
}

}  // namespace

void WarpEmulator::Impl::loop_arrival() {
  const Frame& frame = lanes_.frames.back();
  const std::size_t depth = lanes_.frames.size();
  const std::uint32_t header = frame.stack.back().pc;
  const std::size_t stack_size = frame.stack.size();
  const auto matches = [&](const LoopTracker& t) {
    return t.depth == depth && t.function == frame.function && t.header == header && t.stack_size == stack_size;
  };
  for (std::size_t i = loops_.runs.size(); i-- > 0;) {
    if (!matches(loops_.trackers[loops_.runs[i].tracker])) continue;
    while (loops_.runs.size() > i + 1) drop_run();  // loops inside this one are over
    LoopRun& run = loops_.runs.back();
    LoopTracker& t = loops_.trackers[run.tracker];
    ++t.arrivals;
    if (++run.arrivals < t.period) return;
    const int period_before = t.period;
    switch (end_run(run)) {  // pops the run
      case RunEnd::jumped:
        t.failures = 0;
        t.snapshotted = false;
        t.next_attempt = t.arrivals + 1;
        break;
      case RunEnd::soft_failure:
        if (++t.failures >= kMostFailures) break;
        take_snapshot(t.snapshot);  // this iteration's end is the next attempt's start
        t.snapshot.arrival = t.arrivals;
        t.snapshotted = true;
        break;
      case RunEnd::failure:
        ++t.failures;
        t.snapshotted = false;
        t.next_attempt = t.arrivals + (t.period != period_before ? 1 : (std::int64_t{1} << std::min(t.failures, 20)));
        break;
    }
    return;
  }
  std::size_t index = 0;
  while (index < loops_.trackers.size() && !matches(loops_.trackers[index])) ++index;
  if (index == loops_.trackers.size()) {
    LoopTracker t;
    t.depth = depth;
    t.function = frame.function;
    t.header = header;
    t.stack_size = stack_size;
    loops_.trackers.push_back(std::move(t));
  }
  LoopTracker& t = loops_.trackers[index];
  ++t.arrivals;
  if (t.failures >= kMostFailures) return;
  if (t.snapshotted && t.arrivals == t.snapshot.arrival + t.period) {
    t.snapshotted = false;
    if (start_run(index)) return;
    ++loops_.trackers[index].failures;
    loops_.trackers[index].next_attempt = loops_.trackers[index].arrivals + (std::int64_t{1} << std::min(loops_.trackers[index].failures, 20));
    return;
  }
  if (!t.snapshotted && t.arrivals >= t.next_attempt) {
    take_snapshot(t.snapshot);
    t.snapshot.arrival = t.arrivals;
    t.snapshotted = true;
  }
}

bool WarpEmulator::Impl::start_run(std::size_t tracker) {
  if ((symbolic_.allocated | ((1u << kBlockSymbols) - 1)) == (1u << kMaxSymbols) - 1) return false;  // no symbol left
  LoopRun run;
  run.tracker = tracker;
  take_snapshot(run.start);
  const LoopSnapshot& before = loops_.trackers[tracker].snapshot;
  const LoopSnapshot& now = run.start;
  if (!same_shape(before, now)) return false;
  const Frame& frame = lanes_.frames.back();
  const DecodedFunction& f = module_.functions[frame.function];
  const std::vector<std::uint32_t>& list = relevant_list_[frame.function];
  run.delta.assign(list.size() * 32, 0);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (before.known[i] != now.known[i]) return false;
    const int bits = width(f.register_types[list[i]]);
    const auto* c0 = find_coefficients(before.coefficients, static_cast<std::uint32_t>(i));
    const auto* c1 = find_coefficients(now.coefficients, static_cast<std::uint32_t>(i));
    for (std::uint32_t l = now.known[i]; l != 0; l &= l - 1) {
      const auto lane = static_cast<std::size_t>(std::countr_zero(l));
      for (std::uint32_t m = symbolic_.live; m != 0; m &= m - 1) {  // the step must not depend on the other symbols
        const auto v = static_cast<std::size_t>(std::countr_zero(m));
        const std::uint64_t a = c0 == nullptr ? 0 : c0->lane[v][lane], b = c1 == nullptr ? 0 : c1->lane[v][lane];
        if (truncate(a - b, bits) != 0) return false;
      }
      run.delta[i * 32 + lane] = truncate(now.values[i * 32 + lane] - before.values[i * 32 + lane], bits);
    }
  }
  int symbol = kBlockSymbols;
  while ((symbolic_.allocated >> symbol) & 1) ++symbol;
  symbolic_.allocated |= 1u << symbol;
  symbolic_.live |= 1u << symbol;
  symbolic_.symbols[static_cast<std::size_t>(symbol)] = Symbol{true, 0, kLoopSymbolCount, 1, 0};
  for (std::size_t i = 0; i < list.size(); ++i) {
    bool moves = false;
    for (std::size_t lane = 0; lane < 32; ++lane) moves = moves || run.delta[i * 32 + lane] != 0;
    if (!moves) continue;
    Coefficients& c = writable_coefficients(frame.register_base + list[i]);
    std::copy_n(&run.delta[i * 32], 32, c.lane[static_cast<std::size_t>(symbol)].begin());
    c.symbols |= 1u << symbol;
  }
  run.symbol = symbol;
  run.steps = lanes_.steps;
  run.unknown_branches = unknown_branches_.count;
  run.generic_as_global = generic_as_global_.count;
  run.folder = loops_.folder->mark();
  loops_.trackers[tracker].running = true;
  loops_.runs.push_back(std::move(run));
  return true;
}

WarpEmulator::Impl::RunEnd WarpEmulator::Impl::end_run(LoopRun& run) {
  const auto symbol = static_cast<std::size_t>(run.symbol);
  const std::int64_t count = symbolic_.symbols[symbol].count;
  LoopSnapshot now;
  take_snapshot(now);
  const LoopSnapshot& start = run.start;
  const Frame& frame = lanes_.frames.back();
  const DecodedFunction& f = module_.functions[frame.function];
  const std::vector<std::uint32_t>& list = relevant_list_[frame.function];
  bool holds = count > 1 && same_shape(start, now);
  for (std::size_t i = 0; i < list.size() && holds; ++i) {
    if (start.known[i] != now.known[i]) {
      holds = false;
      break;
    }
    const int bits = width(f.register_types[list[i]]);
    const auto* c0 = find_coefficients(start.coefficients, static_cast<std::uint32_t>(i));
    const auto* c1 = find_coefficients(now.coefficients, static_cast<std::uint32_t>(i));
    if (c1 != nullptr && c1->poisoned) holds = false;
    for (std::uint32_t l = now.known[i]; l != 0 && holds; l &= l - 1) {
      const auto lane = static_cast<std::size_t>(std::countr_zero(l));
      const std::uint64_t delta = run.delta[i * 32 + lane];
      for (std::uint32_t m = symbolic_.live; m != 0; m &= m - 1) {
        const auto v = static_cast<std::size_t>(std::countr_zero(m));
        const std::uint64_t a = c0 == nullptr ? 0 : c0->lane[v][lane], b = c1 == nullptr ? 0 : c1->lane[v][lane];
        if (truncate(b - (v == symbol ? delta : a), bits) != 0) holds = false;  // same form, one step on
      }
      if (truncate(now.values[i * 32 + lane] - start.values[i * 32 + lane] - delta, bits) != 0) holds = false;
    }
  }
  if (!holds) {
    drop_run();
    return RunEnd::failure;
  }
  const std::int64_t more = count - 1;
  const std::int64_t per_iteration = lanes_.steps - run.steps;
  std::int64_t added = 0;
  if (__builtin_mul_overflow(per_iteration, more, &added) || lanes_.steps + added > options_.max_steps_per_warp) {
    const DecodedInstruction& at = f.code[frame.stack.back().pc];
    throw InputError(SourceLocation{module_.file, at.pos.line, at.pos.column},
                     "warp " + std::to_string(lanes_.warp) + " ran more than " + std::to_string(options_.max_steps_per_warp) +
                         " instructions (the limit; raise it with --max-steps)");
  }
  if (!loops_.folder->repeat_since(*run.folder, more)) {
    drop_run();
    return RunEnd::soft_failure;
  }
  lanes_.steps += added;
  closed_form_steps_ += added;
  unknown_branches_.count += (unknown_branches_.count - run.unknown_branches) * more;
  generic_as_global_.count += (generic_as_global_.count - run.generic_as_global) * more;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::size_t r = frame.register_base + list[i];
    const int bits = width(f.register_types[list[i]]);
    for (std::uint32_t l = lanes_.known[r]; l != 0; l &= l - 1) {
      const auto lane = static_cast<std::size_t>(std::countr_zero(l));
      lanes_.values[r * 32 + lane] = truncate(lanes_.values[r * 32 + lane] + run.delta[i * 32 + lane] * static_cast<std::uint64_t>(more), bits);
    }
  }
  // Values that nothing observes were not followed through the skipped iterations.
  const std::vector<bool>& relevant = relevant_[frame.function];
  for (std::uint32_t reg = 0; reg < f.register_count; ++reg) {
    if (relevant[reg]) continue;
    lanes_.known[frame.register_base + reg] = 0;
    clear_coefficients(frame.register_base + reg);
  }
  drop_run();
  return RunEnd::jumped;
}

void WarpEmulator::Impl::drop_run() {
  const LoopRun& run = loops_.runs.back();
  const int symbol = run.symbol;
  const std::uint32_t bit = 1u << symbol;
  for (std::size_t r = 0; r < symbolic_.coefficient_slot.size(); ++r) {
    const std::int32_t slot = symbolic_.coefficient_slot[r];
    if (slot < 0) continue;
    Coefficients& c = symbolic_.coefficient_pool[static_cast<std::size_t>(slot)];
    if ((c.symbols & bit) == 0) continue;
    c.lane[static_cast<std::size_t>(symbol)].fill(0);
    c.symbols &= ~bit;
    if (c.symbols == 0) clear_coefficients(r);
  }
  for (auto& [id, slots] : lanes_.param_store) {
    for (Slot& s : slots) {
      if (!s.coefficients || (s.coefficients->symbols & bit) == 0) continue;
      s.coefficients->lane[static_cast<std::size_t>(symbol)].fill(0);
      s.coefficients->symbols &= ~bit;
      if (s.coefficients->symbols == 0) s.coefficients.reset();
    }
  }
  symbolic_.symbols[static_cast<std::size_t>(symbol)] = Symbol{};
  symbolic_.live &= ~bit;
  symbolic_.allocated &= ~bit;
  loops_.trackers[run.tracker].running = false;
  loops_.runs.pop_back();
}

void WarpEmulator::Impl::drop_runs_from(std::size_t depth) {
  while (!loops_.runs.empty() && loops_.trackers[loops_.runs.back().tracker].depth >= depth) drop_run();
  for (LoopTracker& t : loops_.trackers) {
    if (t.depth < depth || t.running) continue;
    t.arrivals = 0;
    t.snapshotted = false;
    t.next_attempt = 2;
    t.failures = 0;
  }
}

void WarpEmulator::Impl::period_hint(int symbol, std::int64_t period) {
  for (LoopRun& run : loops_.runs) {
    if (run.symbol != symbol) continue;
    LoopTracker& t = loops_.trackers[run.tracker];
    t.period = static_cast<int>(std::min<std::int64_t>(kLargestPeriod, std::lcm<std::int64_t>(t.period, period)));
  }
}

}  // namespace warpsim::ptx

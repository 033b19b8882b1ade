#include "warpsim/core/simulate_core.hpp"

#include <algorithm>
#include <unordered_map>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/visit_list.hpp"

namespace warpsim::sim::core {
namespace {

// Checks that the run is within the instruction limit and its time provably fits in int64: the
// clock only advances by calc durations, t_m, and waits for transactions that end at most
// max(d, t_m) <= d + t_m after an issue, so T_c <= sum over warps of (calc + memory + n * t_m).
class Bounds {
 public:
  explicit Bounds(Millicycles tm, const MemoryTiming* memory = nullptr, const PipeTiming* pipes = nullptr)
      : tm_(tm), memory_(memory), pipes_(pipes) {
    if (tm < 0 || tm > isa::kMaxDuration) throw InputError("t_m must be in [0, 10^9] cycles");
  }
  // `warps` more warps that run `program`, whose dynamic counts are `counts`.
  void add(const isa::Program& program, const isa::DynamicCounts& counts, std::int64_t warps) {
    const bool priced = memory_ != nullptr && program.has_memory_annotations();
    visit_engine_ = visit_engine_ && !priced && pipes_ == nullptr && suits_visit_engine(program, counts);
    Millicycles front_end = 0, warp_bound = 0, instructions = 0;
    // Priced accesses: each costs at most its issue, latency and DRAM time (a wait for the DRAM
    // queue is bounded by the other warps' DRAM time, counted in theirs).
    const Millicycles priced_bound = priced || pipes_ ? priced_access_bound(program) : 0;
    if (__builtin_mul_overflow(counts.loads + counts.stores, tm_, &front_end) ||
        __builtin_add_overflow(front_end, priced_bound, &front_end) ||
        __builtin_add_overflow(counts.calc_time, counts.memory_duration, &warp_bound) ||
        __builtin_add_overflow(warp_bound, front_end, &warp_bound) ||
        __builtin_mul_overflow(warp_bound, warps, &warp_bound) ||
        __builtin_mul_overflow(counts.instructions, warps, &instructions) ||
        __builtin_add_overflow(instructions_, instructions, &instructions_) ||
        __builtin_add_overflow(time_, warp_bound, &time_)) {
      throw InputError("simulation too large: its time or instruction count overflows 64 bits");
    }
  }
  // Throws unless within the limit; returns whether every program suits the visit engine.
  bool check(std::int64_t max_warp_instructions) const {
    if (instructions_ > max_warp_instructions) {
      throw InputError("simulation of " + std::to_string(instructions_) +
                       " warp-instructions exceeds the limit of " +
                       std::to_string(max_warp_instructions) + " (core, simulate and launch raise it with --max-instructions)");
    }
    return visit_engine_;
  }

 private:
  // Sum over the dynamic instruction stream of every priced access's issue + latency + DRAM time.
  Millicycles priced_access_bound(const isa::Program& program) const {
    std::vector<std::int64_t> multipliers{1};
    Millicycles total = 0;
    for (const isa::Op& op : program.ops()) {
      if (op.kind == isa::OpKind::repeat) {
        std::int64_t m = 0;
        if (__builtin_mul_overflow(multipliers.back(), op.count, &m)) overflow();
        multipliers.push_back(m);
      } else if (op.kind == isa::OpKind::end) {
        multipliers.pop_back();
      } else if (memory_ != nullptr && isa::is_memory(op.kind) && op.space != isa::MemorySpace::unspecified) {
        const AccessCost c = price_access(op, *memory_);
        Millicycles one = 0;
        if (__builtin_add_overflow(c.issue, c.latency, &one) || __builtin_add_overflow(one, c.dram, &one)) overflow();
        add_times(total, one, multipliers.back());
      } else if (const isa::CalcMix* mix = program.mix_of(op); mix != nullptr && pipes_ != nullptr) {
        // A calc of the pipes model ends at most its issue, every pipe's work and its chain later.
        Millicycles one = 0;
        add_times(one, mix->issue, pipes_->issue);
        for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
          add_times(one, mix->work[p], pipes_->occupancy[p]);
          add_times(one, mix->chain[p] + 1, std::max(pipes_->latency[p], pipes_->occupancy[p]));
        }
        add_times(total, one, multipliers.back());
      }
    }
    return total;
  }
  static void add_times(Millicycles& total, std::int64_t count, Millicycles each) {
    Millicycles product = 0;
    if (__builtin_mul_overflow(count, each, &product) || __builtin_add_overflow(total, product, &total)) overflow();
  }
  [[noreturn]] static void overflow() {
    throw InputError("simulation too large: its time or instruction count overflows 64 bits");
  }

  Millicycles tm_;
  const MemoryTiming* memory_;
  const PipeTiming* pipes_;
  std::int64_t instructions_ = 0;
  Millicycles time_ = 0;
  bool visit_engine_ = true;
};

bool use_visit_engine(const CoreOptions& options, bool programs_suit) {
  const bool round_robin = !options.policy || dynamic_cast<const StrictRoundRobin*>(options.policy);
  return options.visit_engine && programs_suit && round_robin && !options.events && options.pipes == nullptr;
}

Millicycles run_core_package(std::span<const isa::Program* const> programs, Millicycles tm, const CoreOptions& options) {
  CorePackage package(programs, tm, options.events, options.fast_forward, options.memory, options.barriers, options.pipes,
                      options.warp_time);
  if (options.pipes) {
    earliest_ready_first().run(package);
  } else {
    (options.policy ? *options.policy : strict_round_robin()).run(package);
  }
  if (options.periods_skipped) *options.periods_skipped = package.periods_skipped();
  if (options.busy) *options.busy = package.busy();
  return package.finish_time();
}

// Each distinct program compiled once.
Millicycles run_on_visit_engine(std::span<const isa::Program* const> programs, Millicycles tm) {
  std::unordered_map<const isa::Program*, std::size_t> index;
  std::vector<VisitList> compiled;
  std::vector<const VisitList*> lists(programs.size());
  for (const isa::Program* program : programs) {
    if (index.emplace(program, compiled.size()).second) compiled.push_back(compile_visits(*program, tm));
  }
  for (std::size_t w = 0; w < programs.size(); ++w) lists[w] = &compiled[index[programs[w]]];
  return run_visits(lists);
}

}  // namespace

Millicycles simulate_core(std::span<const isa::Program* const> programs, Millicycles tm,
                          const CoreOptions& options) {
  if (static_cast<std::int64_t>(programs.size()) > kMaxWarpsPerCorePackage) {
    throw InputError("more than " + std::to_string(kMaxWarpsPerCorePackage) +
                     " warps on one core package");
  }
  Bounds bounds(tm, options.memory, options.pipes);
  // Warps often share a program, not always side by side (blocks alike): sorted, each program's
  // warps are one run, counted once.
  std::vector<const isa::Program*> by_program(programs.begin(), programs.end());
  std::sort(by_program.begin(), by_program.end());
  for (std::size_t w = 0; w < by_program.size();) {
    std::size_t same = w + 1;
    while (same < by_program.size() && by_program[same] == by_program[w]) ++same;
    bounds.add(*by_program[w], by_program[w]->dynamic_counts(), static_cast<std::int64_t>(same - w));
    w = same;
  }
  if (use_visit_engine(options, bounds.check(options.max_warp_instructions))) {
    if (options.periods_skipped) *options.periods_skipped = 0;
    return run_on_visit_engine(programs, tm);
  }
  return run_core_package(programs, tm, options);
}

Millicycles simulate_core(const isa::Program& program, std::int64_t warps, Millicycles tm,
                          const CoreOptions& options) {
  return CoreSimulator(program, tm, options).run(warps);
}

CoreSimulator::CoreSimulator(const isa::Program& program, Millicycles tm, const CoreOptions& options)
    : program_(program), tm_(tm), options_(options), counts_(program.dynamic_counts()) {
  Bounds(tm).add(program, counts_, 0);  // t_m's range, before any run
}

Millicycles CoreSimulator::run(std::int64_t warps) {
  if (warps < 0 || warps > kMaxWarpsPerCorePackage) {
    throw InputError("warps per core package must be in [0, " +
                     std::to_string(kMaxWarpsPerCorePackage) + "]");
  }
  Bounds bounds(tm_, options_.memory, options_.pipes);
  bounds.add(program_, counts_, warps);
  if (use_visit_engine(options_, bounds.check(options_.max_warp_instructions))) {
    if (options_.periods_skipped) *options_.periods_skipped = 0;
    if (!visits_) visits_ = compile_visits(program_, tm_);
    return run_visits(*visits_, static_cast<std::size_t>(warps));
  }
  const std::vector<const isa::Program*> programs(static_cast<std::size_t>(warps), &program_);
  return run_core_package(programs, tm_, options_);
}

}  // namespace warpsim::sim::core

#include "sim/core/simulate_core.hpp"

#include <unordered_map>

#include "isa/input_error.hpp"
#include "sim/core/visit_list.hpp"

namespace warpsim::sim::core {
namespace {

// Throws unless the run is within the instruction limit and its time provably fits in int64:
// the clock only advances by calc durations, t_m, and waits for transactions that end at most
// max(d, t_m) <= d + t_m after an issue, so T_c <= sum over warps of (calc + memory + n * t_m).
// Returns whether every program suits the visit engine.
bool check_bounds(std::span<const isa::Program* const> programs, Millicycles tm,
                  std::int64_t max_warp_instructions) {
  if (tm < 0 || tm > isa::kMaxDuration) throw InputError("t_m must be in [0, 10^9] cycles");
  std::int64_t instructions = 0;
  Millicycles time_bound = 0;
  const isa::Program* previous = nullptr;
  isa::DynamicCounts counts;
  bool visit_engine = true;
  for (const isa::Program* program : programs) {
    if (program != previous) {  // warps often share a program
      counts = program->dynamic_counts();
      visit_engine = visit_engine && suits_visit_engine(*program, counts);
    }
    previous = program;
    Millicycles front_end = 0, warp_bound = 0;
    if (__builtin_add_overflow(instructions, counts.instructions, &instructions) ||
        __builtin_mul_overflow(counts.loads + counts.stores, tm, &front_end) ||
        __builtin_add_overflow(counts.calc_time, counts.memory_duration, &warp_bound) ||
        __builtin_add_overflow(warp_bound, front_end, &warp_bound) ||
        __builtin_add_overflow(time_bound, warp_bound, &time_bound)) {
      throw InputError("simulation too large: its time or instruction count overflows 64 bits");
    }
  }
  if (instructions > max_warp_instructions) {
    throw InputError("simulation of " + std::to_string(instructions) +
                     " warp-instructions exceeds the limit of " +
                     std::to_string(max_warp_instructions) + " (raise it with --max-instructions)");
  }
  return visit_engine;
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
  const bool suits_visit_engine = check_bounds(programs, tm, options.max_warp_instructions);
  const bool round_robin = !options.policy || dynamic_cast<const StrictRoundRobin*>(options.policy);
  if (options.visit_engine && suits_visit_engine && round_robin && !options.events) {
    if (options.periods_skipped) *options.periods_skipped = 0;
    return run_on_visit_engine(programs, tm);
  }
  CorePackage package(programs, tm, options.events, options.fast_forward);
  (options.policy ? *options.policy : strict_round_robin()).run(package);
  if (options.periods_skipped) *options.periods_skipped = package.periods_skipped();
  return package.finish_time();
}

Millicycles simulate_core(const isa::Program& program, std::int64_t warps, Millicycles tm,
                          const CoreOptions& options) {
  if (warps < 0 || warps > kMaxWarpsPerCorePackage) {
    throw InputError("warps per core package must be in [0, " +
                     std::to_string(kMaxWarpsPerCorePackage) + "]");
  }
  const std::vector<const isa::Program*> programs(static_cast<std::size_t>(warps), &program);
  return simulate_core(programs, tm, options);
}

}  // namespace warpsim::sim::core

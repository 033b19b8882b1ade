// T_c(N_w, t_m, program): the core-package simulation of MODEL.md section 2.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "warpsim/core/core_package.hpp"
#include "warpsim/core/scheduling_policy.hpp"
#include "warpsim/core/visit_list.hpp"

namespace warpsim::sim::core {

// A bound on simulated warp-instructions, so that no input can run for hours. Raise it per
// call (CLI: --max-instructions).
inline constexpr std::int64_t kDefaultMaxWarpInstructions = std::int64_t{1} << 32;
inline constexpr std::int64_t kMaxWarpsPerCorePackage = std::int64_t{1} << 16;

struct CoreOptions {
  const SchedulingPolicy* policy = nullptr;  // null: strict round robin (the paper's)
  std::vector<CoreEvent>* events = nullptr;  // when set, every issued instruction is appended
  std::int64_t max_warp_instructions = kDefaultMaxWarpInstructions;
  bool fast_forward = true;  // steady-state fast-forward (exact); off only to cross-check it
  std::int64_t* periods_skipped = nullptr;  // when set, receives how many periods were skipped
  // The visit engine (visit_list.hpp, exact) for short programs in strict round robin without
  // events; off only to cross-check it.
  bool visit_engine = true;
  // The memory-aware model (docs/model.md): annotated accesses priced by `memory`, barriers held
  // per block of `barriers`. Null: the paper's model, which ignores annotations.
  const MemoryTiming* memory = nullptr;
  BarrierLayout barriers = {};
  // The pipes model (docs/model.md, "Instruction-level timing"): calcs priced by their mixes on
  // `pipes`, issued by earliest_ready_first() (the policy above is then ignored). Unannotated
  // accesses cost t_m on the memory front end and complete after max(d, t_m).
  const PipeTiming* pipes = nullptr;
  // When set, receives the pipes model's busy totals.
  PipeBusy* busy = nullptr;
  // The pipes model: when set, receives where the warps' time went (wait causes, time per
  // instruction); the run then does not fast-forward, so it takes as long as it simulates.
  WarpTime* warp_time = nullptr;
};

// All `warps` warps run `program` (the paper's case). Throws InputError when the program is not
// bound, the work exceeds the instruction limit, or the time could overflow.
Millicycles simulate_core(const isa::Program& program, std::int64_t warps, Millicycles tm,
                          const CoreOptions& options = {});

// T_c of one program at any number of warps, as simulate_core gives it, with the program's
// counts taken and its visits compiled once (a sweep asks for a handful of warp counts).
// `program` must outlive it.
class CoreSimulator {
 public:
  CoreSimulator(const isa::Program& program, Millicycles tm, const CoreOptions& options = {});
  Millicycles run(std::int64_t warps);

 private:
  const isa::Program& program_;
  Millicycles tm_;
  CoreOptions options_;
  isa::DynamicCounts counts_;
  std::optional<VisitList> visits_;
};

// One program per warp.
Millicycles simulate_core(std::span<const isa::Program* const> programs, Millicycles tm,
                          const CoreOptions& options = {});

}  // namespace warpsim::sim::core

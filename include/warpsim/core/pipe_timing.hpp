// The pipes model's prices (docs/model.md, "Instruction-level timing"): per execution pipe of one
// warp scheduler (an SM sub-partition, the pipes model's core package), how long one unit of work
// holds the pipe and how long its result takes. Built per GPU from its architecture's table
// (gpus/pipes/*.toml, sim/workload/pipe_prices.cpp); the core package only reads it.
#pragma once

#include <array>
#include <string_view>
#include <unordered_map>

#include "warpsim/isa/pipes.hpp"
#include "warpsim/isa/program.hpp"
#include "warpsim/isa/time.hpp"

namespace warpsim::sim::core {

struct PipeTiming {
  // Per pipe: how long one warp-instruction (tensor pipes: one unit of isa::kTensorUnitFmas
  // FMAs) holds the scheduler's pipe: 32 lanes over the lanes per scheduler (the initiation
  // interval), rounded up to whole millicycles so that no price is below the table's throughput.
  std::array<isa::Millicycles, isa::kPipeCount> occupancy{};
  // Per pipe: from issue until a dependent instruction can issue.
  std::array<isa::Millicycles, isa::kPipeCount> latency{};
  isa::Millicycles issue = isa::kMillicyclesPerCycle;  // one warp-instruction on the issue port

  bool operator==(const PipeTiming&) const = default;
};

// Where a warp's time went under the pipes model (`warpsim explain`, docs/explain.md): the model's
// analogue of Nsight Compute's warp states. Every cycle of a warp from its start to its last
// issue is in exactly one cause.
enum class WaitCause : std::size_t {
  selected,      // issuing its own instructions (one a cycle)
  dependency,    // waiting for the result of its previous calc: its own work through the pipes, their latencies
  pipe_busy,     // that result came later because a pipe or the issue port was busy with other work
  memory,        // waiting for a loaded value (latency, the memory front end's queue, DRAM)
  barrier,       // at bar.sync until the last warp of its block arrived
  not_selected,  // could issue, but another warp did (one issue a cycle)
};
inline constexpr std::size_t kWaitCauseCount = 6;
std::string_view to_string(WaitCause cause);

// Where the warps of a core package spent their time (`warpsim explain`): per cause, and per
// instruction (by address in its program: waiting to issue it and issuing it), summed over warps
// and executions. Collected only on a run that does not fast-forward (a skipped period has no
// instructions), so every figure is exact.
struct WarpTime {
  std::array<isa::Millicycles, kWaitCauseCount> causes{};
  std::unordered_map<const isa::Op*, isa::Millicycles> per_op;
};

// How long each resource of a core package was busy (for utilisation and the limiter report).
struct PipeBusy {
  isa::Millicycles issue = 0;   // the scheduler's issue port
  isa::Millicycles memory = 0;  // the memory front end (LSU/MIO: t_m per line, shared pass, constant address)
  isa::Millicycles shared = 0;  // the part of `memory` that served shared-memory passes
  isa::Millicycles dram = 0;    // the package's share of DRAM bandwidth
  isa::Millicycles atomic = 0;  // the package's share of the launch's busiest atomic address
  isa::Millicycles l2 = 0;      // the package's share of L2 bandwidth
  std::array<isa::Millicycles, isa::kPipeCount> pipes{};
  bool operator==(const PipeBusy&) const = default;
};

}  // namespace warpsim::sim::core

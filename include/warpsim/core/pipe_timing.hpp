// The pipes model's prices (docs/model.md, "Instruction-level timing"): per execution pipe of one
// warp scheduler (an SM sub-partition, the pipes model's core package), how long one unit of work
// holds the pipe and how long its result takes. Built per GPU from its architecture's table
// (gpus/pipes/*.toml, sim/workload/pipe_prices.cpp); the core package only reads it.
#pragma once

#include <array>

#include "warpsim/isa/pipes.hpp"
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

// How long each resource of a core package was busy (for utilisation and the limiter report).
struct PipeBusy {
  isa::Millicycles issue = 0;   // the scheduler's issue port
  isa::Millicycles memory = 0;  // the memory front end (LSU/MIO: t_m per line, shared pass, constant address)
  isa::Millicycles shared = 0;  // the part of `memory` that served shared-memory passes
  isa::Millicycles dram = 0;    // the package's share of DRAM bandwidth
  std::array<isa::Millicycles, isa::kPipeCount> pipes{};
  bool operator==(const PipeBusy&) const = default;
};

}  // namespace warpsim::sim::core

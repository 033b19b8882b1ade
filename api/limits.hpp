// What limits a prediction under the pipes model (docs/model.md, "What limits it"), for simulate.
#pragma once

#include <string>
#include <vector>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// A share in [0, 1] as a percentage with one decimal, for text: 0.9302 -> "93%", 0.786 -> "78.6%".
std::string percent(double share);

// A utilisation key as the limiter names it: "memory" -> "memory front end", "fp64" -> "fp64 pipe".
std::string resource_name(const std::string& key);

// Runs the core package whose warps run `programs` once more with its busy totals and names the
// binding limit of `result` (its T_k, t_p and runs). Only under the pipes model (engine.pipes set).
Limits limits_of(const std::vector<const isa::Program*>& programs, isa::Millicycles tm, const sim::core::CoreOptions& engine,
                 const SimulateResult& result);

}  // namespace warpsim::api

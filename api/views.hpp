// The timeline and trace views of one core package's run, for `core` and `simulate`.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// Simulates the core package whose warps run `programs` (one each) once more with its events
// recorded and renders the views asked for; none asked for, renders nothing.
Views render_views(const std::vector<const isa::Program*>& programs, isa::Millicycles tm, const std::string& title,
                   const sim::core::CoreOptions& engine, bool timeline, bool trace);

// A result's cycles back in millicycles, exactly: results hold cycles as doubles, which are exact
// for thousandths below 2^53 / 1000 cycles.
inline isa::Millicycles millicycles(double cycles) { return static_cast<isa::Millicycles>(std::llround(cycles * 1000.0)); }

// x * y * z, each positive, without overflow; `what` names the launch component in the error.
std::int64_t count(Dim3 d, const std::string& what);

// Engine options with the instruction limit.
sim::core::CoreOptions core_options(const std::optional<std::int64_t>& max_instructions);

// A .kp program with its parameters bound (whole non-negative values; the CLI's --param rules).
isa::Program load_bound_program(const std::string& path, const Parameters& params);

}  // namespace warpsim::api

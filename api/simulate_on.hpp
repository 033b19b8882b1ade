// simulate on a profile already loaded (and perhaps changed: what_if, compare_gpus).
#pragma once

#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// warpsim::simulate with `gpu` in place of request.gpu.
SimulateResult simulate_on(const SimulateRequest& request, const gpus::Profile& gpu);

}  // namespace warpsim::api

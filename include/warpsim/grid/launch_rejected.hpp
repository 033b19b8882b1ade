// The error that says a launch cannot run on the GPU at all (its block, its grid, or an occupancy
// of no block per SM), as opposed to bad input elsewhere (a file, a parameter, a GPU id): the
// block-size search (the facade's launch_search_api.cpp) lists such a size as illegal, with the message as the
// reason, and lets every other error through. Everyone else sees a plain InputError.
#pragma once

#include <utility>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::grid {

class LaunchRejected : public InputError {
 public:
  explicit LaunchRejected(const InputError& error) : InputError(error) {}
};

// Runs `check` (validate_launch, the occupancy) and rethrows its InputError as LaunchRejected.
template <typename Check>
decltype(auto) rejecting_launch(Check&& check) {
  try {
    return std::forward<Check>(check)();
  } catch (const LaunchRejected&) {
    throw;
  } catch (const InputError& error) {
    throw LaunchRejected(error);
  }
}

}  // namespace warpsim::sim::grid

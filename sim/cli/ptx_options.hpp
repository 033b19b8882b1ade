// The PTX frontend's options of the commands that take PTX (simulate, lower, occupancy).
#pragma once

#include <string>

#include "sim/cli/cli_support.hpp"

namespace warpsim::cli {

bool is_ptx_path(const std::string& path);

// --kernel, --unknown-trips, --unknown-branch, --max-steps, --emulate-all, --load-cycles, --store-cycles.
void add_ptx_options(po::options_description& options);
// Those options as the facade takes them.
PtxOptions ptx_options(const po::variables_map& values);

}  // namespace warpsim::cli

// The PTX frontend's options of the commands that take PTX (simulate, lower, occupancy), and the
// simulation options simulate and launch --search share.
#pragma once

#include <string>

#include "cli_support.hpp"

namespace warpsim::cli {

bool is_ptx_path(const std::string& path);

// --nvcc-flags's help: a .cu kernel is compiled with nvcc (simulate, lower, launch --search, occupancy).
inline constexpr const char* kNvccFlagsHelp =
    "a CUDA source kernel (.cu, compiled with nvcc -ptx -lineinfo for the GPU's architecture where nvcc is on PATH or "
    "$WARPSIM_NVCC; cached): extra nvcc flags, e.g. \"-DN=4 -I include\", split as a shell would (none is run)";
// --nvcc-flags, empty when not given.
std::string nvcc_flags(const po::variables_map& values);

// --kernel, --unknown-trips, --unknown-branch, --max-steps, --emulate-all, --load-cycles, --store-cycles,
// --nvcc-flags, --max-seconds.
void add_ptx_options(po::options_description& options);
// --max-seconds, when given: the run stops after so long (progress.hpp's stop_after). Call it
// just before the work, after every other option was read.
void start_time_limit(const po::variables_map& values);
// Those options as the facade takes them.
PtxOptions ptx_options(const po::variables_map& values);

// The simulation the options describe, without its launch: PROGRAM (when given), --gpu, --tp,
// --tm, --param, --model, --max-instructions, the PTX options, --regs and --ptxas.
SimulateRequest simulation_request(const po::variables_map& values);

}  // namespace warpsim::cli

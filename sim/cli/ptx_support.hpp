// What the subcommands that take PTX share: the PTX options, lowering a .ptx file for the
// requested launch, and reporting the frontend's warnings on stderr.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "frontends/ptx/lowering.hpp"
#include "sim/cli/cli_support.hpp"

namespace warpsim::cli {

bool is_ptx_path(const std::string& path);

// --kernel, --unknown-trips, --unknown-branch, --max-steps, --emulate-all, --load-cycles, --store-cycles.
void add_ptx_options(po::options_description& options);

// Parses, decodes and lowers the .ptx named by `program` for --grid/--block and --param, and
// prints its warnings to stderr. A lowering that takes a while shows a progress line (ProgressLine);
// Ctrl-C stops it with ptx::Interrupted.
ptx::LoweredKernel lower_ptx_program(const po::variables_map& values);

// The parameters as bound, in order: PTX name -> the value given (a JSON number), "pointer" for
// a pointer's synthetic address, null for a scalar left unknown (or a struct passed by value).
nlohmann::ordered_json parameters_json(const ptx::BoundParameters& bound);
// The same as one line of text: "parameters: 0 = 64, 1 = unknown, 2 = pointer" (with C++ names where known).
std::string parameters_text(const ptx::BoundParameters& bound);

// The per-program summary and structure written by `warpsim lower --format json`.
nlohmann::ordered_json lowered_json(const ptx::LoweredKernel& kernel, const po::variables_map& values);
// The .kp text of every distinct warp program, annotated with comments, after a comment line per
// assumption.
std::string lowered_kp(const ptx::LoweredKernel& kernel, const po::variables_map& values);

// The kernel's assumptions as JSON objects {kind, message, file, line, column, count}, and as
// text lines "KIND: MESSAGE (count N, first at FILE:LINE:COL)"; `file` is the .ptx path.
nlohmann::ordered_json assumptions_json(const ptx::LoweredKernel& kernel, const std::string& file);
std::vector<std::string> assumption_lines(const ptx::LoweredKernel& kernel, const std::string& file);

}  // namespace warpsim::cli

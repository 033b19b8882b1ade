// The facade's PTX frontend: lowering a .ptx file with the facade's options, and the reports
// `simulate` and `lower` give of a lowered kernel (JSON and text).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "warpsim/ptx/emulator.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// The facade's Cancelled for the frontend's ptx::Interrupted: in `file`, at the line where a warp was running.
Cancelled cancelled(const ptx::Interrupted& stop, const std::string& file);

// Runs `work`, the frontend's ptx::Interrupted becoming the facade's Cancelled: callers of the
// facade see no frontend internals.
template <typename Work>
decltype(auto) cancellable(Work&& work, const std::string& file = {}) {
  try {
    return std::forward<Work>(work)();
  } catch (const ptx::Interrupted& stop) {
    throw cancelled(stop, file);
  }
}

// The frontend's options for the facade's: InputError for a bad --unknown-trips, --load-cycles or
// --store-cycles. The lowering reports to control.progress and stops at control.cancel.
ptx::LoweringOptions lowering_options(Dim3 grid, Dim3 block, const Parameters& params, const PtxOptions& options,
                                      const Control& control);

// Parses, decodes and lowers `path` for the launch and parameters. The lowering's warnings go to
// `warnings`, one line each. Stops with Cancelled when control.cancel is set.
// `sass` (with its compute capability and identity in `sass_options`) prices each PTX instruction
// by the SASS ptxas made of it (docs/sass.md); null: the PTX's own counts.
ptx::LoweredKernel lower_ptx(const std::string& path, Dim3 grid, Dim3 block, const Parameters& params,
                             const PtxOptions& options, const Control& control, std::vector<std::string>& warnings,
                             const ptx::LoweringOptions* sass_options = nullptr);

// The parameters as bound, in order: PTX name -> the value given (a JSON number), "pointer" for
// a pointer's synthetic address, null for a scalar left unknown (or a struct passed by value).
nlohmann::ordered_json parameters_json(const ptx::BoundParameters& bound);
// The same as one line of text: "parameters: 0 = 64, 1 = unknown, 2 = pointer" (with C++ names where known).
std::string parameters_text(const ptx::BoundParameters& bound);

// The kernel's assumptions, each with `file` (the .ptx path), and as text lines
// "KIND: MESSAGE (count N, first at FILE:LINE:COL)".
std::vector<Assumption> assumptions(const ptx::LoweredKernel& kernel, const std::string& file);
nlohmann::ordered_json assumptions_json(const std::vector<Assumption>& assumptions);
std::vector<std::string> assumption_lines(const std::vector<Assumption>& assumptions);

// The per-program summary and structure written by `warpsim lower --format json`.
nlohmann::ordered_json lowered_json(const ptx::LoweredKernel& kernel, const std::string& file);
// The .kp text of every distinct warp program, annotated with comments, after a comment line per
// assumption.
std::string lowered_kp(const ptx::LoweredKernel& kernel, const std::string& file);

// A number of cycles given to the API as a double, exactly (at most three decimals); `what`
// names it in the error.
isa::Millicycles exact_cycles(double cycles, const std::string& what);

}  // namespace warpsim::api

// The facade's report of which instruction stream the pipes model timed (docs/sass.md): the SASS,
// with its tools and how much of the kernel it priced, or PTX order with the reason.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "warpsim/ptx/sass_costs.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/sass_stream.hpp"

namespace warpsim::api {

InstructionStream instruction_stream(const sim::workload::SassStream& stream, const std::optional<ptx::SassCoverage>& coverage);
nlohmann::ordered_json instruction_stream_json(const InstructionStream& stream);
// "instruction stream: SASS sm_80 (ptxas 13.0.88, nvdisasm 13.5.37): 412 instructions; 2 of 9 PTX
// blocks unrolled, 0 priced from the PTX table" (PTX order is a warning of the prediction's).
std::string instruction_stream_line(const InstructionStream& stream);

}  // namespace warpsim::api

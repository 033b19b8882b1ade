#include "instruction_stream.hpp"

namespace warpsim::api {

InstructionStream instruction_stream(const sim::workload::SassStream& stream, const std::optional<ptx::SassCoverage>& coverage) {
  InstructionStream s;
  s.timed = stream.listing && coverage ? "sass" : "ptx";
  s.note = stream.note;
  s.ptxas_version = stream.ptxas_version;
  s.nvdisasm_version = stream.nvdisasm_version;
  if (s.timed == "sass") {
    s.arch = stream.arch;
    s.sass_instructions = coverage->sass_instructions;
    s.without_line = coverage->without_line;
    s.blocks = coverage->blocks;
    s.unmapped_blocks = coverage->unmapped_blocks;
    s.unrolled_blocks = coverage->unrolled_blocks;
    s.loads = coverage->loads;
  }
  return s;
}

nlohmann::ordered_json instruction_stream_json(const InstructionStream& s) {
  nlohmann::ordered_json out;
  out["timed"] = s.timed;
  out["arch"] = s.arch;
  out["ptxas_version"] = s.ptxas_version;
  out["nvdisasm_version"] = s.nvdisasm_version;
  out["note"] = s.note;
  out["sass_instructions"] = s.sass_instructions;
  out["without_line"] = s.without_line;
  out["blocks"] = s.blocks;
  out["unmapped_blocks"] = s.unmapped_blocks;
  out["unrolled_blocks"] = s.unrolled_blocks;
  out["loads"] = s.loads;
  return out;
}

std::string instruction_stream_line(const InstructionStream& s) {
  if (s.timed != "sass") return "instruction stream: PTX order (" + s.note + ")";
  std::string line = "instruction stream: SASS " + s.arch + " (ptxas " + (s.ptxas_version.empty() ? "?" : s.ptxas_version) +
                     ", nvdisasm " + (s.nvdisasm_version.empty() ? "?" : s.nvdisasm_version) + "): " +
                     std::to_string(s.sass_instructions) + " instructions; " + std::to_string(s.unrolled_blocks) + " of " +
                     std::to_string(s.blocks) + " PTX blocks unrolled, " + std::to_string(s.unmapped_blocks) +
                     " priced from the PTX table";
  if (!s.note.empty()) line += "; " + s.note;
  return line;
}

}  // namespace warpsim::api

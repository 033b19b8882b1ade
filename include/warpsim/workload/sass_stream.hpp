// The SASS that ptxas emits for a PTX kernel, as the pipes model's timed instruction stream
// (docs/sass.md): the PTX with a line marker per instruction (ptx/line_markers.hpp) through
// `ptxas -lineinfo` and `nvdisasm -c -hex -g`, cached on disk by content. Never required: without
// the tools, or where they fail, the stream is PTX order and `note` says why.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "warpsim/sass/listing.hpp"
#include "warpsim/workload/ptx_source.hpp"

namespace warpsim::sim::workload {

struct SassTools {
  std::string ptxas = "ptxas";        // or "none"
  std::string nvdisasm = "nvdisasm";  // or "none"
  bool use_cache = true;              // false: --no-cache
};

struct SassStream {
  std::shared_ptr<const sass::Listing> listing;  // null: the PTX-order stream is timed
  std::string arch;                  // the SASS's architecture: "sm_80" (sm_75 standing in below Turing)
  int compute_capability = 0;        // its opcode table's: 80
  std::string ptxas_version;         // "13.0.88"
  std::string nvdisasm_version;      // "13.5.37"
  std::optional<std::int64_t> registers;  // ptxas -v's count for the entry, from the same run
  std::string identity;              // the listing's content hash (the lowering's cache key), "" without one
  std::string note;                  // why PTX order, or which architecture stands in; "" otherwise
};

// The oldest architecture ptxas of CUDA 13 compiles for: it stands in for older GPUs (the SASS
// here, the register count in ptxas_registers.cpp).
inline constexpr int kOldestPtxasArch = 75;

// The SASS of `entry` for a GPU of `compute_capability` ("8.0").
SassStream sass_stream(const SassTools& tools, const PtxSource& source, const std::string& entry,
                       const std::string& compute_capability);

}  // namespace warpsim::sim::workload

// A kernel given as CUDA source (.cu) to simulate, lower or occupancy: the PTX nvcc writes for it
// (sim::workload::compile_cuda, cached), and how the reports show the compilation.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "warpsim/warpsim.hpp"

namespace warpsim::api {

struct KernelInput {
  std::string ptx_path;                   // the file to read as PTX
  std::optional<CompiledSource> compiled; // set for a .cu
};

// `path` itself, or for a .cu the PTX compiled for compute capability "X.Y" with `nvcc_flags`
// (split as a shell would). Error: --nvcc-flags given for a kernel that is not a .cu.
KernelInput kernel_input(const std::string& path, const std::string& compute_capability, const std::string& nvcc_flags,
                         bool use_cache);

// {"command", "cached", "arch"[, "note"]}.
nlohmann::ordered_json compiled_json(const CompiledSource& compiled);
// "compiled: COMMAND (cached)\n", and the stand-in's note on a line of its own.
std::string compiled_text(const CompiledSource& compiled);

}  // namespace warpsim::api

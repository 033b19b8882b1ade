// CUDA source (.cu) as a kernel: compiled once with nvcc to PTX for an architecture, the PTX kept
// in the on-disk cache beside ptxas's answers (ptxas_cache.hpp), keyed on what decides nvcc's
// output: the source text, the flags, the architecture and `nvcc --version`. Headers the source
// includes are not part of the key (docs/cli.md: --no-cache after editing one).
#pragma once

#include <string>
#include <vector>

namespace warpsim::sim::workload {

struct NvccOptions {
  std::vector<std::string> flags;  // extra arguments (defines, include folders), as split_nvcc_flags gives them
  bool use_cache = true;           // false (--no-cache): compile again, then store the new PTX
};

struct CompiledCuda {
  std::string ptx_path;  // the PTX nvcc wrote, in the cache folder
  std::string command;   // the nvcc command, as a shell would take it
  bool cached = false;   // the PTX of an earlier run, nvcc not run
  std::string arch;      // the architecture compiled for, e.g. "sm_90"
  std::string note;      // when another architecture stood in for the GPU's (nvcc 13 starts at sm_75)
};

// Where a PTX workload's kernel came from when it is CUDA source: compiled again for each GPU
// architecture it is predicted on (an empty path: the workload is PTX).
struct CudaOrigin {
  std::string path;
  NvccOptions nvcc;
};

// A path ending in .cu: compiled with nvcc where a kernel is expected.
bool is_cuda_source(const std::string& path);

// The nvcc to run: $WARPSIM_NVCC, else `nvcc` on PATH.
std::string nvcc_program();

// "-DN=4 -I 'my dir'" split as a POSIX shell splits words (single and double quotes, backslash),
// without running one; InputError naming --nvcc-flags for an unclosed quote.
std::vector<std::string> split_nvcc_flags(const std::string& text);

// Compiles `cu_path` with `nvcc -ptx -lineinfo -arch=sm_XY FLAGS` for compute capability "X.Y"
// (no shell; at most 5 minutes), or takes the PTX of an earlier identical run from the cache. An
// architecture this nvcc does not know (below sm_75 for nvcc 13) is compiled for sm_75, and
// `note` says so. Without nvcc: the InputError of reject_cuda_source (run nvcc -ptx first).
// Source that nvcc rejects: InputError at FILE:LINE with nvcc's first error.
CompiledCuda compile_cuda(const std::string& cu_path, const std::string& compute_capability, const NvccOptions& options);

}  // namespace warpsim::sim::workload

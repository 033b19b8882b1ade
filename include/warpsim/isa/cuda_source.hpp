// Recognising CUDA C++ source given where PTX or a kernel program is expected, so that the error
// says what to run instead of pointing at the first character that PTX does not allow.
#pragma once

#include <string>
#include <string_view>

namespace warpsim {

// A name ending in .cu or .cuh.
bool is_cuda_path(const std::string& path);

// Throws InputError at FILE:1 ("this is CUDA source, not PTX: run `nvcc -ptx ...` first") for a
// file named *.cu or *.cuh, or whose text has a line starting `#include <` or `#include "`, or
// a `__global__` before any comment on its line.
void reject_cuda_source(const std::string& path, std::string_view text);

}  // namespace warpsim

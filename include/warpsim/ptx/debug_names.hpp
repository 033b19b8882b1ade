// C++ parameter names from the DWARF that `nvcc -G` writes into PTX. Optimised and -lineinfo
// builds keep no .debug_info, so their parameters have PTX names only.
#pragma once

#include <string>
#include <vector>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

// The C++ names of the parameters of the function whose PTX name is `ptx_name`, in order (an
// unnamed parameter gets ""), from the DW_TAG_formal_parameter children of its DW_TAG_subprogram
// (names inline or in .debug_str). Empty when the module has no usable debug information for it,
// or when the count differs from `parameter_count`.
std::vector<std::string> cxx_parameter_names(const Module& module, const std::string& ptx_name,
                                             std::size_t parameter_count);

}  // namespace warpsim::ptx

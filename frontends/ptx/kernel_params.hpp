// Binding `--param` values to a PTX kernel's parameters. PTX keeps no C++ parameter names, so a
// value binds by PTX parameter name (`_Z11mtx_mul_veciPfS_S__param_0=102`), by position
// (`0=102`), or, for any other name, to the next unbound scalar parameter in order
// (`N=102` binds parameter 0 of mtx_mul_vec(int N, float*, float*, float*)). Pointer parameters
// need no value: each gets its own synthetic base address (kernel_ir.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontends/ptx/ast.hpp"
#include "frontends/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

using ParameterEntries = std::vector<std::pair<std::string, std::string>>;  // NAME, VALUE in command-line order

struct KernelParameter {
  std::string ptx_name;
  std::string cxx_type;  // from the demangled name, e.g. "float*"; empty for extern "C" kernels
  ScalarType type;
  bool is_pointer = false;
  bool is_aggregate = false;  // a struct passed by value: its contents stay unknown
};

// The parameters of `function`, with pointers recognised from the demangled signature, the
// `.ptr` attribute, or (for extern "C" kernels) a 64-bit integer type.
std::vector<KernelParameter> describe_parameters(const Function& function);

// The value of every parameter (std::nullopt for aggregates). Throws InputError for a scalar
// without a value, a name that matches nothing, a value given twice or a malformed value.
std::vector<std::optional<std::uint64_t>> bind_parameters(const Function& function, const ParameterEntries& entries);

// "mtx_mul_vec" for "_Z11mtx_mul_veciPfS_S_"; the name itself when it is not mangled.
std::string short_kernel_name(const std::string& ptx_name);

}  // namespace warpsim::ptx

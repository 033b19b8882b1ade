// Binding `--param` values to a PTX kernel's parameters. A value names its parameter by PTX name
// (`_Z11mtx_mul_veciPfS_S__param_0=102`), by position (`0=102`), or by C++ name (`N=102`) where
// the PTX keeps it: only `nvcc -G` builds do (debug_names.hpp). Any other name is an error that
// lists the parameters. Pointer parameters need no value: each gets its own synthetic base
// address (kernel_ir.hpp). A scalar needs a value only when a branch, an address or a call
// depends on it (relevance.hpp); the others stay unknown unless given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "warpsim/ptx_syntax/ast.hpp"
#include "warpsim/ptx/input_contents.hpp"
#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

using ParameterEntries = std::vector<std::pair<std::string, std::string>>;  // NAME, VALUE in command-line order

struct KernelParameter {
  std::string ptx_name;
  std::string cxx_name;  // from a -G build's debug information; empty otherwise
  std::string cxx_type;  // from the demangled name, e.g. "float*"; empty for extern "C" kernels
  ScalarType type;
  bool is_pointer = false;
  bool is_aggregate = false;  // a struct passed by value: its contents stay unknown
};

// A value as given with --param, parsed by its parameter's type: std::int64_t for signed
// integers, std::uint64_t for unsigned ones, double for floats.
using ParameterNumber = std::variant<std::int64_t, std::uint64_t, double>;

// What binding decided, per parameter in order.
struct BoundParameters {
  std::vector<KernelParameter> parameters;
  // What the emulator reads: the value's bits, a pointer's synthetic base address, or
  // std::nullopt (unknown) for aggregates and for scalars that need no value and got none.
  std::vector<std::optional<std::uint64_t>> values;
  std::vector<std::optional<ParameterNumber>> given;  // the --param value; std::nullopt when none was given
};

// The parameters of `function`, with pointers recognised from the demangled signature, the
// `.ptr` attribute, or (for extern "C" kernels) a 64-bit integer type.
std::vector<KernelParameter> describe_parameters(const Function& function);
// The same, with the C++ names the module's debug information gives (none unless built with -G).
std::vector<KernelParameter> describe_parameters(const Module& module, const Function& function);

// "int" (the C++ type), or ".u32" (the PTX type) when the kernel's name does not demangle.
std::string type_name(const KernelParameter& parameter);

// The position of the parameter `name` names: its PTX name, its position or its C++ name.
std::optional<std::size_t> find_parameter(const std::vector<KernelParameter>& parameters, const std::string& name);
// "kernel K has no parameter 'a'; ..., listing every parameter as `0: PTX_NAME (TYPE NAME)`.
std::string no_such_parameter(const std::vector<KernelParameter>& parameters, const std::string& kernel,
                              const std::string& name);

// Binds `entries` to the parameters of `module.functions[entry]` (`decoded` is its decoded form,
// for which parameters are needed). Throws InputError for a name that matches no parameter, a
// value given twice, a malformed value or one outside its type's range, and for a needed
// scalar parameter without a value.
BoundParameters bind_parameters(const Module& module, const DecodedModule& decoded, std::uint32_t entry,
                                const ParameterEntries& entries);

// The stated contents per parameter position (nullopt where none). Throws InputError for a name
// that matches no parameter, a parameter named twice, or one that is not a pointer.
std::vector<std::optional<InputContents>> bind_inputs(const BoundParameters& bound, const std::string& kernel,
                                                      const InputEntries& entries);

// "mtx_mul_vec" for "_Z11mtx_mul_veciPfS_S_"; the name itself when it is not mangled.
std::string short_kernel_name(const std::string& ptx_name);

}  // namespace warpsim::ptx

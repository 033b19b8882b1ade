// Reading a `--param` value for a kernel parameter: a whole number (decimal or 0x hex, with an
// optional '-') for integer types, a decimal for floats, checked against the type's range.
#pragma once

#include <cstdint>
#include <string>

#include "warpsim/ptx/kernel_params.hpp"

namespace warpsim::ptx {

struct ParsedValue {
  ParameterNumber number;  // as given
  std::uint64_t bits = 0;  // as the kernel receives it (the parameter's width, two's complement)
};

// Whether `parameter` holds negative numbers: by its C++ type when that is a built-in integer
// type (nvcc declares an `int` parameter `.u32`), else by its PTX type (.s* signed, .u*/.b* not).
bool is_signed_parameter(const KernelParameter& parameter);

// Throws InputError "--param NAME=VALUE: ..." for a malformed value, an integer outside the
// parameter's range, or a finite float beyond the largest finite value of its width.
ParsedValue parse_parameter_value(const KernelParameter& parameter, const std::string& name,
                                  const std::string& text);

}  // namespace warpsim::ptx

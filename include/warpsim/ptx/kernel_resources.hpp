// What a kernel asks of an SM that the PTX itself tells: its static shared memory.
#pragma once

#include <cstdint>
#include <string>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

// Bytes of static shared memory of the entry `kernel` (mangled or short name; empty: the only
// entry): the `.shared` variables declared in its body or in a function it calls, then the
// module-scope `.shared` variables any of them names (nvcc puts a kernel's `__shared__` arrays at
// module scope), in declaration order, each at its alignment. An unsized `.extern .shared ... []`
// array is dynamic shared memory and counts nothing. ptxas may lay variables out in another
// order, so this can differ from its `smem` figure by alignment padding. Throws InputError for an
// unknown entry.
std::int64_t static_shared_bytes(const Module& module, const std::string& kernel);

}  // namespace warpsim::ptx

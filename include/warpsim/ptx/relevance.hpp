// Which values can change what a warp executes. The emulator needs a value exactly when it can
// reach control flow (a branch, a guard, a loop bound), a memory address (sectors and spaces), a
// warp-level operand (shfl, vote) or a call; every other value is arithmetic whose result only
// flows to memory, and may stay unknown without changing the warp's instruction stream.
#pragma once

#include <cstdint>
#include <vector>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// relevant[r] is true when register r of `function` can reach a guard, the condition or index of
// bra/brx, the address of a memory access in any space but param, an operand of shfl or vote,
// the size of cp.async or alloca, or a value stored to the param space (call arguments and
// return values). Flow-insensitive: a register counts when any instruction writing it has a
// relevant destination, whatever the path; so the answer errs on the side of "relevant".
// Linear in the function's size. Indexed by register number, size function.register_count.
std::vector<bool> relevant_registers(const DecodedFunction& function);

// The same for every function of `module` (indexed like module.functions), with a value stored
// to the param space counted only where what reads it back counts: an argument where the callee
// reads that parameter into a relevant register (or takes its address), a return value where a
// caller reads it so; arguments of calls the emulator does not follow (external, indirect) not
// at all. A fixed point over the call graph (recursion included).
std::vector<std::vector<bool>> relevant_registers(const DecodedModule& module);

// needed[i] is true when kernel parameter i of `module.functions[entry]` is read into a relevant
// register (relevant_registers(module)), or its address is taken (`mov %rd1, k_param_0;`), which the analysis does not follow.
std::vector<bool> needed_parameters(const DecodedModule& module, std::uint32_t entry);

}  // namespace warpsim::ptx

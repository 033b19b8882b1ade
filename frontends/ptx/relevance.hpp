// Which registers can change what a warp issues. A register is relevant when its value can reach
// a branch condition, a predicate guard, a memory address, a shuffle or vote operand, a `brx.idx`
// index, a copy or alloca size, or a value passed through the param space (calls); the rest only
// feed arithmetic whose results are never observed. The fast lowering may lose track of the
// values of irrelevant registers without changing any warp's instruction stream.
#pragma once

#include <cstdint>
#include <vector>

#include "frontends/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

// relevant[r] for every register r of `function`: a flow-insensitive backwards closure over the
// decoded instructions (conservative: a register relevant at one use is relevant everywhere).
std::vector<bool> relevant_registers(const DecodedFunction& function);

}  // namespace warpsim::ptx

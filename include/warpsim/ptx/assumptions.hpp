// What the emulation of a launch assumed where the PTX does not say or warpsim does not model,
// so that `lower` and `simulate` can list it next to their results (docs/ptx.md, Assumptions).
// Static kinds come from the instructions of the kernel and the functions it calls, dynamic ones
// from the emulator's reports; a kind is listed only when it occurred.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/ptx/emulator.hpp"
#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

enum class AssumptionKind : std::uint8_t {
  unknown_branch,       // dynamic: branch decisions on unknown values, and the policy applied
  generic_as_global,    // dynamic: generic accesses whose address did not tell the space
  unmodelled_opcode,    // per opcode or form ("mma", "div.approx"): results unknown
  unknown_opcode,       // per opcode warpsim does not know: results unknown
  external_call,        // per external callee, and indirect calls: one calc instruction
  barrier,              // bar.arrive, barriers with a thread count: one calc instruction, each warp on its own
  memory_values,        // loads: the values read are unknown, stores are not tracked
  unknown_sectors,      // wmma fragments and tensor copies: sectors not computed
  atomic_as_access,     // global atomics timed as loads, reductions as stores
  aggregate_parameter,  // per struct kernel parameter that is read: unknown
  special_register,     // per special register with no value or an assumed one (%smid is 0)
  trap_as_ret,          // trap ends the lanes as ret does
};

struct Assumption {
  AssumptionKind kind;
  std::string message;
  Position first;      // the first instruction (static kinds) or occurrence (dynamic kinds)
  std::int64_t count;  // static kinds: instructions in the code; dynamic kinds: occurrences
};

// The name used in JSON and text ("unmodelled_opcode").
std::string_view to_string(AssumptionKind kind);

// What happened to branches on unknown values under `options`, after "N branch decisions".
std::string unknown_branch_policy(const EmulatorOptions& options);

// The assumptions of kernel `entry` (its code and the functions it calls) and of its emulation,
// by kind, then by first position.
std::vector<Assumption> collect_assumptions(const DecodedModule& module, std::uint32_t entry,
                                            const UnknownBranchReport& unknown_branches,
                                            const GenericAsGlobalReport& generic_as_global,
                                            const EmulatorOptions& options);

}  // namespace warpsim::ptx

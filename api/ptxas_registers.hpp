// Registers per thread of a PTX kernel as ptxas allocates them (`ptxas -v`), when ptxas can be run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <vector>

#include "warpsim/gpus/profile.hpp"

namespace warpsim::api {

struct PtxasRegisters {
  std::optional<std::int64_t> registers;  // nullopt: unknown, `note` says why
  std::string arch;                       // the -arch ptxas compiled for, e.g. "sm_80"
  std::string note;                       // why none, or why another arch than the GPU's
};

// Runs `ptxas -arch=sm_XY -v FILE -o /dev/null` (no shell, at most 60 s) for compute capability
// "X.Y" and reads "Used N registers" of the entry `entry` (its PTX name). When this ptxas does
// not know sm_XY (CUDA 13 starts at sm_75), compiles for sm_75 instead and says so in `note`.
PtxasRegisters ptxas_registers(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                               const std::string& compute_capability);

// Where a figure of the kernel came from, for the report.
struct Sourced {
  std::int64_t value = 0;
  std::string source;
};

// `regs` (--regs) when given; else ptxas on `ptx_path` (when not null and `ptxas` is not "none");
// else the default (sim::workload::kDefaultRegistersPerThread). With `warnings`, says there why
// the default was taken or why ptxas compiled for another architecture.
Sourced registers_per_thread(const std::optional<std::int64_t>& regs, const std::string& ptxas, const gpus::Profile& gpu,
                             const std::string* ptx_path, const std::string& entry, std::vector<std::string>* warnings);

// The registers of `entry` in ptxas -v output, if it lists them.
std::optional<std::int64_t> parse_ptxas_registers(const std::string& output, const std::string& entry);

}  // namespace warpsim::api

// Registers per thread of a PTX kernel as ptxas allocates them (`ptxas -v`), when ptxas can be
// run: once per PTX text, entry, architecture and ptxas, its answer kept in an on-disk cache
// (ptxas_cache.hpp) so that a second call, a sweep or a calibration does not run it again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"

namespace warpsim::sim::workload {

struct PtxasRegisters {
  std::optional<std::int64_t> registers;  // nullopt: unknown, `note` says why
  std::string arch;                       // the -arch ptxas compiled for, e.g. "sm_80"
  std::string note;                       // why none, or why another arch than the GPU's
};

// Runs `ptxas -arch=sm_XY -v -e ENTRY FILE -o /dev/null` (no shell, at most 60 s; the one entry,
// not the whole file) for compute capability "X.Y" and reads "Used N registers" of `entry` (its
// PTX name). When this ptxas does not know sm_XY (CUDA 13 starts at sm_75), compiles for sm_75
// instead and says so in `note`. With `use_cache`, the answer of an earlier run for the same PTX
// text, entry, capability and ptxas is taken from the cache, and a new answer is stored there.
PtxasRegisters ptxas_registers(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                               const std::string& compute_capability, bool use_cache = true);

// The most registers a thread can have (CUDA's per-thread limit on every GPU since Kepler): the
// bound a suite's and a point list's `regs` are checked against.
inline constexpr std::int64_t kMostRegistersPerThread = 255;

// How a command chooses a kernel's registers: given (--regs, a suite's `regs`), else ptxas
// (unless "none"), else kDefaultRegistersPerThread.
struct RegisterChoice {
  std::optional<std::int64_t> given;
  std::string ptxas = "ptxas";
  bool use_cache = true;  // false: --no-cache
  // Whether a count ptxas gives for another architecture (CUDA 13 compiles for sm_75 and newer)
  // stands in for an older GPU's. The occupancy command shows it, with a warning; predictions do
  // not take it (the default instead): another architecture's allocation can make a launch that
  // ran on the GPU look impossible (41 registers for sm_75 against the GTX 980's measured
  // 1024-thread tiled matmul).
  bool accept_other_arch = false;
  // The nvdisasm that lists the SASS ptxas writes (the pipes model's timed stream, sass_stream.hpp),
  // or "none" for the PTX-order stream.
  std::string nvdisasm = "nvdisasm";
};

// Where a figure of the kernel came from, for the report.
struct Sourced {
  std::int64_t value = 0;
  std::string source;  // "--regs", "ptxas -arch=sm_75", "default"
};

// `choice.given` when set; else ptxas on `ptx_path` (when not null and `choice.ptxas` is not
// "none"); else the default. With `warnings`, says there why the default was taken or why ptxas
// compiled for another architecture.
Sourced registers_per_thread(const RegisterChoice& choice, const gpus::Profile& gpu, const std::string* ptx_path,
                             const std::string& entry, std::vector<std::string>* warnings);

// "7.5" -> "75": the digits of sm_XY.
std::string arch_digits(const std::string& compute_capability);

// The registers of `entry` in ptxas -v output, if it lists them.
std::optional<std::int64_t> parse_ptxas_registers(const std::string& output, const std::string& entry);

}  // namespace warpsim::sim::workload

// A workload as a suite's [[workload]] table or `warpsim calibrate --workload` names it, made
// into a model in one place, so that both take the same fields with the same checks
// (docs/formats.md, "Suites"; docs/cli.md, `calibrate`).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/workload/cuda_compile.hpp"
#include "warpsim/workload/launch_policy.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "warpsim/workload/ptxas_registers.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

enum class WorkloadKind { builtin, kp, ptx };

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::builtin;
  std::string source;                  // builtin: its name; kp: the file's path or a built-in kernel program's
                                       // name (dwt_matrix, dwt_lattice); ptx: the file's path (.ptx, or .cu: compiled with nvcc)
  std::string name;                    // kp, ptx: the label in outputs (empty: the program's or kernel's name)
  std::string kernel;                  // ptx: the entry (empty: the only one)
  std::vector<ParameterAxis> params;   // ptx: the axes bound to kernel parameters, in order
  ptx::LoweringOptions lowering;       // ptx: the frontend's options (kernel and emulate_all come from the fields here)
  std::optional<LaunchPolicy> launch;  // kp, ptx: required; builtin: none (Algorithm 3)
  bool emulate_all = false;            // ptx: ptx::LoweringOptions::emulate_all
  RegisterChoice registers;            // ptx, memory model: for occupancy (`regs`, else ptxas, else 32)
  // ptx from a .cu source: nvcc's options, and the compute capability compiled for first (the
  // kernel's name and parameters are read from that PTX; each GPU gets its own architecture's)
  NvccOptions nvcc;
  std::string compute_capability = "7.5";
};

// A .kp file, or a built-in kernel program by name (dwt_matrix, dwt_lattice) unless a file of that
// name is there; unbound.
isa::Program load_kernel_program(const std::string& path);

// Throws InputError, without a location, for a field the kind does not take or a missing launch;
// with the file's location for a file that cannot be read or parsed; for an unknown built-in.
std::shared_ptr<const WorkloadModel> make_workload_model(const WorkloadSpec& spec);

}  // namespace warpsim::sim::workload

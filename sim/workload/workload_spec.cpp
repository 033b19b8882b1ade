#include "warpsim/workload/workload_spec.hpp"

#include <filesystem>
#include <stdexcept>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/workload/kp_workload_model.hpp"
#include "warpsim/workload/named_workload.hpp"
#include "warpsim/workload/named_workload_model.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"

namespace warpsim::sim::workload {
namespace {

void check_fields(const WorkloadSpec& spec) {
  const bool ptx = spec.kind == WorkloadKind::ptx;
  if (!ptx && (!spec.kernel.empty() || !spec.params.empty())) {
    throw InputError("kernel and params are for .ptx workloads");
  }
  if (!ptx && spec.emulate_all) throw InputError("emulate_all is for .ptx workloads");
  if (spec.kind == WorkloadKind::builtin) {
    if (spec.launch) {
      throw InputError("the built-in workload " + spec.source +
                       " launches by Algorithm 3 (eq. 17, 18): it takes no launch");
    }
    if (!spec.name.empty()) {
      throw InputError("a built-in workload keeps its name: a name (label) is for .kp and .ptx workloads");
    }
  } else if (!spec.launch) {
    throw InputError(
        "a .kp or .ptx workload needs a launch: threads (Algorithm 3), threads and block, or grid and block "
        "(each a number or an axis name)");
  }
}

}  // namespace

isa::Program load_kernel_program(const std::string& path) {
  if (const isa::Program* builtin = builtin_kernel_program(path); builtin && !std::filesystem::exists(path)) return *builtin;
  return isa::load_kp_file(path);
}

std::shared_ptr<const WorkloadModel> make_workload_model(const WorkloadSpec& spec) {
  check_fields(spec);
  switch (spec.kind) {
    case WorkloadKind::builtin:
      return std::make_shared<NamedWorkloadModel>(find_workload(spec.source));
    case WorkloadKind::kp: {
      isa::Program program = load_kernel_program(spec.source);
      std::string label = spec.name.empty() ? program.name() : spec.name;
      return std::make_shared<KpWorkloadModel>(std::move(label), std::move(program), *spec.launch);
    }
    case WorkloadKind::ptx: {
      ptx::LoweringOptions options = spec.lowering;
      options.kernel = spec.kernel;
      options.emulate_all = spec.emulate_all;
      if (is_cuda_source(spec.source)) {
        const CompiledCuda first = compile_cuda(spec.source, spec.compute_capability, spec.nvcc);
        return std::make_shared<PtxWorkloadModel>(spec.name, load_ptx_source(first.ptx_path), std::move(options),
                                                  *spec.launch, spec.params, nullptr, spec.registers,
                                                  CudaOrigin{spec.source, spec.nvcc});
      }
      return std::make_shared<PtxWorkloadModel>(spec.name, load_ptx_source(spec.source), std::move(options),
                                                *spec.launch, spec.params, nullptr, spec.registers);
    }
  }
  throw std::logic_error("make_workload_model: unknown kind");
}

}  // namespace warpsim::sim::workload

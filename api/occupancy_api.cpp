// warpsim::occupancy: active blocks per SM of a kernel's launch, and what limits them.
#include <optional>

#include "cuda_input.hpp"
#include "warpsim/workload/ptxas_registers.hpp"
#include "occupancy_result.hpp"
#include "views.hpp"
#include "warpsim/occupancy/occupancy.hpp"
#include "warpsim/ptx/kernel_resources.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

namespace occ = sim::occupancy;

OccupancyResult api::occupancy_result(const gpus::Profile& gpu, const occ::KernelResources& k, const std::string& registers_source,
                                      const std::string& smem_source, const occ::Occupancy& o) {
  OccupancyResult r;
  r.gpu = gpu.id;
  r.compute_capability = gpu.compute_capability;
  r.threads_per_block = k.threads_per_block;
  r.registers_per_thread = k.registers_per_thread;
  r.registers_source = registers_source;
  r.static_smem_bytes = k.static_smem_bytes;
  r.static_smem_source = smem_source;
  r.dynamic_smem_bytes = k.dynamic_smem_bytes;
  r.active_blocks_per_sm = o.active_blocks_per_sm;
  r.limited_by = occ::to_string(o.limited_by);
  for (const occ::Limit limit : o.limiting_factors) r.limiting_factors.emplace_back(occ::to_string(limit));
  r.by_warps = o.by_warps;
  r.by_blocks = o.by_blocks;
  r.by_registers = o.by_registers;
  r.by_shared_memory = o.by_shared_memory;
  r.warps_per_block = o.warps_per_block;
  r.registers_per_block = o.registers_per_block;
  r.shared_memory_per_block = o.shared_memory_per_block;
  r.shared_memory_per_sm = o.shared_memory_per_sm;
  r.active_warps_per_sm = o.active_warps_per_sm();
  r.max_warps_per_sm = o.max_warps_per_sm;
  r.occupancy = o.fraction();
  return r;
}

OccupancyResult occupancy(const OccupancyRequest& request) {
  if (!request.kernel.empty() && request.ptx.empty()) throw InputError("--kernel needs --ptx");
  const gpus::Profile gpu = gpus::load_profile(request.gpu);
  occ::KernelResources kernel;
  kernel.threads_per_block = api::count(request.block, "block");
  kernel.dynamic_smem_bytes = request.dynamic_smem_bytes;
  std::string entry;
  std::string smem_source = "none";
  std::optional<api::KernelInput> input;
  if (!request.ptx.empty()) {
    input = api::kernel_input(request.ptx, gpu.compute_capability, request.nvcc_flags, request.use_cache);
    const ptx::Module module = ptx::load_ptx_file(input->ptx_path);
    entry = module.functions[ptx::select_kernel(module, request.kernel)].name;
    kernel.static_smem_bytes = ptx::static_shared_bytes(module, entry);
    smem_source = "ptx";
  }
  if (request.static_smem_bytes) {
    kernel.static_smem_bytes = *request.static_smem_bytes;
    smem_source = "--smem";
  }
  std::vector<std::string> warnings;
  // An older GPU's registers from ptxas's sm_75 build are shown here, with a warning (predictions take 32).
  const sim::workload::RegisterChoice choice{request.registers, request.ptxas, request.use_cache, true};
  const sim::workload::Sourced registers =
      sim::workload::registers_per_thread(choice, gpu, input ? &input->ptx_path : nullptr, entry, &warnings);
  kernel.registers_per_thread = registers.value;
  if (request.warn) {
    for (const std::string& line : warnings) request.warn(line);
    warnings.clear();
  }
  OccupancyResult result = api::occupancy_result(gpu, kernel, registers.source, smem_source, occ::active_blocks(gpu, kernel));
  result.warnings = std::move(warnings);
  if (input) result.compiled = input->compiled;
  return result;
}

}  // namespace warpsim

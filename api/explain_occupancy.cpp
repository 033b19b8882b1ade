// The Occupancy Calculator's three graphs for `warpsim explain`.
#include <algorithm>

#include "explain_parts.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::api {
namespace {

namespace occ = sim::occupancy;

// Active warps over the maximum at each value of one resource, or nothing where it cannot run.
template <typename Set>
OccupancyCurve curve(const gpus::Profile& gpu, occ::KernelResources kernel, std::string axis, std::int64_t kernel_value,
                     std::int64_t first, std::int64_t last, std::int64_t step, Set set) {
  OccupancyCurve c;
  c.axis = std::move(axis);
  c.kernel_value = kernel_value;
  for (std::int64_t v = first; v <= last; v += step) {
    set(kernel, v);
    try {
      c.points.emplace_back(v, occ::active_blocks(gpu, kernel).fraction());
    } catch (const InputError&) {  // a block too big for the GPU at this value
    }
  }
  return c;
}

}  // namespace

std::vector<OccupancyCurve> occupancy_curves(const gpus::Profile& gpu, const occ::KernelResources& kernel) {
  const occ::DeviceLimits limits = occ::device_limits(gpu);
  std::vector<OccupancyCurve> curves;
  curves.push_back(curve(gpu, kernel, "block_size", kernel.threads_per_block, limits.warp_size, limits.max_threads_per_block,
                         limits.warp_size, [](occ::KernelResources& k, std::int64_t v) { k.threads_per_block = v; }));
  curves.push_back(curve(gpu, kernel, "registers", kernel.registers_per_thread, 1, limits.max_registers_per_thread, 1,
                         [](occ::KernelResources& k, std::int64_t v) { k.registers_per_thread = v; }));
  // Shared memory per block in steps of 1 KiB, the kernel's static part included.
  const std::int64_t own = kernel.static_smem_bytes + kernel.dynamic_smem_bytes;
  curves.push_back(curve(gpu, kernel, "shared_memory", own, 0, limits.max_shared_memory_per_block, 1024,
                         [&](occ::KernelResources& k, std::int64_t v) {
                           k.static_smem_bytes = v;
                           k.dynamic_smem_bytes = 0;
                         }));
  return curves;
}

}  // namespace warpsim::api

// warpsim::gpu_profile and gpu_profiles: the GPU profiles as data.
#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

GpuProfile profile_of(const gpus::Profile& gpu) {
  GpuProfile p;
  p.id = gpu.id;
  p.name = gpu.name;
  p.architecture = gpu.architecture;
  p.compute_capability = gpu.compute_capability;
  p.memory_type = gpu.memory_type;
  p.clock_mhz = gpu.clock_mhz;
  p.sm_count = gpu.sm_count;
  p.cores_per_sm = gpu.cores_per_sm;
  p.core_packages_per_sm = gpu.core_packages_per_sm();
  p.max_blocks_per_sm = gpu.max_blocks_per_sm;
  p.max_warps_per_sm = gpu.max_warps_per_sm;
  p.max_threads_per_block = gpu.max_threads_per_block;
  p.warp_size = gpu.warp_size;
  p.figures = gpu.figures;
  p.sources = gpu.sources;
  for (const auto& [kernel, calibration] : gpu.calibrations) {
    p.calibrations[kernel] = {calibration.tp_us, isa::to_cycles(calibration.tm)};
  }
  if (!gpu.host.empty()) {
    const gpus::SystemFigures& h = gpu.host;
    p.host = HostFigures{h.host_link_gbs, h.host_link_latency_us, h.shared_link, h.network_gbs, h.network_latency_us,
                         gpu.host_source};
  }
  return p;
}

}  // namespace

GpuProfile gpu_profile(const std::string& id_or_path) { return profile_of(gpus::load_profile(id_or_path)); }

std::vector<GpuProfile> gpu_profiles() {
  std::vector<GpuProfile> profiles;
  for (const std::string& id : gpus::builtin_profile_ids()) profiles.push_back(gpu_profile(id));
  return profiles;
}

}  // namespace warpsim

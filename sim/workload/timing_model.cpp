#include "warpsim/workload/timing_model.hpp"

#include "warpsim/isa/input_error.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/occupancy/occupancy.hpp"

namespace warpsim::sim::workload {

gpus::CalibrationChoice with_model_defaults(const gpus::Profile& gpu, gpus::CalibrationChoice choice, Model model) {
  if (model == Model::paper) return choice;
  if (const auto it = gpu.figures.find("launch_overhead_us"); it != gpu.figures.end()) {
    choice.default_tp_us = it->second;
  }
  // t_m: one 128-byte line per clock per SM, shared by the SM's core packages.
  choice.default_tm = core_packages_per_sm(model, gpu) * isa::kMillicyclesPerCycle;
  return choice;
}

double back_to_back_us(const gpus::Profile& gpu, Model model, std::int64_t launches, double launch_us, double tp_us) {
  const auto following = gpu.figures.find("launch_overhead_back_to_back_us");
  if (model == Model::paper || following == gpu.figures.end() || launches < 2) return static_cast<double>(launches) * launch_us;
  return launch_us + static_cast<double>(launches - 1) * (launch_us - tp_us + following->second);
}

grid::Launch with_occupancy(const gpus::Profile& gpu, grid::Launch launch, Model model,
                            std::int64_t registers_per_thread, std::int64_t shared_bytes,
                            std::int64_t dynamic_shared_bytes) {
  if (model == Model::paper) return launch;
  const occupancy::Occupancy o =
      occupancy::active_blocks(gpu, {launch.threads_per_block, registers_per_thread, shared_bytes, dynamic_shared_bytes});
  launch.resident_blocks_limit = o.active_blocks_per_sm;
  return launch;
}

}  // namespace warpsim::sim::workload

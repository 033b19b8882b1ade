// warpsim::lower and warpsim::plan_launch: PTX to warp programs, and Algorithm 3.
#include "api/ptx_lowering.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

LowerResult lower(const LowerRequest& request) {
  LowerResult result;
  const ptx::LoweredKernel kernel = api::lower_ptx(request.ptx, request.grid, request.block, request.params,
                                                   request.options, request.control, result.warnings);
  result.json = api::lowered_json(kernel, request.ptx);
  result.kp = api::lowered_kp(kernel, request.ptx);
  return result;
}

LaunchPlan plan_launch(const std::string& gpu_id, std::int64_t total_threads) {
  const gpus::Profile gpu = gpus::load_profile(gpu_id);
  const sim::grid::Launch launch = sim::grid::suggest_launch(gpu, total_threads);
  return {gpu.id, total_threads, launch.blocks, launch.threads_per_block, sim::grid::heuristic_rule(gpu, total_threads)};
}

nlohmann::ordered_json to_json(const LaunchPlan& plan) {
  nlohmann::ordered_json out;
  out["gpu"] = plan.gpu;
  out["total_threads"] = plan.total_threads;
  out["blocks"] = plan.blocks;
  out["threads"] = plan.threads;
  out["rule"] = plan.rule;
  return out;
}

std::string to_text(const LaunchPlan& plan) {
  return std::to_string(plan.blocks) + " blocks x " + std::to_string(plan.threads) + " threads (Algorithm 3, rule " +
         std::to_string(plan.rule) + ", " + plan.gpu + ")\n";
}

}  // namespace warpsim

// warpsim::lower and warpsim::plan_launch: PTX to warp programs, and Algorithm 3.
#include "ptx_lowering.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

namespace detail {
struct LowerReport {
  ptx::LoweredKernel kernel;
  std::string file;  // the .ptx, as the reports name it
};
}  // namespace detail

LowerResult lower(const LowerRequest& request) {
  LowerResult result;
  auto report = std::make_shared<detail::LowerReport>();
  report->kernel = api::lower_ptx(request.ptx, request.grid, request.block, request.params, request.options,
                                  request.control, result.warnings);
  report->file = request.ptx;
  result.kernel = report->kernel.name;
  result.warp_programs = static_cast<std::int64_t>(report->kernel.programs.size());
  result.report = std::move(report);
  return result;
}

nlohmann::ordered_json to_json(const LowerResult& result) { return api::lowered_json(result.report->kernel, result.report->file); }
std::string to_kp(const LowerResult& result) { return api::lowered_kp(result.report->kernel, result.report->file); }

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

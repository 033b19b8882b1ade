// warpsim::lower and warpsim::plan_launch: PTX to warp programs, and Algorithm 3.
#include "cuda_input.hpp"
#include "ptx_lowering.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

namespace detail {
struct LowerReport {
  ptx::LoweredKernel kernel;
  std::string file;  // the .ptx, as the reports name it
  std::optional<CompiledSource> compiled;
};
}  // namespace detail

LowerResult lower(const LowerRequest& request) {
  LowerResult result;
  auto report = std::make_shared<detail::LowerReport>();
  // No GPU: a .cu is compiled for sm_75, the oldest architecture nvcc 13 compiles for.
  const api::KernelInput input = api::kernel_input(request.ptx, "7.5", request.nvcc_flags, request.use_cache);
  report->kernel = api::lower_ptx(input.ptx_path, request.grid, request.block, request.params, request.options,
                                  request.control, result.warnings);
  report->file = input.ptx_path;
  report->compiled = input.compiled;
  result.compiled = input.compiled;
  result.kernel = report->kernel.name;
  result.warp_programs = static_cast<std::int64_t>(report->kernel.programs.size());
  result.report = std::move(report);
  return result;
}

nlohmann::ordered_json to_json(const LowerResult& result) {
  nlohmann::ordered_json out = api::lowered_json(result.report->kernel, result.report->file);
  if (result.report->compiled) out["compiled"] = api::compiled_json(*result.report->compiled);
  return out;
}

std::string to_kp(const LowerResult& result) {
  std::string kp;
  if (result.report->compiled) {  // as .kp comments
    const std::string text = api::compiled_text(*result.report->compiled);
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t end = text.find('\n', start);
      kp += "# " + text.substr(start, end - start) + '\n';
      start = end + 1;
    }
  }
  return kp + api::lowered_kp(result.report->kernel, result.report->file);
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

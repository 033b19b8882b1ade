// warpsim::lower and warpsim::plan_launch: PTX to warp programs, and Algorithm 3.
#include "cuda_input.hpp"
#include "ptx_lowering.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/ptx_source.hpp"
#include "warpsim/workload/sass_stream.hpp"

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
  const std::optional<gpus::Profile> gpu =
      request.gpu.empty() ? std::nullopt : std::optional<gpus::Profile>(gpus::load_profile(request.gpu));
  const api::KernelInput input =
      api::kernel_input(request.ptx, gpu ? gpu->compute_capability : "7.5", request.nvcc_flags, request.use_cache);
  // With a GPU, the SASS of its architecture, as simulate's pipes model prices it.
  ptx::LoweringOptions sass;
  if (gpu) {
    const sim::workload::PtxSource source = sim::workload::load_ptx_source(input.ptx_path);
    const ptx::Function& entry = source.module->functions[ptx::select_kernel(*source.module, request.options.kernel)];
    const sim::workload::SassStream stream = sim::workload::sass_stream(
        {request.ptxas, request.nvdisasm, request.use_cache}, source, entry.name, gpu->compute_capability);
    if (stream.listing) {
      sass.sass = stream.listing;
      sass.sass_compute_capability = stream.compute_capability;
      sass.sass_identity = stream.identity;
    } else if (request.ptxas != "none" && request.nvdisasm != "none") {
      result.warnings.push_back("instruction stream: PTX order (" + stream.note + ")");
    }
  }
  report->kernel = api::lower_ptx(input.ptx_path, request.grid, request.block, request.params, request.options,
                                  request.control, result.warnings, sass.sass ? &sass : nullptr);
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

#include "warpsim/workload/ptx_workload_model.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "warpsim/ptx/kernel_params.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/simulate_core.hpp"

namespace warpsim::sim::workload {

grid::GridTiming time_lowered_kernel(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us, isa::Millicycles tm,
                                     const ptx::LoweredKernel& kernel, TimingModel model,
                                     const std::vector<isa::Program>& retimed, const core::CoreOptions& engine) {
  const LaunchEngine launch_engine(gpu, launch, model, tm, engine);
  return grid::time_grid_mixed(
      gpu, launch, tp_us, kernel.warp_programs.uniform_program(),
      [&](std::int64_t block, std::int64_t warp) { return kernel.warp_programs.program_of(block, warp); },
      [&](std::span<const std::uint32_t> ids, std::int64_t package) {
        std::vector<const isa::Program*> programs;
        programs.reserve(ids.size());
        for (const std::uint32_t id : ids) programs.push_back(retimed.empty() ? &kernel.programs[id].program : &retimed[id]);
        core::CoreOptions options = launch_engine.options();
        options.barriers.package = package;
        return core::simulate_core(programs, tm, options);
      });
}

namespace {

// Everything time_lowered_kernel reads besides the lowered kernel: the GPU's numbers (not its id:
// a profile file may reuse one), the launch with its occupancy, t_p, t_m, the model, d1 and d2.
std::string timing_key(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us, isa::Millicycles tm,
                       TimingModel model, isa::Millicycles load, isa::Millicycles store) {
  std::string key;
  const auto number = [&](auto n) { key.append(std::to_string(n)).push_back(','); };
  const auto real = [&](double d) { number(std::bit_cast<std::uint64_t>(d)); };
  real(gpu.clock_mhz);
  for (const std::int64_t n : {gpu.sm_count, gpu.cores_per_sm, gpu.max_blocks_per_sm, gpu.max_warps_per_sm,
                               gpu.max_threads_per_block, gpu.warp_size}) {
    number(n);
  }
  for (const auto& [name, value] : gpu.figures) {
    key.append(name).push_back('=');
    real(value);
  }
  for (const std::int64_t n : {launch.blocks, launch.threads_per_block, launch.resident_blocks_limit, tm, load, store,
                               static_cast<std::int64_t>(model)}) {
    number(n);
  }
  real(tp_us);
  return key;
}

}  // namespace

PtxWorkloadModel::PtxWorkloadModel(std::string name, PtxSource source, ptx::LoweringOptions options,
                                   const LaunchPolicy& launch, std::vector<ParameterAxis> parameter_axes,
                                   std::shared_ptr<LoweringCache> cache, std::int64_t registers_per_thread)
    : name_(std::move(name)), source_(std::move(source)), options_(std::move(options)), launch_(launch),
      parameter_axes_(std::move(parameter_axes)), lowerings_(cache ? std::move(cache) : LoweringCache::process_wide()),
      registers_per_thread_(registers_per_thread) {
  for (const ParameterAxis& a : parameter_axes_) parameter_values_.emplace_back(a.axis, a.at, "params entry");
  const ptx::Function& entry = source_.module->functions[ptx::select_kernel(*source_.module, options_.kernel)];
  kernel_ = ptx::short_kernel_name(entry.name);
  if (name_.empty()) name_ = kernel_;
  // Mistakes in the binding show now, not at every point.
  const std::vector<ptx::KernelParameter> parameters = ptx::describe_parameters(*source_.module, entry);
  std::vector<std::string> bound_by(parameters.size());
  for (const ParameterAxis& a : parameter_axes_) {
    const std::optional<std::size_t> i = ptx::find_parameter(parameters, a.parameter);
    if (!i) {
      throw InputError((a.label.empty() ? "axis " + a.axis : a.label) + ": " + ptx::no_such_parameter(parameters, kernel_, a.parameter));
    }
    if (!bound_by[*i].empty()) {
      throw InputError("axes " + bound_by[*i] + " and " + a.axis + " both give parameter " + std::to_string(*i) + " (" +
                       parameters[*i].ptx_name + ")");
    }
    bound_by[*i] = a.axis;
  }
}

std::vector<std::string> PtxWorkloadModel::axes() const {
  std::vector<std::string> names;
  const auto add = [&](const std::vector<std::string>& axes) {
    for (const std::string& axis : axes) {
      if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
    }
  };
  for (const PointExpression& value : parameter_values_) add(value.axes());
  add(launch_.axes());
  return names;
}

Prediction PtxWorkloadModel::predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                                     CoreTimeCache& /*cache*/) const {
  Prediction prediction;
  prediction.calibration =
      gpus::resolve_calibration(gpu, overrides.section_or(kernel_), overrides.calibration_choice(gpu), std::nullopt);
  const auto& durations = prediction.calibration.memory_durations;
  if (durations.size() > 2) {
    throw InputError("a PTX workload has two durations: d1 (global loads) and d2 (global stores)");
  }
  const LaunchShape shape = launch_.resolve(gpu, point);
  ptx::LoweringOptions options = options_;
  options.grid = ptx::Dim3{shape.grid.x, shape.grid.y, shape.grid.z};
  options.block = ptx::Dim3{shape.block.x, shape.block.y, shape.block.z};
  options.parameters.clear();
  for (std::size_t i = 0; i < parameter_axes_.size(); ++i) {
    options.parameters.emplace_back(parameter_axes_[i].parameter, std::to_string(parameter_values_[i].evaluate(point)));
  }
  const std::shared_ptr<const LoweringCache::Lowered> lowered = lowerings_->lower(source_, options);
  // The cache lowers with the default cycles; d1 and d2, else the model's own, replace them.
  const isa::Millicycles load = !durations.empty() && durations[0] ? *durations[0] : options_.load_cycles;
  const isa::Millicycles store = durations.size() > 1 && durations[1] ? *durations[1] : options_.store_cycles;
  std::vector<isa::Program> retimed;  // only when the cycles differ from the cache's
  if (load != ptx::kDefaultMemoryCycles || store != ptx::kDefaultMemoryCycles) {
    for (const ptx::WarpProgram& p : lowered->kernel.programs) retimed.push_back(with_load_store_durations(p.program, load, store));
  }
  const ptx::LoweredKernel& kernel = lowered->kernel;

  prediction.launch = with_occupancy(gpu, shape.flat(), overrides.model, registers_per_thread_,
                                     lowered->kernel.static_shared_bytes);
  prediction.total_threads = shape.threads;
  prediction.elements = shape.threads;
  prediction.launches = 1;
  const isa::Millicycles tm = prediction.calibration.tm;
  // Programs differ from point to point: equal core packages are simulated once inside
  // time_grid_mixed, and nothing is kept across points.
  const std::string key = timing_key(gpu, prediction.launch, prediction.calibration.tp_us, tm, overrides.model, load, store);
  if (const std::optional<grid::GridTiming> known = lowered->timings->find(key)) {
    prediction.per_launch = *known;
  } else {
    prediction.per_launch = time_lowered_kernel(gpu, prediction.launch, prediction.calibration.tp_us, tm, kernel, overrides.model, retimed);
    lowered->timings->insert(key, prediction.per_launch);
  }
  prediction.time_us = prediction.per_launch.time_us;
  prediction.warnings = lowered->warnings;
  return prediction;
}

}  // namespace warpsim::sim::workload

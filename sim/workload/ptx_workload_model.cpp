#include "sim/workload/ptx_workload_model.hpp"

#include <algorithm>

#include "frontends/ptx/kernel_params.hpp"
#include "isa/input_error.hpp"
#include "sim/core/simulate_core.hpp"

namespace warpsim::sim::workload {

PtxWorkloadModel::PtxWorkloadModel(std::string name, std::shared_ptr<const ptx::Module> module,
                                   ptx::LoweringOptions options, LaunchPolicy launch,
                                   std::vector<std::string> parameter_axes)
    : name_(std::move(name)), module_(std::move(module)), options_(std::move(options)), launch_(std::move(launch)),
      parameter_axes_(std::move(parameter_axes)) {
  launch_.validate();
  const ptx::Function& entry = module_->functions[ptx::select_kernel(*module_, options_.kernel)];
  kernel_ = ptx::short_kernel_name(entry.name);
  if (name_.empty()) name_ = kernel_;
}

std::vector<std::string> PtxWorkloadModel::axes() const {
  std::vector<std::string> names = parameter_axes_;
  for (const std::string& axis : launch_.axes()) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

Prediction PtxWorkloadModel::predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                                     CoreTimeCache& /*cache*/) const {
  Prediction prediction;
  prediction.calibration =
      gpus::resolve_calibration(gpu, overrides.section_or(kernel_), overrides.calibration_choice(), std::nullopt);
  const auto& durations = prediction.calibration.memory_durations;
  if (durations.size() > 2) {
    throw InputError("a PTX workload has two durations: d1 (global loads) and d2 (global stores)");
  }
  const LaunchShape shape = launch_.resolve(gpu, point);
  ptx::LoweringOptions options = options_;
  options.grid = ptx::Dim3{shape.grid.x, shape.grid.y, shape.grid.z};
  options.block = ptx::Dim3{shape.block.x, shape.block.y, shape.block.z};
  options.parameters.clear();
  for (const std::string& axis : parameter_axes_) options.parameters.emplace_back(axis, std::to_string(point_value(point, axis)));
  if (!durations.empty() && durations[0]) options.load_cycles = *durations[0];
  if (durations.size() > 1 && durations[1]) options.store_cycles = *durations[1];
  const ptx::LoweredKernel kernel = ptx::lower_kernel(*module_, options);

  prediction.launch = shape.flat();
  prediction.total_threads = shape.threads;
  prediction.elements = shape.threads;
  prediction.launches = 1;
  const isa::Millicycles tm = prediction.calibration.tm;
  // Programs differ from point to point: equal core packages are simulated once inside
  // time_grid_mixed, and nothing is kept across points.
  prediction.per_launch = grid::time_grid_mixed(
      gpu, prediction.launch, prediction.calibration.tp_us, kernel.warp_programs, [&](std::span<const std::uint32_t> ids) {
        std::vector<const isa::Program*> programs;
        programs.reserve(ids.size());
        for (const std::uint32_t id : ids) programs.push_back(&kernel.programs[id].program);
        return core::simulate_core(programs, tm);
      });
  prediction.time_us = prediction.per_launch.time_us;
  return prediction;
}

}  // namespace warpsim::sim::workload

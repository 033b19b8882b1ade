#include "sim/workload/ptx_workload_model.hpp"

#include <algorithm>

#include "frontends/ptx/kernel_params.hpp"
#include "frontends/ptx/lowering_warnings.hpp"
#include "isa/input_error.hpp"
#include "sim/core/simulate_core.hpp"

namespace warpsim::sim::workload {
namespace {

// Lowered launches kept per model: 4 bytes a warp plus the distinct programs; a sweep's points
// never repeat, a calibration's come back every trial.
constexpr std::int64_t kMaxKeptWarps = std::int64_t{1} << 22;

}  // namespace

PtxWorkloadModel::PtxWorkloadModel(std::string name, std::shared_ptr<const ptx::Module> module,
                                   ptx::LoweringOptions options, LaunchPolicy launch,
                                   std::vector<ParameterAxis> parameter_axes)
    : name_(std::move(name)), module_(std::move(module)), options_(std::move(options)), launch_(std::move(launch)),
      parameter_axes_(std::move(parameter_axes)) {
  launch_.validate();
  const ptx::Function& entry = module_->functions[ptx::select_kernel(*module_, options_.kernel)];
  kernel_ = ptx::short_kernel_name(entry.name);
  if (name_.empty()) name_ = kernel_;
  // Mistakes in the binding show now, not at every point.
  const std::vector<ptx::KernelParameter> parameters = ptx::describe_parameters(*module_, entry);
  std::vector<std::string> bound_by(parameters.size());
  for (const ParameterAxis& a : parameter_axes_) {
    const std::optional<std::size_t> i = ptx::find_parameter(parameters, a.parameter);
    if (!i) throw InputError("axis " + a.axis + ": " + ptx::no_such_parameter(parameters, kernel_, a.parameter));
    if (!bound_by[*i].empty()) {
      throw InputError("axes " + bound_by[*i] + " and " + a.axis + " both give parameter " + std::to_string(*i) + " (" +
                       parameters[*i].ptx_name + ")");
    }
    bound_by[*i] = a.axis;
  }
}

std::vector<std::string> PtxWorkloadModel::axes() const {
  std::vector<std::string> names;
  for (const ParameterAxis& a : parameter_axes_) names.push_back(a.axis);
  for (const std::string& axis : launch_.axes()) {
    if (std::find(names.begin(), names.end(), axis) == names.end()) names.push_back(axis);
  }
  return names;
}

std::shared_ptr<const PtxWorkloadModel::Lowered> PtxWorkloadModel::lowered_for(const ptx::LoweringOptions& options) const {
  std::vector<std::string> key;
  for (const std::int64_t v : {options.grid.x, options.grid.y, options.grid.z, options.block.x, options.block.y, options.block.z}) {
    key.push_back(std::to_string(v));
  }
  for (const auto& [name, value] : options.parameters) key.push_back(name + "=" + value);
  {
    const std::lock_guard lock(lowered_mutex_);
    if (const auto it = lowered_.find(key); it != lowered_.end()) return it->second;
  }
  ptx::LoweredKernel lowered = ptx::lower_kernel(*module_, options);
  std::vector<std::string> warnings = ptx::warning_lines(lowered, module_->file, options.emulator);
  auto kernel = std::make_shared<const Lowered>(Lowered{std::move(lowered), std::move(warnings)});
  const auto warps = static_cast<std::int64_t>(kernel->kernel.warp_programs.size());
  const std::lock_guard lock(lowered_mutex_);
  if (warps > kMaxKeptWarps) return kernel;
  if (lowered_warps_ + warps > kMaxKeptWarps) {
    lowered_.clear();
    lowered_warps_ = 0;
  }
  if (lowered_.emplace(std::move(key), kernel).second) lowered_warps_ += warps;
  return kernel;
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
  for (const ParameterAxis& a : parameter_axes_) {
    options.parameters.emplace_back(a.parameter, std::to_string(point_value(point, a.axis)));
  }
  const std::shared_ptr<const Lowered> lowered = lowered_for(options);
  const std::optional<isa::Millicycles> load = durations.empty() ? std::nullopt : durations[0];
  const std::optional<isa::Millicycles> store = durations.size() > 1 ? durations[1] : std::nullopt;
  std::vector<isa::Program> retimed;  // only when d1 or d2 is set
  if (load || store) {
    for (const ptx::WarpProgram& p : lowered->kernel.programs) retimed.push_back(with_load_store_durations(p.program, load, store));
  }
  const ptx::LoweredKernel& kernel = lowered->kernel;

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
        for (const std::uint32_t id : ids) programs.push_back(retimed.empty() ? &kernel.programs[id].program : &retimed[id]);
        return core::simulate_core(programs, tm);
      });
  prediction.time_us = prediction.per_launch.time_us;
  prediction.warnings = lowered->warnings;
  return prediction;
}

}  // namespace warpsim::sim::workload

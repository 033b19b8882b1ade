#include "warpsim/workload/ptx_workload_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "warpsim/ptx/kernel_params.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/launch_rejected.hpp"
#include "warpsim/workload/sampled_timing.hpp"

namespace warpsim::sim::workload {

grid::GridTiming time_lowered_kernel(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us,
                                     const ptx::LoweredKernel& kernel, const ModelSpec& spec,
                                     const std::vector<isa::Program>& retimed) {
  const core::CoreOptions engine = spec.core_options();
  const auto core_time = [&](std::span<const std::uint32_t> ids, std::int64_t package) {
    std::vector<const isa::Program*> programs;
    programs.reserve(ids.size());
    for (const std::uint32_t id : ids) programs.push_back(retimed.empty() ? &kernel.programs[id].program : &retimed[id]);
    core::CoreOptions options = engine;
    options.barriers.package = package;
    return core::simulate_core(programs, spec.tm, options);
  };
  const grid::Launch planned = planned_with(spec, launch);
  if (!kernel.sampling) {
    // A program's ops as the core package runs them: every instruction of every iteration.
    std::vector<std::int64_t> ops(kernel.programs.size(), -1);
    const grid::RunSampling runs{kernel.run_sample_budget, kernel.run_sample_seed, [&](std::uint32_t id) {
                                   if (ops[id] < 0) ops[id] = kernel.programs[id].program.dynamic_counts().instructions;
                                   return ops[id];
                                 }};
    return grid::time_grid_mixed(
        gpu, planned, tp_us, kernel.warp_programs.uniform_program(),
        [&](std::int64_t block, std::int64_t warp) { return kernel.warp_programs.program_of(block, warp); }, core_time, runs);
  }
  return time_sampled_launch(gpu, planned, tp_us, *kernel.sampling, core_time);
}

bool has_memory_annotations(const ptx::LoweredKernel& kernel) {
  return std::any_of(kernel.programs.begin(), kernel.programs.end(),
                     [](const ptx::WarpProgram& p) { return p.program.has_memory_annotations(); });
}

namespace {

// Everything time_lowered_kernel reads besides the lowered kernel and its durations: the spec's
// fingerprint, the GPU's figures that Algorithm 1 reads (not its id: a profile file may reuse
// one), the launch with its occupancy, and t_p.
std::string timing_key(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us, const ModelSpec& spec,
                       isa::Millicycles load, isa::Millicycles store) {
  std::vector<std::int64_t> numbers = spec.fingerprint();
  numbers.insert(numbers.end(), {std::bit_cast<std::int64_t>(gpu.clock_mhz), gpu.sm_count, gpu.cores_per_sm, gpu.max_blocks_per_sm,
                                 gpu.max_warps_per_sm, gpu.max_threads_per_block, gpu.warp_size, launch.blocks,
                                 launch.threads_per_block, launch.resident_blocks_limit, launch.core_packages_per_sm,
                                 std::bit_cast<std::int64_t>(tp_us), load, store});
  return std::string(reinterpret_cast<const char*>(numbers.data()), numbers.size() * sizeof(std::int64_t));
}

}  // namespace

PtxWorkloadModel::PtxWorkloadModel(std::string name, PtxSource source, ptx::LoweringOptions options,
                                   const LaunchPolicy& launch, std::vector<ParameterAxis> parameter_axes,
                                   std::shared_ptr<LoweringCache> cache, RegisterChoice registers, CudaOrigin cuda)
    : name_(std::move(name)), source_(std::move(source)), options_(std::move(options)), launch_(launch),
      parameter_axes_(std::move(parameter_axes)), lowerings_(cache ? std::move(cache) : LoweringCache::process_wide()),
      registers_(std::move(registers)), cuda_(std::move(cuda)) {
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

Sourced PtxWorkloadModel::registers_for(const gpus::Profile& gpu, const PtxSource& source) const {
  const std::lock_guard lock(registers_mutex_);
  auto found = registers_by_arch_.find(gpu.compute_capability);
  if (found == registers_by_arch_.end()) {
    const ptx::Function& entry = source.module->functions[ptx::select_kernel(*source.module, options_.kernel)];
    found = registers_by_arch_.emplace(gpu.compute_capability,
                                       registers_per_thread(registers_, gpu, &source.path, entry.name, nullptr)).first;
  }
  return found->second;
}

std::shared_ptr<const SassStream> PtxWorkloadModel::sass_for(const gpus::Profile& gpu, const PtxSource& source) const {
  const std::lock_guard lock(registers_mutex_);
  auto found = sass_by_arch_.find(gpu.compute_capability);
  if (found == sass_by_arch_.end()) {
    const ptx::Function& entry = source.module->functions[ptx::select_kernel(*source.module, options_.kernel)];
    const SassTools tools{registers_.ptxas, registers_.nvdisasm, registers_.use_cache};
    found = sass_by_arch_.emplace(gpu.compute_capability,
                                  std::make_shared<const SassStream>(sass_stream(tools, source, entry.name, gpu.compute_capability)))
                .first;
  }
  return found->second;
}

const PtxSource& PtxWorkloadModel::source_for(const gpus::Profile& gpu) const {
  if (cuda_.path.empty()) return source_;
  const std::lock_guard lock(sources_mutex_);
  auto found = sources_by_arch_.find(gpu.compute_capability);
  if (found == sources_by_arch_.end()) {
    const CompiledCuda compiled = compile_cuda(cuda_.path, gpu.compute_capability, cuda_.nvcc);
    found = sources_by_arch_.emplace(gpu.compute_capability, load_ptx_source(compiled.ptx_path)).first;
  }
  return found->second;  // std::map: stays where it is while others are added
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
  // A launch that cannot run is refused before the lowering, which it would only slow down.
  grid::rejecting_launch([&] { grid::validate_launch(gpu, shape.flat()); });
  ptx::LoweringOptions options = options_;
  options.grid = ptx::Dim3{shape.grid.x, shape.grid.y, shape.grid.z};
  options.block = ptx::Dim3{shape.block.x, shape.block.y, shape.block.z};
  for (std::size_t i = 0; i < parameter_axes_.size(); ++i) {
    options.parameters.emplace_back(parameter_axes_[i].parameter, std::to_string(parameter_values_[i].evaluate(point)));
  }
  const PtxSource& source = source_for(gpu);
  // The pipes model times what ptxas emits (docs/sass.md); the others read PTX counts by design.
  std::shared_ptr<const SassStream> stream;
  if (overrides.model == Model::pipes) {
    stream = sass_for(gpu, source);
    if (stream->listing) {
      options.sass = stream->listing;
      options.sass_compute_capability = stream->compute_capability;
      options.sass_identity = stream->identity;
    }
  }
  const std::shared_ptr<const LoweringCache::Lowered> lowered = lowerings_->lower(source, options);
  const ptx::LoweredKernel& kernel = lowered->kernel;
  auto timed = std::make_shared<PtxTimed>();
  timed->kernel = std::shared_ptr<const ptx::LoweredKernel>(lowered, &kernel);
  timed->sass = stream;
  prediction.warnings = lowered->warnings;
  // Without the SASS, one line says so (docs/sass.md); sweeps show it once per workload.
  // (Not when the user chose it: --ptxas none or --nvdisasm none.)
  const bool chosen = registers_.ptxas == "none" || registers_.nvdisasm == "none";
  if (stream && !stream->listing && !chosen) prediction.warnings.push_back("instruction stream: PTX order (" + stream->note + ")");
  // The cache lowers with the default cycles; d1 and d2, else the model's own, replace them.
  const isa::Millicycles load = !durations.empty() && durations[0] ? *durations[0] : options_.load_cycles;
  const isa::Millicycles store = durations.size() > 1 && durations[1] ? *durations[1] : options_.store_cycles;
  if (load != ptx::kDefaultMemoryCycles || store != ptx::kDefaultMemoryCycles) {
    for (const ptx::WarpProgram& p : kernel.programs) timed->retimed.push_back(with_load_store_durations(p.program, load, store));
  }
  std::int64_t registers = kDefaultRegistersPerThread;
  if (is_memory_aware(overrides.model)) {
    // One ptxas run gives the SASS and the count, for the GPU's own architecture only.
    const bool same_run = !registers_.given && stream && stream->registers &&
                          stream->arch == "sm_" + arch_digits(gpu.compute_capability);
    const Sourced sourced = same_run ? Sourced{*stream->registers, "ptxas -arch=" + stream->arch} : registers_for(gpu, source);
    registers = sourced.value;
    timed->registers_per_thread = sourced.value;
    timed->registers_source = sourced.source;
  }
  prediction.launch = grid::rejecting_launch(
      [&] { return with_occupancy(gpu, shape.flat(), overrides.model, registers, kernel.static_shared_bytes,
                                     overrides.dynamic_shared_bytes); });
  prediction.total_threads = shape.threads;
  prediction.elements = shape.threads;
  prediction.launches = 1;
  const isa::Millicycles tm = prediction.calibration.tm;
  const ModelSpec spec = make_model_spec(overrides.model, gpu, prediction.launch, tm, has_memory_annotations(kernel),
                                         overrides.max_warp_instructions);
  // Programs differ from point to point: equal core packages are simulated once inside
  // time_grid_mixed, and nothing is kept across points but the timing of this lowered launch.
  const std::string key = timing_key(gpu, prediction.launch, prediction.calibration.tp_us, spec, load, store);
  if (const std::optional<grid::GridTiming> known = lowered->timings->find(key)) {
    prediction.per_launch = *known;
  } else {
    prediction.per_launch = time_lowered_kernel(gpu, prediction.launch, prediction.calibration.tp_us, kernel, spec, timed->retimed);
    lowered->timings->insert(key, prediction.per_launch);
  }
  prediction.time_us = prediction.per_launch.time_us;
  prediction.ptx = std::move(timed);
  return prediction;
}

}  // namespace warpsim::sim::workload

// warpsim::simulate: T_k of a .kp program or a PTX kernel on a GPU for a launch (Algorithm 1), as
// `warpsim simulate` reports it.
#include <algorithm>
#include <filesystem>
#include <map>

#include "explain.hpp"
#include "cuda_input.hpp"
#include "limits.hpp"
#include "simulate_on.hpp"
#include "instruction_stream.hpp"
#include "ptx_lowering.hpp"
#include "views.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/ptx/emulator.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/kp_workload_model.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/workload/program_core_times.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim {
namespace {

// The figures every simulation reports, from the launch and its timing.
SimulateResult timing_result(const gpus::Profile& gpu, const std::string& kernel, const sim::grid::Launch& launch,
                             const sim::grid::GridTiming& timing, isa::Millicycles tm, Model model) {
  const sim::grid::GridPlan& p = timing.plan;
  SimulateResult r;
  r.gpu = gpu.id;
  r.kernel = kernel;
  r.time_us = timing.time_us;
  r.cycles = timing.cycles;
  r.tp_us = timing.tp_us;
  r.tm = isa::to_cycles(tm);
  r.clock_mhz = gpu.clock_mhz;
  r.blocks = launch.blocks;
  r.threads = launch.threads_per_block;
  r.plan = {p.blocks_per_sm, p.warps_per_block, p.core_packages_per_sm, p.active_blocks_per_sm,
            p.warps_per_core_package, p.full_runs, p.remaining_blocks, p.remaining_warps_per_core_package};
  r.full_run_cycles = isa::to_cycles(timing.full_run_cycles);
  r.remaining_run_cycles = isa::to_cycles(timing.remaining_run_cycles);
  r.model = model;
  return r;
}

// The warps dealt to core package 0 of SM 0 in the first run, each with its program (the views
// show them): Algorithm 1 deals warp w of resident block j to core package (j * N_wb + w) mod N_cp.
std::vector<const isa::Program*> first_core_package(const ptx::LoweredKernel& kernel, const std::vector<isa::Program>* retimed,
                                                    const sim::grid::GridPlan& plan, std::int64_t sm_count) {
  std::vector<const isa::Program*> programs;
  for (std::int64_t j = 0; j < std::min(plan.blocks_per_sm, plan.active_blocks_per_sm); ++j) {
    for (std::int64_t w = 0; w < plan.warps_per_block; ++w) {
      if ((j * plan.warps_per_block + w) % plan.core_packages_per_sm != 0) continue;
      const std::uint32_t id = kernel.warp_programs.program_of(j * sm_count, w);
      programs.push_back(retimed ? &(*retimed)[id] : &kernel.programs[id].program);
    }
  }
  return programs;
}

// "X,Y,Z" for a launch policy.
std::string shape_text(Dim3 d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

// The point's prediction by the one path every command takes (sim::workload's models).
sim::workload::Prediction predict_point(const sim::workload::WorkloadModel& model, const gpus::Profile& gpu,
                                        const sim::workload::ModelOverrides& overrides) {
  sim::workload::CoreTimeCache cache;
  return model.predict(gpu, sim::workload::Point{}, overrides, cache);
}

SimulateResult simulate_ptx(const SimulateRequest& request, const gpus::Profile& gpu,
                            const sim::workload::ModelOverrides& overrides) {
  const api::KernelInput input = api::kernel_input(request.program, gpu.compute_capability, request.nvcc_flags, request.use_cache);
  sim::workload::WorkloadSpec spec;
  spec.kind = sim::workload::WorkloadKind::ptx;
  spec.source = input.ptx_path;
  spec.kernel = request.ptx.kernel;
  spec.emulate_all = request.ptx.emulate_all;
  spec.launch = sim::workload::fixed_launch(shape_text(request.grid), shape_text(request.block));
  // The launch is the policy's; the parameters are fixed, not axes.
  spec.lowering = api::lowering_options(request.grid, request.block, request.params, request.ptx, request.control);
  spec.registers = {request.registers, request.ptxas, request.use_cache};
  spec.registers.nvdisasm = request.nvdisasm;
  const std::shared_ptr<const sim::workload::WorkloadModel> model = sim::workload::make_workload_model(spec);
  const sim::workload::Prediction p =
      api::cancellable([&] { return predict_point(*model, gpu, overrides); }, input.ptx_path);
  if (request.control.cancel && *request.control.cancel) throw api::cancelled(ptx::Interrupted{}, input.ptx_path);  // after the lowering's last look at the flag
  const sim::workload::PtxTimed& timed = *p.ptx;
  const ptx::LoweredKernel& kernel = *timed.kernel;
  const isa::Millicycles tm = p.calibration.tm;
  const sim::grid::Launch launch{p.launch.blocks, p.launch.threads_per_block};
  SimulateResult result = timing_result(gpu, kernel.name, launch, p.per_launch, tm, overrides.model);
  const sim::workload::ModelSpec engine = sim::workload::make_model_spec(
      overrides.model, gpu, p.launch, tm, sim::workload::has_memory_annotations(kernel), overrides.max_warp_instructions);
  const std::vector<const isa::Program*> package =
      first_core_package(kernel, timed.programs_or_null(), p.per_launch.plan, gpu.sm_count);
  result.views = api::render_views(package, tm,
                                   kernel.name + " on " + gpu.id + ": core package 0 of SM 0's first run, " +
                                       std::to_string(package.size()) + " warps, t_m = " + isa::format_cycles(tm),
                                   engine.core_options(), request.timeline, request.trace);
  if (engine.pipes) result.limits = api::limits_of(package, tm, engine.core_options(), result);
  if (request.explain) {
    api::ExplainInputs in{package, tm, engine.core_options(), input.ptx_path, nullptr, {}, timed.registers_source, nullptr};
    std::map<const isa::Program*, const std::vector<ptx::OpNote>*> notes;
    for (std::size_t id = 0; id < kernel.programs.size(); ++id) {
      notes[timed.programs_or_null() ? &(*timed.programs_or_null())[id] : &kernel.programs[id].program] = &kernel.programs[id].notes;
    }
    in.notes_of = [&notes](const isa::Program* program) {
      const auto it = notes.find(program);
      return it == notes.end() ? nullptr : it->second;
    };
    in.resources = {launch.threads_per_block, timed.registers_per_thread.value_or(32), kernel.static_shared_bytes,
                    request.dynamic_shared_bytes};
    if (timed.sass && kernel.sass) in.sass = timed.sass->listing;
    const api::FindingInputs advice{&kernel, timed.programs_or_null(), request, p.launch, p.calibration.tp_us, tm,
                                    overrides.model, overrides.max_warp_instructions, sim::workload::has_memory_annotations(kernel)};
    in.advice = &advice;
    result.explanation = api::explain(in, gpu, result);
  }
  PtxReport report;
  report.registers_per_thread = timed.registers_per_thread;
  report.registers_source = timed.registers_source;
  report.static_shared_bytes = kernel.static_shared_bytes;
  report.warp_programs = static_cast<std::int64_t>(kernel.programs.size());
  report.unknown_branches = kernel.unknown_branches.count;
  report.emulated_instructions = kernel.emulated_instructions;
  report.emulated_classes = kernel.emulated_classes;
  report.parameters = api::parameters_json(kernel.parameters);
  report.parameters_line = api::parameters_text(kernel.parameters);
  report.assumptions = api::assumptions(kernel, input.ptx_path);
  if (timed.sass) report.stream = api::instruction_stream(*timed.sass, kernel.sass);
  if (kernel.sampling) {
    const ptx::Sampling& s = *kernel.sampling;
    report.sampled = SampledLaunch{s.blocks, s.launch_blocks, s.reason, s.projected_instructions, s.budget,
                                   static_cast<std::int64_t>(s.seed), p.per_launch.low_us, p.per_launch.high_us,
                                   p.per_launch.unseen_block_ratio};
  }
  if (const std::optional<sim::grid::RunSample>& r = p.per_launch.run_sample) {
    report.sampled_runs = SampledRuns{r->runs, r->sampled_runs, r->packages, r->simulated_packages, r->projected_ops,
                                      r->budget, static_cast<std::int64_t>(r->seed), p.per_launch.low_us, p.per_launch.high_us};
  }
  result.ptx = std::move(report);
  result.compiled = input.compiled;
  result.warnings = p.warnings;
  return result;
}

}  // namespace

SimulateResult simulate(const SimulateRequest& request) { return api::simulate_on(request, gpus::load_profile(request.gpu)); }

SimulateResult api::simulate_on(const SimulateRequest& request, const gpus::Profile& gpu) {
  const std::int64_t blocks = api::count(request.grid, "--grid");
  const std::int64_t threads = api::count(request.block, "--block");
  sim::workload::ModelOverrides overrides;
  overrides.model = request.model;
  overrides.tp_us = request.tp_us;
  if (request.tm) overrides.tm = api::exact_cycles(*request.tm, "--tm");
  if (request.max_instructions) overrides.max_warp_instructions = *request.max_instructions;
  if (request.explain) api::require_pipes_model(request.model);
  overrides.dynamic_shared_bytes = request.dynamic_shared_bytes;
  if (request.program.ends_with(".ptx") || sim::workload::is_cuda_source(request.program)) {
    return simulate_ptx(request, gpu, overrides);
  }
  if (!request.nvcc_flags.empty()) api::kernel_input(request.program, gpu.compute_capability, request.nvcc_flags, false);  // the error
  if (request.dynamic_shared_bytes != 0) throw InputError("dynamic shared memory is for PTX kernels (.ptx, .cu), not " + quote_for_message(request.program));

  // A .kp program (or a built-in one), its parameters bound: one launch of it, as a sweep's point.
  const isa::Program program = api::load_bound_program(request.program, request.params);
  const sim::workload::KpWorkloadModel model(
      program.name(), program,
      sim::workload::fixed_launch(std::to_string(blocks), std::to_string(threads)));
  const sim::workload::Prediction p = predict_point(model, gpu, overrides);
  const isa::Millicycles tm = p.calibration.tm;
  SimulateResult result = timing_result(gpu, program.name(), p.launch, p.per_launch, tm, overrides.model);
  // The views show one core package of a full run (Algorithm 1's t), of the program as timed.
  const isa::Program timed = sim::workload::apply_durations(program, p.calibration);
  const sim::workload::ModelSpec engine = sim::workload::make_model_spec(
      overrides.model, gpu, p.launch, tm, timed.has_memory_annotations(), overrides.max_warp_instructions);
  const std::int64_t warps = p.per_launch.plan.warps_per_core_package;
  result.views = api::render_views(std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &timed), tm,
                                   program.name() + " on " + gpu.id + ": one core package of a full run, " +
                                       std::to_string(warps) + " warps, t_m = " + isa::format_cycles(tm),
                                   engine.core_options(), request.timeline, request.trace);
  if (engine.pipes) {
    result.limits = api::limits_of(std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &timed), tm,
                                   engine.core_options(), result);
  }
  if (request.explain) {
    const bool built_in = !std::filesystem::is_regular_file(request.program);
    api::ExplainInputs in{std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &timed), tm, engine.core_options(),
                          built_in ? "" : request.program, nullptr, {threads, 32, 0, 0}, "default (a .kp program names none)", nullptr};
    const api::FindingInputs advice{nullptr, nullptr, request, p.launch, p.calibration.tp_us, tm,
                                    overrides.model, overrides.max_warp_instructions, timed.has_memory_annotations()};
    in.advice = &advice;
    result.explanation = api::explain(in, gpu, result);
  }
  return result;
}

nlohmann::ordered_json to_json(const SimulateResult& r) {
  using sim::report::cycles_json;
  using sim::report::number_json;
  nlohmann::ordered_json out;
  out["gpu"] = r.gpu;
  out["kernel"] = r.kernel;
  out["time_us"] = r.time_us;
  out["cycles"] = number_json(r.cycles);
  out["tp_us"] = number_json(r.tp_us);
  out["tm"] = cycles_json(api::millicycles(r.tm));
  out["clock_mhz"] = number_json(r.clock_mhz);
  out["blocks"] = r.blocks;
  out["threads"] = r.threads;
  out["blocks_per_sm"] = r.plan.blocks_per_sm;
  out["warps_per_block"] = r.plan.warps_per_block;
  out["core_packages_per_sm"] = r.plan.core_packages_per_sm;
  out["active_blocks_per_sm"] = r.plan.active_blocks_per_sm;
  out["warps_per_core_package"] = r.plan.warps_per_core_package;
  out["full_runs"] = r.plan.full_runs;
  out["full_run_cycles"] = cycles_json(api::millicycles(r.full_run_cycles));
  out["remaining_blocks"] = r.plan.remaining_blocks;
  out["remaining_warps_per_core_package"] = r.plan.remaining_warps_per_core_package;
  out["remaining_run_cycles"] = cycles_json(api::millicycles(r.remaining_run_cycles));
  if (r.limits) {
    const Limits& l = *r.limits;
    nlohmann::ordered_json limits;
    limits["package_cycles"] = number_json(l.package_cycles);
    nlohmann::ordered_json utilisation = nlohmann::ordered_json::object();
    for (const auto& [resource, share] : l.utilisation) utilisation[resource] = share;
    limits["utilisation"] = utilisation;
    limits["launch_overhead_share"] = l.launch_overhead_share;
    limits["tail_share"] = l.tail_share;
    limits["limiter"] = l.limiter;
    limits["reason"] = l.reason;
    out["limits"] = limits;
  }
  if (r.explanation) out["explain"] = api::explanation_json(*r.explanation);
  if (!r.ptx) return out;  // a .kp program: the figures of Algorithm 1 only
  const PtxReport& ptx = *r.ptx;
  out["model"] = to_string(r.model);
  if (ptx.registers_per_thread) {
    out["registers_per_thread"] = *ptx.registers_per_thread;
    out["registers_source"] = ptx.registers_source;
    out["static_shared_bytes"] = ptx.static_shared_bytes;
  }
  out["warp_programs"] = ptx.warp_programs;
  out["unknown_branches"] = ptx.unknown_branches;
  out["emulated_instructions"] = ptx.emulated_instructions;
  out["emulated_classes"] = ptx.emulated_classes;
  out["parameters"] = ptx.parameters;
  out["assumptions"] = api::assumptions_json(ptx.assumptions);
  if (ptx.stream) out["instruction_stream"] = api::instruction_stream_json(*ptx.stream);
  if (ptx.sampled) {
    const SampledLaunch& s = *ptx.sampled;
    nlohmann::ordered_json sampled;
    sampled["blocks"] = static_cast<std::int64_t>(s.blocks.size());
    sampled["of_blocks"] = s.launch_blocks;
    sampled["time_us_low"] = s.time_us_low;
    sampled["time_us_high"] = s.time_us_high;
    sampled["confidence"] = 0.95;
    sampled["unseen_block_ratio"] = s.unseen_block_ratio;
    sampled["reason"] = s.reason;
    sampled["projected_instructions"] = s.projected_instructions;
    sampled["budget"] = s.budget;
    sampled["seed"] = s.seed;
    sampled["sampled_blocks"] = s.blocks;
    out["sampled"] = sampled;
  }
  if (ptx.sampled_runs) {
    const SampledRuns& s = *ptx.sampled_runs;
    out["sampled_runs"] = {{"runs", s.sampled_runs},          {"of_runs", s.runs},
                           {"time_us_low", s.time_us_low},
                           {"time_us_high", s.time_us_high},  {"confidence", 0.95},
                           {"packages", s.simulated_packages}, {"of_packages", s.packages},
                           {"projected_ops", s.projected_ops}, {"budget", s.budget},
                           {"seed", s.seed}};
  }
  if (r.compiled) out["compiled"] = api::compiled_json(*r.compiled);
  return out;
}

namespace {

std::string sampled_line(const SampledLaunch& s) {
  std::string blocks;
  for (std::size_t i = 0; i < s.blocks.size() && i < 8; ++i) blocks += (i ? ", " : "") + std::to_string(s.blocks[i]);
  if (s.blocks.size() > 8) blocks += ", ...";
  return "sampled: time " + sim::report::fixed(s.time_us_low, 3) + " .. " + sim::report::fixed(s.time_us_high, 3) +
         " us (95% interval), from " + std::to_string(s.blocks.size()) + " of " + std::to_string(s.launch_blocks) +
         " blocks (" + blocks + ", seed " + std::to_string(s.seed) + "): " + s.reason +
         (s.unseen_block_ratio > 1 ? "; one wave: the upper end allows for blocks costlier than any sampled (x" +
                                         sim::report::fixed(s.unseen_block_ratio, 3) + ")"
                                   : "") +
         "\n";
}

std::string sampled_runs_line(const SampledRuns& s) {
  return "sampled runs: time " + sim::report::fixed(s.time_us_low, 3) + " .. " + sim::report::fixed(s.time_us_high, 3) +
         " us (95% interval), from " + std::to_string(s.sampled_runs) + " of " + std::to_string(s.runs) +
         " distinct runs (" + std::to_string(s.simulated_packages) + " of " + std::to_string(s.packages) +
         " core packages, seed " + std::to_string(s.seed) + "): simulating every package would take " +
         std::to_string(s.projected_ops) + " warp-ops, over the budget of " + std::to_string(s.budget) +
         "; the runs not drawn take the drawn runs' mean (--exact simulates every run)\n";
}

}  // namespace

std::string to_text(const SimulateResult& r) {
  nlohmann::ordered_json fields = to_json(r);
  fields.erase("parameters");
  fields.erase("assumptions");
  fields.erase("instruction_stream");  // its own line below
  fields.erase("limits");
  fields.erase("explain");
  fields.erase("compiled");
  fields.erase("sampled");  // its own line below
  fields.erase("sampled_runs");
  sim::report::TextTable table({"quantity", "value"});
  for (const auto& [key, value] : fields.items()) {
    table.add_row({key, value.is_string() ? value.get<std::string>()
                        : value.is_number_float() ? sim::report::shortest(value.get<double>())
                                                  : value.dump()});
  }
  std::string text = table.render();
  if (r.ptx && r.ptx->sampled) text += sampled_line(*r.ptx->sampled);
  if (r.ptx && r.ptx->sampled_runs) text += sampled_runs_line(*r.ptx->sampled_runs);
  if (r.limits) {
    const Limits& l = *r.limits;
    sim::report::TextTable busy({"resource", "busy (share of T_c of core package 0)"});
    for (const auto& [resource, share] : l.utilisation) busy.add_row({resource, api::percent(share)});
    text += busy.render();
    text += "limiter: " + l.limiter + " (" + l.reason + ")\n";
  }
  if (r.ptx) {
    text += r.ptx->parameters_line;
    // PTX order is said by the warning line (the lowering's warnings, on standard error).
    if (r.ptx->stream && r.ptx->stream->timed == "sass") text += api::instruction_stream_line(*r.ptx->stream) + '\n';
    for (const std::string& line : api::assumption_lines(r.ptx->assumptions)) text += "assumption: " + line + '\n';
    if (r.compiled) text += api::compiled_text(*r.compiled);
  }
  if (r.explanation) text += api::explanation_text(*r.explanation);
  return text;
}

}  // namespace warpsim

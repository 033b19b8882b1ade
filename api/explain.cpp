// warpsim explain: speed of light, where warps wait, hot lines, occupancy and the roofline of one
// prediction (docs/explain.md).
#include "explain.hpp"

#include <algorithm>
#include <cmath>

#include "explain_parts.hpp"
#include "limits.hpp"
#include "occupancy_result.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::api {
namespace {

using sim::report::shortest;

std::string rounded(double value) { return shortest(std::round(value * 100) / 100); }

// A resource's peak on this GPU in words (per SM: its N_cp warp schedulers together).
std::string peak_of(const std::string& name, const sim::core::PipeTiming& pipes, const sim::core::MemoryTiming* memory,
                    const gpus::Profile& gpu, std::int64_t schedulers) {
  const auto per_clock = [&](isa::Millicycles each) { return 1000.0 / static_cast<double>(each) * static_cast<double>(schedulers); };
  if (name == "issue") return rounded(per_clock(pipes.issue)) + " warp-instructions/clock/SM";
  if (name == "memory" || name == "shared") {
    if (memory == nullptr) return "one access per t_m per scheduler";
    const std::string rate = rounded(per_clock(memory->issue_per_transaction));
    return rate + (rate == "1" ? " transaction" : " transactions") + "/clock/SM (128-byte lines or shared-memory passes)";
  }
  if (name == "atomic") {
    if (memory == nullptr) return "";
    return "one update a cycle to one address (" + rounded(1000.0 / static_cast<double>(memory->atomic_interval)) +
           "/clock at the L2, assumed), shared by every warp that updates it";
  }
  if (name == "l2") {
    const auto l2 = gpu.figures.find("l2_bandwidth_bytes_per_cycle");
    return l2 == gpu.figures.end() ? "" : shortest(l2->second * gpu.clock_mhz / 1000) + " GB/s (" + shortest(l2->second) + " bytes/clock, measured)";
  }
  if (name == "dram") {
    const auto peak = gpu.figures.find("memory_bandwidth_gbs");
    if (gpu.figures.contains("achievable_bandwidth_gbs")) {
      return shortest(sim::grid::dram_bandwidth_gbs(gpu)) + " GB/s achievable" +
             (peak == gpu.figures.end() ? "" : " (" + shortest(peak->second) + " theoretical)");
    }
    return peak == gpu.figures.end() ? "" : shortest(peak->second) + " GB/s (theoretical; the profile cites no achievable figure)";
  }
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
    if (isa::to_string(isa::pipe_at(p)) != name) continue;
    const double units = per_clock(pipes.occupancy[p]);
    if (isa::is_tensor(isa::pipe_at(p))) return rounded(units * isa::kTensorUnitFmas) + " FMAs/clock/SM";
    return rounded(units * 32) + " results/clock/SM";
  }
  return "";
}

// Sectors of the global and local accesses the package's warps execute (loops counted).
double global_sectors(const std::vector<const isa::Program*>& package) {
  double sectors = 0;
  for (const isa::Program* program : package) {
    std::vector<double> times{1};
    for (const isa::Op& op : program->ops()) {
      if (op.kind == isa::OpKind::repeat) {
        times.push_back(times.back() * static_cast<double>(op.count));
      } else if (op.kind == isa::OpKind::end) {
        times.pop_back();
      } else if (isa::is_memory(op.kind) && (op.space == isa::MemorySpace::global || op.space == isa::MemorySpace::local)) {
        sectors += static_cast<double>(std::max(op.transactions, 0)) * times.back();
      }
    }
  }
  return sectors;
}

Roofline roofline_of(const ExplainInputs& in, const gpus::Profile& gpu, const SimulateResult& result,
                     const sim::core::PipeBusy& busy, double package_cycles) {
  Roofline r;
  const sim::core::PipeTiming& pipes = *in.engine.pipes;
  r.warp_instructions = static_cast<double>(busy.issue) / static_cast<double>(pipes.issue);
  if (in.engine.memory != nullptr && in.engine.memory->dram_per_sector > 0) {
    r.dram_bytes = static_cast<double>(busy.dram) / static_cast<double>(in.engine.memory->dram_per_sector) * 32;
  }
  r.global_bytes = global_sectors(in.package) * 32;
  const double schedulers = static_cast<double>(result.plan.core_packages_per_sm);
  const double busy_sms = static_cast<double>(std::min<std::int64_t>(gpu.sm_count, result.blocks));
  const double seconds = package_cycles / (gpu.clock_mhz * 1e6);
  r.achieved_gips = seconds > 0 ? r.warp_instructions / seconds * schedulers * busy_sms / 1e9 : 0;
  r.peak_gips = schedulers * static_cast<double>(gpu.sm_count) * gpu.clock_mhz * 1e6 / 1e9 *
                (1000.0 / static_cast<double>(pipes.issue));
  const bool has_bandwidth = gpu.figures.contains("memory_bandwidth_gbs") || gpu.figures.contains("achievable_bandwidth_gbs");
  r.dram_gbs = has_bandwidth ? sim::grid::dram_bandwidth_gbs(gpu) : 0;  // the roof the model times against
  r.ridge = r.dram_gbs > 0 ? r.peak_gips / r.dram_gbs : 0;
  r.intensity = r.dram_bytes > 0 ? r.warp_instructions / r.dram_bytes : 0;
  r.bound = r.dram_bytes > 0 && r.intensity < r.ridge ? "memory" : "compute";
  return r;
}

}  // namespace

void require_pipes_model(Model model) {
  if (model != Model::pipes) {
    throw InputError("explain needs the pipes model (--model pipes, explain's default): only it times each pipe and wait");
  }
}

Explanation explain(const ExplainInputs& in, const gpus::Profile& gpu, const SimulateResult& result) {
  require_pipes_model(in.engine.pipes != nullptr && result.limits ? Model::pipes : result.model);
  Explanation e;
  sim::core::PipeBusy busy;
  sim::core::WarpTime time;
  sim::core::CoreOptions options = in.engine;
  options.events = nullptr;
  options.busy = &busy;
  options.warp_time = &time;
  const isa::Millicycles cycles = in.package.empty() ? 0 : sim::core::simulate_core(in.package, in.tm, options);
  e.package_cycles = isa::to_cycles(cycles);
  e.warps = static_cast<std::int64_t>(in.package.size());

  const Limits& limits = *result.limits;
  const std::int64_t schedulers = result.plan.core_packages_per_sm;
  for (const auto& [name, share] : limits.utilisation) {
    e.speed_of_light.push_back({name, share, peak_of(name, *in.engine.pipes, in.engine.memory, gpu, schedulers)});
  }
  e.limiter = limits.limiter;
  e.reason = limits.reason;
  e.sentence = limits.reason;
  for (const ExplainResource& r : e.speed_of_light) {
    if (limits.limiter.rfind(resource_name(r.name), 0) != 0 || r.peak.empty()) continue;
    e.sentence = limits.limiter + ": " + r.peak + " on " + gpu.id + "; " + percent(r.busy) + " busy";
    break;
  }

  double waited = 0;
  for (const isa::Millicycles c : time.causes) waited += static_cast<double>(c);
  for (std::size_t c = 0; c < sim::core::kWaitCauseCount; ++c) {
    const auto ms = static_cast<double>(time.causes[c]);
    e.waits.push_back({std::string(sim::core::to_string(static_cast<sim::core::WaitCause>(c))), waited > 0 ? ms / waited : 0,
                       e.warps > 0 ? ms / 1000.0 / static_cast<double>(e.warps) : 0});
  }
  e.ptx_lines = hot_lines(in, time, e.source_lines);
  if (in.sass) e.sass_lines = hot_sass(e.ptx_lines, in.source_path, *in.sass);

  const sim::occupancy::Occupancy occupancy = sim::occupancy::active_blocks(gpu, in.resources);
  e.occupancy = occupancy_result(gpu, in.resources, in.registers_source, "kernel", occupancy);
  e.occupancy_curves = occupancy_curves(gpu, in.resources);
  e.roofline = roofline_of(in, gpu, result, busy, e.package_cycles);
  if (in.advice != nullptr) e.findings = findings(in, *in.advice, gpu, result);
  return e;
}

}  // namespace warpsim::api

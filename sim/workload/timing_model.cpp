#include "warpsim/workload/timing_model.hpp"

#include "warpsim/isa/input_error.hpp"
#include "warpsim/grid/memory_defaults.hpp"
#include "warpsim/occupancy/occupancy.hpp"

namespace warpsim::sim::workload {

TimingModel parse_timing_model(const std::string& text) {
  if (text == "paper") return TimingModel::paper;
  if (text == "memory") return TimingModel::memory;
  throw InputError("unknown timing model " + quote_for_message(text) + " (expected paper or memory)");
}

const char* to_string(TimingModel model) { return model == TimingModel::paper ? "paper" : "memory"; }

gpus::CalibrationChoice with_model_defaults(const gpus::Profile& gpu, gpus::CalibrationChoice choice, TimingModel model) {
  if (model == TimingModel::paper) return choice;
  if (const auto it = gpu.figures.find("launch_overhead_us"); it != gpu.figures.end()) {
    choice.default_tp_us = it->second;
  }
  choice.default_tm = grid::default_issue_per_transaction(gpu);
  return choice;
}

grid::Launch with_occupancy(const gpus::Profile& gpu, grid::Launch launch, TimingModel model,
                            std::int64_t registers_per_thread, std::int64_t shared_bytes) {
  if (model == TimingModel::paper) return launch;
  const occupancy::Occupancy o =
      occupancy::active_blocks(gpu, {launch.threads_per_block, registers_per_thread, shared_bytes, 0});
  launch.resident_blocks_limit = o.active_blocks_per_sm;
  return launch;
}

LaunchEngine::LaunchEngine(const gpus::Profile& gpu, const grid::Launch& launch, TimingModel model, isa::Millicycles tm,
                           const core::CoreOptions& base)
    : options_(base) {
  if (model == TimingModel::paper) return;
  const grid::GridPlan plan = grid::plan_grid(gpu, launch);
  memory_ = grid::memory_timing(gpu, launch, plan, tm);
  options_.memory = &*memory_;
  options_.barriers = core::BarrierLayout{plan.core_packages_per_sm, plan.warps_per_block};
}

}  // namespace warpsim::sim::workload

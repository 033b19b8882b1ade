// warpsim::calibrate: fits t_p, t_m and memory-instruction durations of a workload to measured
// times (sim/calibrate, docs/calibration.md).
#include <memory>
#include <optional>

#include "ptx_lowering.hpp"
#include "warpsim/calibrate/calibrate.hpp"
#include "warpsim/calibrate/calibration_report.hpp"
#include "warpsim/calibrate/calibration_setup.hpp"
#include "warpsim/point_list/point_list.hpp"
#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim {
namespace {

namespace cal = sim::calibrate;

// The request's workload as a suite's [[workload]] table says the same.
sim::workload::WorkloadSpec workload_spec(const CalibrateRequest& r) {
  using sim::workload::WorkloadKind;
  sim::workload::WorkloadSpec spec;
  spec.source = r.workload;
  spec.kind = spec.source.ends_with(".kp") ? WorkloadKind::kp
              : spec.source.ends_with(".ptx") || is_cuda_path(spec.source) ? WorkloadKind::ptx  // CUDA: the loader says to run nvcc
                                                                           : WorkloadKind::builtin;
  if (!r.label.empty()) spec.name = r.label;
  if (!r.kernel.empty()) spec.kernel = r.kernel;
  for (const auto& [axis, parameter] : r.parameter_axes) spec.params.push_back({axis, parameter});
  if (r.threads || r.grid || r.block) {
    sim::workload::LaunchPolicy policy;
    if (r.threads) policy.threads = *r.threads;
    if (r.grid) policy.grid = *r.grid;
    if (r.block) policy.block = *r.block;
    spec.launch = policy;
  }
  return spec;
}

}  // namespace

namespace detail {
// The problem points to the GPU and to the workload's model (a point list's rows own theirs).
struct CalibrateReport {
  gpus::Profile gpu;
  std::optional<sim::driver::PointList> point_list;
  std::shared_ptr<const sim::workload::WorkloadModel> named_model;
  std::optional<cal::Setup> setup;
  cal::CalibrationResult result;
  cal::CalibrationReport view() const { return {&setup->problem, &result, setup->tp_origin}; }
};
}  // namespace detail

CalibrateResult calibrate(const CalibrateRequest& request) {
  if (request.max_evaluations < 1 || request.max_evaluations > 10'000'000) {
    throw InputError("--max-evaluations " + std::to_string(request.max_evaluations) + ": give 1 .. 10^7");
  }
  auto report = std::make_shared<detail::CalibrateReport>();
  report->gpu = gpus::load_profile(request.gpu);
  const gpus::Profile& gpu = report->gpu;
  std::optional<sim::driver::PointList>& point_list = report->point_list;                 // owns the rows' models
  std::shared_ptr<const sim::workload::WorkloadModel>& named_model = report->named_model;  // MEASURED.csv: the workload's
  const sim::workload::WorkloadModel* model = nullptr;              // whose kernel, durations and section are fitted
  cal::MeasuredData data;
  if (!request.points.empty()) {
    if (!request.measured.empty()) throw InputError("give MEASURED.csv or --points ROWS.csv, not both");
    const std::pair<bool, const char*> given[] = {
        {request.threads.has_value(), "threads"}, {request.grid.has_value(), "grid"}, {request.block.has_value(), "block"},
        {!request.kernel.empty(), "kernel"}, {!request.parameter_axes.empty(), "params"}, {!request.label.empty(), "label"}};
    for (const auto& [set, flag] : given) {
      if (set) throw InputError(std::string("--") + flag + ": a point list's rows give their own launch and parameters");
    }
    point_list.emplace(sim::driver::load_point_list(request.points));
    data = cal::select_point_list_rows(*point_list, gpu.id, request.workload);
    model = data.points.front().model;  // every row's kernel is the same
  } else {
    if (request.measured.empty()) throw InputError("give MEASURED.csv (with --workload) or --points ROWS.csv");
    if (request.workload.empty()) throw InputError("the option '--workload' is required but missing");
    named_model = sim::workload::make_workload_model(workload_spec(request));
    model = named_model.get();
    data = cal::select_measured_points(sim::report::read_csv(request.measured), gpu.id, model->name(), model->axes());
  }
  cal::SetupOptions setup_options;
  setup_options.fit = request.fit;
  setup_options.bounds = request.bounds;
  setup_options.section = request.section;
  setup_options.tp_us = request.tp_us;
  if (request.tm) setup_options.tm = api::exact_cycles(*request.tm, "--tm");
  cal::Setup& setup = report->setup.emplace(
      cal::set_up_calibration(*model, gpu, std::move(data), cal::program_defaults(*model), setup_options));
  setup.problem.timing_model = request.model;
  cal::CalibrateOptions calibrate_options;
  calibrate_options.max_evaluations = request.max_evaluations;
  report->result = cal::calibrate(setup.problem, calibrate_options);
  CalibrateResult result{cal::section_name(setup.problem), report->result.before.accuracy.mean_error,
                         report->result.after.accuracy.mean_error, {}};
  result.report = std::move(report);
  return result;
}

nlohmann::ordered_json to_json(const CalibrateResult& result) { return cal::calibration_json(result.report->view()); }
std::string to_toml(const CalibrateResult& result) { return cal::render_calibration_toml(result.report->view()); }
std::string to_text(const CalibrateResult& result) { return cal::render_calibration_text(result.report->view()); }

}  // namespace warpsim

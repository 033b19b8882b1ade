// warpsim::predict: one point of a built-in DWT workload (eq. 17, 18, 2D), as a sweep row.
#include "ptx_lowering.hpp"
#include "warpsim/sweep_report/sweep_report.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/named_workload_model.hpp"

namespace warpsim {

namespace detail {
struct PredictReport {
  std::unique_ptr<const sim::workload::NamedWorkloadModel> model;  // the row points to it and to the GPU
  gpus::Profile gpu;
  sim::driver::SweepRow row;
};
}  // namespace detail

namespace {
const std::vector<std::string> kAxes{"K", "N"};
}  // namespace

PredictResult predict(const PredictRequest& request) {
  auto report = std::make_shared<detail::PredictReport>();
  sim::driver::SweepRow& row = report->row;
  report->model = std::make_unique<const sim::workload::NamedWorkloadModel>(sim::workload::find_workload(request.workload));
  const sim::workload::NamedWorkloadModel& model = *report->model;
  row.workload = &model;
  report->gpu = gpus::load_profile(request.gpu);
  const gpus::Profile& gpu = report->gpu;
  row.gpu = &gpu;
  row.point = {{"K", request.K}, {"N", request.N}};
  std::optional<isa::Millicycles> tm;
  if (request.tm) tm = api::exact_cycles(*request.tm, "--tm");
  sim::workload::CoreTimeCache cache;
  sim::workload::ModelOverrides overrides;
  overrides.tp_us = request.tp_us;
  overrides.tm = tm;
  overrides.model = request.model;
  row.prediction = model.predict(gpu, row.point, overrides, cache);
  const sim::workload::Prediction& p = row.prediction;
  PredictResult result{p.time_us, p.launch.blocks, p.launch.threads_per_block, p.launches, {}};
  result.report = std::move(report);
  return result;
}

nlohmann::ordered_json to_json(const PredictResult& result) { return sim::report::sweep_row_json(result.report->row, kAxes); }

std::string to_text(const PredictResult& result) {
  return sim::report::render_sweep({result.report->row}, sim::report::SweepFormat::text, kAxes);
}

}  // namespace warpsim

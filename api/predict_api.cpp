// warpsim::predict: one point of a built-in DWT workload (eq. 17, 18, 2D), as a sweep row.
#include "api/ptx_lowering.hpp"
#include "warpsim/sweep_report/sweep_report.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/named_workload_model.hpp"

namespace warpsim {

PredictResult predict(const PredictRequest& request) {
  sim::driver::SweepRow row;
  const sim::workload::NamedWorkloadModel model(sim::workload::find_workload(request.workload));
  row.workload = &model;
  const gpus::Profile gpu = gpus::load_profile(request.gpu);
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
  const std::vector<std::string> axes{"K", "N"};
  return {sim::report::sweep_row_json(row, axes), sim::report::render_sweep({row}, sim::report::SweepFormat::text, axes)};
}

}  // namespace warpsim

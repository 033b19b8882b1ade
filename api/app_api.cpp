// warpsim::run_app: a whole application over GPU counts and axes (docs/apps.md), and its reports.
#include "warpsim/app/app_report.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

namespace detail {
struct AppReport {
  sim::app::App app;  // the rows point into its GPUs
  sim::app::AppRun run;
};
}  // namespace detail

AppResult run_app(const AppRequest& request) {
  if (request.jobs < 0 || request.jobs > 4096) throw InputError("--jobs " + std::to_string(request.jobs) + ": give 0 (every core) .. 4096");
  auto report = std::make_shared<detail::AppReport>();
  report->app = sim::app::load_app(request.app);
  if (request.model) {
    for (sim::app::Step& step : report->app.steps) step.kernel.overrides.model = *request.model;
  }
  sim::driver::SweepOptions options;
  options.jobs = request.jobs;
  options.stop = request.control.cancel;
  options.progress = request.control.progress;
  try {
    report->run = sim::app::run_app(report->app, options);
  } catch (const InputError&) {
    if (request.control.cancel && *request.control.cancel) throw Cancelled{};  // the stopped steps' error
    throw;
  }
  AppResult result;
  for (const sim::app::AppRow& row : report->run.rows) result.rows.push_back({row.gpu->id, row.gpu_count, row.total_us, row.speedup});
  result.warnings = report->run.warnings;
  result.report = std::move(report);
  return result;
}

nlohmann::ordered_json to_json(const AppResult& result) { return sim::app::app_json(result.report->app, result.report->run); }
std::string to_csv(const AppResult& result) { return sim::app::app_csv(result.report->app, result.report->run); }
std::string to_text(const AppResult& result) { return sim::app::app_text(result.report->app, result.report->run); }
std::string to_svg(const AppResult& result) { return sim::app::scaling_chart_svg(result.report->app, result.report->run); }

}  // namespace warpsim

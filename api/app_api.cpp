// warpsim::run_app: a whole application over GPU counts and axes (docs/apps.md).
#include "warpsim/app/app_report.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

AppResult run_app(const AppRequest& request) {
  if (request.jobs < 0 || request.jobs > 4096) throw InputError("--jobs " + std::to_string(request.jobs) + ": give 0 (every core) .. 4096");
  sim::app::App app = sim::app::load_app(request.app);
  if (request.model) {
    for (sim::app::Step& step : app.steps) step.kernel.overrides.model = *request.model;
  }
  sim::driver::SweepOptions options;
  options.jobs = request.jobs;
  options.stop = request.control.cancel;
  options.progress = request.control.progress;
  const sim::app::AppRun run = sim::app::run_app(app, options);
  return {sim::app::app_json(app, run), sim::app::app_csv(app, run), sim::app::app_text(app, run),
          request.chart ? sim::app::scaling_chart_svg(app, run) : std::string(), run.warnings};
}

}  // namespace warpsim

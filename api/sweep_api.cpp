// warpsim::sweep: every point of a suite, or the rows of a point list, streamed in order.
#include "sweep_setup.hpp"
#include "warpsim/driver/sweep.hpp"

namespace warpsim {
namespace {

sim::report::SweepFormat sweep_format(Format format) {
  return format == Format::csv ? sim::report::SweepFormat::csv
         : format == Format::json ? sim::report::SweepFormat::json
                                  : sim::report::SweepFormat::text;
}

}  // namespace

namespace api {

SweepSetup::SweepSetup(const SweepRequest& request, Format format) {
  if (request.jobs < 0 || request.jobs > 4096) {
    throw InputError("--jobs " + std::to_string(request.jobs) + ": give 0 (every core) .. 4096");
  }
  if (request.suite.empty() == request.points.empty()) {
    throw InputError("give a suite (sweep SUITE.toml) or a point list (sweep --points ROWS.csv), not both");
  }
  if (!request.suite.empty()) {
    suite = sim::driver::load_suite(request.suite);
    if (request.model) sim::driver::use_model(*suite, *request.model);
    suite_points = sim::driver::suite_points(*suite);
    writer.emplace(sweep_format(format), suite->axis_names());
  } else {
    point_list.emplace(sim::driver::load_point_list(request.points));
    if (request.model) point_list->use_model(*request.model);
    writer.emplace(sweep_format(format), std::vector<std::string>{}, point_list->columns);
  }
}

const sim::driver::SweepPoints& SweepSetup::points() const {
  if (suite) return *suite_points;
  return *point_list;
}

}  // namespace api

SweepSummary sweep(const SweepRequest& request, Format format, const std::function<void(const std::string&)>& write) {
  api::SweepSetup setup(request, format);
  write(setup.writer->begin());
  sim::driver::SweepOptions options;
  options.jobs = request.jobs;
  options.stop = request.control.cancel;
  options.progress = request.control.progress;
  const sim::driver::SweepStats stats = sim::driver::run_sweep(
      setup.points(), [&](const sim::driver::SweepRow& row) { write(setup.writer->add(row)); }, options);
  if (!stats.stopped) write(setup.writer->finish());
  return {stats.points, setup.points().total(), stats.stopped, sim::driver::warning_lines(stats)};
}

std::string sweep(const SweepRequest& request, Format format) {
  std::string out;
  const SweepSummary summary = sweep(request, format, [&](const std::string& piece) { out += piece; });
  if (summary.stopped) {
    throw InputError("the sweep was stopped after " + std::to_string(summary.points) + " of " +
                     std::to_string(summary.total) + " points");
  }
  return out;
}

}  // namespace warpsim

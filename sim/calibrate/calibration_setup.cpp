#include "warpsim/calibrate/calibration_setup.hpp"

#include <algorithm>
#include <cmath>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::sim::calibrate {

ProgramDefaults program_defaults(const workload::WorkloadModel& model) {
  return {model.own_durations(), model.own_tm()};
}

Setup set_up_calibration(const workload::WorkloadModel& model, const gpus::Profile& gpu, MeasuredData data,
                         const ProgramDefaults& defaults, const SetupOptions& options) {
  Setup setup;
  CalibrationProblem& p = setup.problem;
  p.model = &model;
  p.gpu = &gpu;
  p.section = options.section;
  const std::string section = options.section.empty() ? model.kernel() : options.section;
  const gpus::Calibration* stored = gpu.calibration(section);
  const std::optional<double> launch = data.median_launch_us();
  const std::size_t duration_count = model.duration_names().size();

  std::string fit = options.fit;
  if (fit.empty()) fit = launch || options.tp_us ? "tm" : "tm,tp";
  p.fit = parse_fit_list(fit, duration_count, data.min_time_us());
  if (!options.bounds.empty()) apply_bounds(p.fit, options.bounds);
  const bool fit_tp = fits(p.fit, ParameterKind::tp), fit_tm = fits(p.fit, ParameterKind::tm);

  // t_p
  if (options.tp_us) {
    p.start_tp_us = options.tp_us;
    setup.tp_origin = "--tp " + report::shortest(*options.tp_us);
  } else if (launch) {
    p.start_tp_us = launch;
    std::size_t rows = 0;
    for (const MeasuredPoint& m : data.points) rows += m.launch_us ? 1 : 0;
    setup.tp_origin = "median of launch_us over " + std::to_string(rows) + " rows";
  } else if (stored) {
    p.start_tp_us = stored->tp_us;
    setup.tp_origin = "[calibration." + section + "] of " + gpu.id;
  } else if (!fit_tp) {
    throw InputError("no t_p for " + model.name() + " on " + gpu.id + ": add tp to --fit, give --tp US, a launch_us column, or [calibration." +
                     section + "] in " + gpu.source);
  }
  if (fit_tp) setup.tp_origin = "fitted (exact for each trial)" + (p.start_tp_us ? "; start: " + setup.tp_origin : std::string());

  // t_m
  if (options.tm) {
    p.start_tm = *options.tm;
  } else if (stored) {
    p.start_tm = stored->tm;
  } else if (defaults.tm) {
    p.start_tm = *defaults.tm;
  } else if (fit_tm) {
    p.start_tm = kDefaultStartTm;
  } else {
    throw InputError("no t_m for " + model.name() + " on " + gpu.id + ": add tm to --fit, give --tm CYCLES, or add [calibration." +
                     section + "] to " + gpu.source);
  }

  // d1 .. dn: the profile's, else the program's, for every fitted one and every one the profile sets.
  p.start_durations.assign(duration_count, std::nullopt);
  for (std::size_t i = 0; i < duration_count; ++i) {
    if (stored && i < stored->memory_durations.size() && stored->memory_durations[i]) {
      p.start_durations[i] = stored->memory_durations[i];
    } else if (fits(p.fit, ParameterKind::duration, i)) {
      p.start_durations[i] = i < defaults.durations.size() ? defaults.durations[i] : isa::Millicycles{60'000};
    }
  }
  while (!p.start_durations.empty() && !p.start_durations.back()) p.start_durations.pop_back();
  p.data = std::move(data);
  return setup;
}

}  // namespace warpsim::sim::calibrate

// Fitting a workload's t_p, t_m and memory-instruction durations to measured times (MODEL.md
// section 7; docs/calibration.md): minimises E = mean |1 - t_model / t_measured| within bounds.
//
// The simulator is discrete-event, so E is piecewise constant in t_m and the durations (they are
// exact to 0.001 cycles, and schedules change in steps): no gradients. A derivative-free global
// pass (NLopt GN_DIRECT_L over log(1 + x) of each parameter, so that small and large values are
// searched at the same relative resolution) is followed by a local polish (NLopt LN_SBPLX) from
// the best point found. t_p never enters the optimiser: for each trial its best value is exact
// (fit_error.hpp). Deterministic: the same problem and options give the same result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/calibrate/fit_error.hpp"
#include "warpsim/calibrate/fit_parameters.hpp"
#include "warpsim/calibrate/measured_points.hpp"

namespace warpsim::sim::calibrate {

struct CalibrationProblem {
  const workload::WorkloadModel* model = nullptr;
  const gpus::Profile* gpu = nullptr;
  MeasuredData data;
  std::vector<FitParameter> fit;
  // Starting values, and the values of what is not fitted. start_tp_us may be empty only when tp
  // is fitted: the "before" figures then use the best t_p for the other starting values.
  std::optional<double> start_tp_us;
  isa::Millicycles start_tm = 0;
  // d1, d2, ...: every fitted duration needs a value; nullopt keeps the profile's or program's.
  std::vector<std::optional<isa::Millicycles>> start_durations;
  std::string section;  // the profile's calibration section for the rest; empty: the kernel's
  Model timing_model = kDefaultModel;  // --model
};

struct CalibrateOptions {
  std::int64_t max_evaluations = 3000;  // objective evaluations in all (trials of t_m and durations)
  std::uint32_t seed = 5489;            // nlopt::srand, for the stochastic parts of NLopt
};

struct FitResult {
  ModelValues values;
  Accuracy accuracy;
};

struct CalibrationResult {
  FitResult before;  // at the starting values
  FitResult after;   // at the fitted values (t_p rounded to 0.0001 us, cycles to 0.001)
  std::int64_t evaluations = 0;  // objective evaluations, the start included
  std::int64_t trials = 0;       // distinct (t_m, durations) among them
  std::int64_t simulations = 0;  // core-package simulations run (the rest came from the cache)
  double seconds = 0;
  std::string method;
};

// Throws InputError when a point cannot be predicted, std::invalid_argument for an inconsistent
// problem (no points, a fitted duration without a starting value, t_p neither fitted nor given).
CalibrationResult calibrate(const CalibrationProblem& problem, const CalibrateOptions& options = {});

}  // namespace warpsim::sim::calibrate

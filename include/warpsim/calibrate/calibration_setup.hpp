// Turning what `warpsim calibrate` was given into a CalibrationProblem: which parameters to fit
// (--fit, default t_m, plus t_p when the measurements have no launch_us column), their bounds
// (--bounds), and the starting values of each, in this order of preference:
//   t_p   --tp; the median of launch_us; the profile's [calibration.<kernel>]; else (fitted only)
//         the best t_p for the other starting values
//   t_m   --tm; the profile's section; the program's `tm` line; else (fitted only) 10 cycles
//   d_i   the profile's section; the program's own duration
// What is not fitted keeps its starting value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "warpsim/isa/program.hpp"
#include "warpsim/calibrate/calibrate.hpp"

namespace warpsim::sim::calibrate {

struct SetupOptions {
  std::string fit;                      // "tm,tp,d1"; empty: the default
  std::string bounds;                   // "tm=0:100"; empty: the default bounds
  std::optional<double> tp_us;          // --tp
  std::optional<isa::Millicycles> tm;   // --tm
  std::string section;                  // profile section; empty: the workload's kernel
};

// What the workload's own program says: its durations d1 .. dn and its `tm` line.
struct ProgramDefaults {
  std::vector<isa::Millicycles> durations;
  std::optional<isa::Millicycles> tm;
};

// The model's own durations and `tm` (WorkloadModel::own_durations, own_tm).
ProgramDefaults program_defaults(const workload::WorkloadModel& model);

inline constexpr isa::Millicycles kDefaultStartTm = 10'000;  // 10 cycles

struct Setup {
  CalibrationProblem problem;
  std::string tp_origin;  // for the report
};

// Throws InputError (naming the flag) for a bad --fit or --bounds, or when a parameter that is
// not fitted has no value from anywhere.
Setup set_up_calibration(const workload::WorkloadModel& model, const gpus::Profile& gpu, MeasuredData data,
                         const ProgramDefaults& defaults, const SetupOptions& options);

}  // namespace warpsim::sim::calibrate

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {

Calibration resolve_calibration(const Profile& gpu, std::string_view kernel,
                                const CalibrationChoice& given,
                                std::optional<isa::Millicycles> program_tm) {
  const Calibration* stored = gpu.calibration(kernel);
  const auto missing = [&](const char* what, const char* flag) {
    return InputError(std::string("no ") + what + " for kernel '" + std::string(kernel) + "' on " +
                      gpu.id + ": give " + flag + " or add [calibration." + std::string(kernel) +
                      "] to " + gpu.source);
  };
  Calibration chosen;
  if (given.tp_us) {
    chosen.tp_us = *given.tp_us;
  } else if (stored) {
    chosen.tp_us = stored->tp_us;
  } else if (given.default_tp_us) {
    chosen.tp_us = *given.default_tp_us;
  } else {
    throw missing("t_p", "--tp US");
  }
  if (given.tm) {
    chosen.tm = *given.tm;
  } else if (stored) {
    chosen.tm = stored->tm;
  } else if (program_tm) {
    chosen.tm = *program_tm;
  } else if (given.default_tm) {
    chosen.tm = *given.default_tm;
  } else {
    throw missing("t_m", "--tm CYCLES");
  }
  if (stored) chosen.memory_durations = stored->memory_durations;
  if (chosen.memory_durations.size() < given.memory_durations.size()) chosen.memory_durations.resize(given.memory_durations.size());
  for (std::size_t i = 0; i < given.memory_durations.size(); ++i) {
    if (given.memory_durations[i]) chosen.memory_durations[i] = given.memory_durations[i];
  }
  return chosen;
}

}  // namespace warpsim::gpus

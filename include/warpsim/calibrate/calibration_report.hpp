// What `warpsim calibrate` prints: a [calibration.<kernel>] section for a GPU profile preceded by
// comment lines with E and E^ before and after (TOML), everything at full precision (JSON), or
// tables for people (text).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpsim/calibrate/calibrate.hpp"

namespace warpsim::sim::calibrate {

struct CalibrationReport {
  const CalibrationProblem* problem = nullptr;
  const CalibrationResult* result = nullptr;
  std::string tp_origin;  // where t_p came from: "fitted", "median of launch_us (30 rows)", ...
};

// The section's name: the problem's section, else the workload's kernel.
std::string section_name(const CalibrationProblem& problem);

// tp_us, tm and every duration the fitted values set (d1 .. dn), one `key = value` line each.
std::string calibration_section(const CalibrationProblem& problem, const ModelValues& values);

std::string render_calibration_toml(const CalibrationReport& report);
nlohmann::ordered_json calibration_json(const CalibrationReport& report);
std::string render_calibration_text(const CalibrationReport& report);

}  // namespace warpsim::sim::calibrate

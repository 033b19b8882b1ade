// Pieces shared by the workload models: naming d1, d2, ... and packing what identifies a
// core-package simulation into a CoreTimeKey.
#pragma once

#include <string>
#include <vector>

#include "isa/program.hpp"
#include "sim/workload/core_time_cache.hpp"
#include "sim/workload/model_overrides.hpp"

namespace warpsim::sim::workload {

// "d1 (load, line 4)", ... for each memory instruction of the program.
std::vector<std::string> memory_duration_names(const isa::Program& program);

// Appends the calibration's durations (0 for "the program's own") to a cache key.
void append_durations(CoreTimeKey& key, const gpus::Calibration& calibration);

// The program with the calibration's durations, or the program itself when they change nothing.
isa::Program apply_durations(const isa::Program& program, const gpus::Calibration& calibration);

}  // namespace warpsim::sim::workload

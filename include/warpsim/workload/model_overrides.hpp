// What a calibration or a sweep may change in a workload's model without editing files: t_p,
// t_m, and the durations d1, d2, ... of the program's memory instructions (loads and stores, in
// program order: the paper's d_1 .. d_3 of Listing 4).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/program.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim::sim::workload {

struct ModelOverrides {
  std::optional<double> tp_us;
  std::optional<isa::Millicycles> tm;
  std::vector<std::optional<isa::Millicycles>> memory_durations;  // d1, d2, ...; nullopt: the profile's, else the program's
  std::string section;  // the profile's [calibration.<section>] to use; empty: the workload's kernel
  Model model = kDefaultModel;
  std::int64_t max_warp_instructions = core::kDefaultMaxWarpInstructions;  // --max-instructions
  std::int64_t dynamic_shared_bytes = 0;  // PTX kernels: the launch's dynamic shared memory, for occupancy

  // What was given, with the model's defaults for what nothing gives (with_model_defaults).
  gpus::CalibrationChoice calibration_choice(const gpus::Profile& gpu) const {
    return with_model_defaults(gpu, {tp_us, tm, memory_durations}, model);
  }
  const std::string& section_or(const std::string& kernel) const { return section.empty() ? kernel : section; }
};

bool changes_durations(std::span<const std::optional<isa::Millicycles>> durations);

// Load and store instructions of the program text (each once, however often loops run them).
std::size_t memory_instruction_count(const isa::Program& program);

// A copy with the i-th memory instruction's duration replaced by durations[i] where given. Throws
// InputError when there are more durations than memory instructions or one is not positive.
isa::Program with_memory_durations(const isa::Program& program,
                                   std::span<const std::optional<isa::Millicycles>> durations);

// A copy with every load taking `load` and every store `store` where given (PTX: d1 and d2).
isa::Program with_load_store_durations(const isa::Program& program, std::optional<isa::Millicycles> load,
                                       std::optional<isa::Millicycles> store);

}  // namespace warpsim::sim::workload

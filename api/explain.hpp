// `warpsim explain` (simulate --explain): why a prediction takes that long, from one more run of
// the core package the other views show, instruction by instruction (docs/explain.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/occupancy/occupancy.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/sass/listing.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// What an explanation reads of a simulation beside its result.
struct ExplainInputs {
  std::vector<const isa::Program*> package;  // core package 0's warps, one program each
  isa::Millicycles tm = 0;
  sim::core::CoreOptions engine;             // the pipes model's (pipes set)
  std::string source_path;                   // the .ptx or .kp file (empty: a built-in program)
  // A PTX kernel: a program's op notes (their PTX lines); null for a .kp program (Op::line).
  std::function<const std::vector<ptx::OpNote>*(const isa::Program*)> notes_of;
  sim::occupancy::KernelResources resources;  // the kernel's, for occupancy and its curves
  std::string registers_source;
  std::shared_ptr<const sass::Listing> sass;  // the SASS the pipes model timed; null: PTX order
};

// Throws InputError unless `model` is the pipes model (only it times each pipe and wait).
void require_pipes_model(Model model);

// Throws InputError when the result was not simulated under the pipes model.
Explanation explain(const ExplainInputs& in, const gpus::Profile& gpu, const SimulateResult& result);

}  // namespace warpsim::api

namespace warpsim::api {

// The explanation inside simulate's JSON ("explain") and text (its sections after the figures).
nlohmann::ordered_json explanation_json(const Explanation& e);
std::string explanation_text(const Explanation& e);

}  // namespace warpsim::api

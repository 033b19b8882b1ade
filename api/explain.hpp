// `warpsim explain` (simulate --explain): why a prediction takes that long, from one more run of
// the core package the other views show, instruction by instruction (docs/explain.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/core/simulate_core.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/occupancy/occupancy.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/sass/listing.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

// What explain's findings re-simulate (explain_findings.cpp): the launch as lowered and timed.
struct FindingInputs {
  const ptx::LoweredKernel* kernel = nullptr;        // null: a .kp program (the launch's findings only)
  const std::vector<isa::Program>* timed = nullptr;  // the programs as timed; null: the kernel's own
  SimulateRequest request;                           // the baseline's, for other block sizes
  sim::grid::Launch launch;                          // as timed, with its occupancy
  double tp_us = 0;
  isa::Millicycles tm = 0;
  Model model = Model::pipes;
  std::int64_t max_warp_instructions = 0;
  bool annotated = false;                            // the programs carry memory annotations
};

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
  const FindingInputs* advice = nullptr;      // null: no findings
};

// Each cause the prediction shows, with the speed-up of the launch re-simulated without it, most
// speed-up first; none under 1.05x (docs/explain.md, "Findings").
std::vector<Finding> findings(const ExplainInputs& in, const FindingInputs& f, const gpus::Profile& gpu, const SimulateResult& result);

// Throws InputError unless `model` is the pipes model (only it times each pipe and wait).
void require_pipes_model(Model model);

// Throws InputError when the result was not simulated under the pipes model.
Explanation explain(const ExplainInputs& in, const gpus::Profile& gpu, const SimulateResult& result);

}  // namespace warpsim::api

namespace warpsim::api {

// The explanation inside simulate's JSON ("explain") and text (its sections after the figures).
nlohmann::ordered_json explanation_json(const Explanation& e);
nlohmann::ordered_json findings_json(const std::vector<Finding>& findings);  // full precision
std::string findings_text(const std::vector<Finding>& findings);            // one numbered entry each
std::string explanation_text(const Explanation& e);

}  // namespace warpsim::api

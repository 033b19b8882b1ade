#include "ptx_options.hpp"

#include <charconv>
#include <cmath>

#include "progress.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::cli {

bool is_ptx_path(const std::string& path) { return path.ends_with(".ptx"); }

std::string nvcc_flags(const po::variables_map& values) {
  return values.count("nvcc-flags") ? values["nvcc-flags"].as<std::string>() : std::string();
}

void add_ptx_options(po::options_description& options) {
  options.add_options()
      ("kernel", po::value<std::string>(), "PTX: the kernel (.entry) to use, mangled or short name (default: the only one)")
      ("unknown-trips", po::value<std::string>()->default_value("1"),
       "PTX: a loop whose exit depends on a value loaded from memory leaves at the N-th test of its exit branch")
      ("unknown-branch", po::value<std::string>()->default_value("fallthrough"),
       "PTX: any other branch that depends on a value loaded from memory falls through (fallthrough) or jumps (taken)")
      ("max-steps", po::value<std::string>(), "PTX: limit on emulated instructions per warp (default 2^28)")
      ("emulate-all", "PTX: emulate every warp and loop iteration (the reference the fast lowering is checked against; "
                      "same result, slower)")
      ("exact", "PTX: emulate every block even where each follows its own path, and simulate every run of a launch "
                "whose core packages never repeat (no sampling; docs/ptx.md, \"Sampling\")")
      ("sample-budget", po::value<std::string>(),
       "PTX: warp-instructions an exact lowering may emulate before a launch whose blocks each follow their own path is "
       "sampled, and warp-ops the timing may simulate before a sample of a launch's distinct runs stands for the rest "
       "(default 2^23)")
      ("sample-seed", po::value<std::string>(), "PTX: the seed that draws a sampled launch's blocks or runs (default 1)")
      ("load-cycles", po::value<std::string>(), "PTX: duration of a global load in cycles (default 60, the paper's calibration)")
      ("store-cycles", po::value<std::string>(), "PTX: duration of a global store in cycles (default 60)")
      ("input", po::value<std::vector<std::string>>()->composing(),
       "PTX: PARAM=SPEC (repeatable): what a pointer parameter's buffer holds, so loads from it are emulated with "
       "its values: zeros, const:V, uniform:LOW:HIGH (a fixed pseudo-random draw per element) or file:PATH (raw "
       "bytes); PARAM by position or name as --param. Without it loaded values are unknown")
      ("nvcc-flags", po::value<std::string>(), kNvccFlagsHelp)
      ("max-seconds", po::value<std::string>(),
       "stop after S seconds with an error (exit 2) that names the PTX line, warp and loop the emulation was at "
       "(default: no limit)");
}

void start_time_limit(const po::variables_map& v) {
  if (!v.count("max-seconds")) return;
  const std::string text = v["max-seconds"].as<std::string>();
  double seconds = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > 1e9) {
    throw InputError("--max-seconds " + quote_for_message(text) + ": expected seconds, more than 0 and at most 10^9");
  }
  stop_after(seconds);
}

PtxOptions ptx_options(const po::variables_map& v) {
  PtxOptions options;
  if (v.count("kernel")) options.kernel = v["kernel"].as<std::string>();
  const std::string branch = v["unknown-branch"].as<std::string>();
  if (branch != "fallthrough" && branch != "taken") {
    throw InputError("--unknown-branch " + quote_for_message(branch) + ": expected fallthrough or taken");
  }
  options.unknown_branch_taken = branch == "taken";
  options.unknown_trips = parse_count(v["unknown-trips"].as<std::string>(), "--unknown-trips");
  if (v.count("max-steps")) options.max_steps = parse_count(v["max-steps"].as<std::string>(), "--max-steps");
  if (v.count("load-cycles")) options.load_cycles = parse_cycles(v["load-cycles"].as<std::string>(), "--load-cycles");
  if (v.count("store-cycles")) options.store_cycles = parse_cycles(v["store-cycles"].as<std::string>(), "--store-cycles");
  options.emulate_all = v.count("emulate-all") > 0;
  options.exact = v.count("exact") > 0;
  if (v.count("sample-budget")) options.sample_budget = parse_count(v["sample-budget"].as<std::string>(), "--sample-budget");
  if (v.count("sample-seed")) options.sample_seed = parse_count(v["sample-seed"].as<std::string>(), "--sample-seed");
  if (v.count("input")) options.inputs = split_parameters(v["input"].as<std::vector<std::string>>(), "--input");
  return options;
}

SimulateRequest simulation_request(const po::variables_map& values) {
  SimulateRequest request;
  if (values.count("program")) request.program = values["program"].as<std::string>();
  request.gpu = values["gpu"].as<std::string>();
  request.tp_us = tp_flag(values);
  request.tm = tm_flag(values);
  request.params = parameters(values);
  request.model = model_flag(values);
  request.max_instructions = max_instructions(values);
  request.ptx = ptx_options(values);
  if (values.count("regs")) request.registers = parse_count(values["regs"].as<std::string>(), "--regs");
  request.ptxas = values["ptxas"].as<std::string>();
  if (values.count("nvdisasm")) request.nvdisasm = values["nvdisasm"].as<std::string>();
  request.use_cache = !values.count("no-cache");
  request.nvcc_flags = nvcc_flags(values);
  return request;
}

}  // namespace warpsim::cli

// warpsim::what_if: simulate once as given and once with figures of the GPU or the kernel changed.
#include "figure_change.hpp"
#include "simulate_on.hpp"
#include "warpsim/gpus/profile_figures.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

std::int64_t whole(double value) { return static_cast<std::int64_t>(value); }

// Applies one change to the what-if run's profile or request; the baseline's figures come from
// its profile, request and result.
FigureChange apply(const api::ParsedChange& change, const SimulateResult& baseline, gpus::Profile& gpu,
                   SimulateRequest& request) {
  const std::string what = "--set " + change.figure + "=" + change.given;
  FigureChange applied{change.figure, change.given, 0, 0};
  if (change.figure == api::kRegistersFigure) {
    if (!baseline.ptx || !baseline.ptx->registers_per_thread) {
      throw InputError(what + ": registers are a PTX kernel's (.ptx, .cu) under the memory-aware models (--model memory|pipes)");
    }
    applied.baseline = static_cast<double>(*baseline.ptx->registers_per_thread);
    applied.value = api::changed_value(change, applied.baseline, true);
    if (applied.value < 1 || applied.value != static_cast<double>(whole(applied.value)) || applied.value > 65536) {
      throw InputError(what + ": registers per thread would be " + sim::report::shortest(applied.value) +
                       ", not a whole number in [1, 65536]");
    }
    request.registers = whole(applied.value);
  } else if (change.figure == api::kSharedFigure) {
    applied.baseline = static_cast<double>(request.dynamic_shared_bytes);
    applied.value = api::changed_value(change, applied.baseline, true);
    if (applied.value != static_cast<double>(whole(applied.value)) || applied.value > 1e12) {
      throw InputError(what + ": dynamic shared memory would be " + sim::report::shortest(applied.value) +
                       " bytes, not a whole number of bytes");
    }
    request.dynamic_shared_bytes = whole(applied.value);
  } else {
    const std::optional<double> known = gpus::figure_value(gpu, change.figure);
    if (!known && change.form != api::ChangeForm::replace) {
      throw InputError(what + ": " + gpu.id + "'s profile has no " + change.figure + " to scale: give a number");
    }
    applied.baseline = known.value_or(0);
    applied.value = api::changed_value(change, applied.baseline, gpus::whole_number_figure(change.figure));
    gpus::set_figure(gpu, change.figure, applied.value, what);
  }
  return applied;
}

}  // namespace

std::vector<std::string> what_if_figures() { return api::changeable_figure_names(); }

WhatIfResult what_if(const WhatIfRequest& request) {
  std::vector<api::ParsedChange> parsed;
  for (const std::string& text : request.changes) parsed.push_back(api::parse_change(text));
  if (parsed.empty()) throw InputError("--set: give at least one FIGURE=VALUE");
  const gpus::Profile gpu = gpus::load_profile(request.simulation.gpu);
  WhatIfResult result;
  result.baseline = api::simulate_on(request.simulation, gpu);
  gpus::Profile changed_gpu = gpu;
  SimulateRequest changed_request = request.simulation;
  for (const api::ParsedChange& change : parsed) result.changes.push_back(apply(change, result.baseline, changed_gpu, changed_request));
  result.changed = api::simulate_on(changed_request, changed_gpu);
  result.speedup = result.baseline.time_us / result.changed.time_us;
  return result;
}

nlohmann::ordered_json to_json(const WhatIfResult& r) {
  using sim::report::number_json;
  nlohmann::ordered_json out;
  out["gpu"] = r.baseline.gpu;
  out["kernel"] = r.baseline.kernel;
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const FigureChange& c : r.changes) {
    changes.push_back({{"figure", c.figure}, {"given", c.given}, {"baseline", number_json(c.baseline)}, {"value", number_json(c.value)}});
  }
  out["changes"] = changes;
  out["baseline_time_us"] = r.baseline.time_us;
  out["what_if_time_us"] = r.changed.time_us;
  out["speedup"] = r.speedup;
  out["baseline"] = to_json(r.baseline);
  out["what_if"] = to_json(r.changed);
  return out;
}

std::string to_text(const WhatIfResult& r) {
  using sim::report::shortest;
  std::string text = "what if: " + r.baseline.kernel + " on " + r.baseline.gpu + "\n";
  for (const FigureChange& c : r.changes) {
    text += "  " + c.figure + " = " + c.given + ": " + shortest(c.baseline) + " -> " + shortest(c.value) + "\n";
  }
  sim::report::TextTable table({"quantity", "baseline", "what-if"});
  table.add_row({"time_us", sim::report::fixed(r.baseline.time_us, 3), sim::report::fixed(r.changed.time_us, 3)});
  table.add_row({"cycles", shortest(r.baseline.cycles), shortest(r.changed.cycles)});
  table.add_row({"active_blocks_per_sm", std::to_string(r.baseline.plan.active_blocks_per_sm),
                 std::to_string(r.changed.plan.active_blocks_per_sm)});
  table.add_row({"full_runs", std::to_string(r.baseline.plan.full_runs), std::to_string(r.changed.plan.full_runs)});
  if (r.baseline.limits && r.changed.limits) table.add_row({"limiter", r.baseline.limits->limiter, r.changed.limits->limiter});
  text += table.render();
  text += "speed-up: " + sim::report::fixed(r.speedup, 3) + "x (baseline time over what-if time)\n";
  return text;
}

}  // namespace warpsim

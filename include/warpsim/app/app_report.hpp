// An app's predicted rows as JSON, CSV, a text table and a scaling chart (docs/apps.md).
// JSON and CSV carry full precision; the text table rounds.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "warpsim/app/app.hpp"
#include "warpsim/app/app_run.hpp"

namespace warpsim::sim::app {

// {"app", "rows": [{"gpu", "gpus": M, <axes>..., "total_us", "speedup", "steps": [{"name", "kind", "time_us", ...}]}]}
nlohmann::ordered_json app_json(const App& app, const AppRun& run);
// gpu,gpus,<axes>...,<step>_us...,total_us,speedup
std::string app_csv(const App& app, const AppRun& run);
// The CSV's columns, microseconds to three decimals, speed-up to two.
std::string app_text(const App& app, const AppRun& run);
// Total time (log) and speed-up over one GPU against M, a line per GPU and axis point, with the
// ideal speed-up M for reference.
std::string scaling_chart_svg(const App& app, const AppRun& run);

}  // namespace warpsim::sim::app

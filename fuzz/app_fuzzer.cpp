// libFuzzer harness: app TOML (docs/apps.md) -> parse_app, then run_app on one thread when the
// app is small. GPU ids resolve to the built-in profiles; InputError is the expected answer to a
// bad app (or a row that cannot be priced); any other exception, crash, sanitizer report or
// hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "warpsim/app/app.hpp"
#include "warpsim/app/app_report.hpp"
#include "warpsim/app/app_run.hpp"
#include "warpsim/isa/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::sim::app::App app = warpsim::sim::app::parse_app(text, "fuzz.toml");
    if (app.row_count() > 256) return 0;  // a big app is slow, not wrong: the limits are tested elsewhere
    warpsim::sim::driver::SweepOptions options;
    options.jobs = 1;
    const warpsim::sim::app::AppRun run = warpsim::sim::app::run_app(app, options);
    (void)warpsim::sim::app::app_json(app, run).dump();
    (void)warpsim::sim::app::app_csv(app, run);
    (void)warpsim::sim::app::scaling_chart_svg(app, run);
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}

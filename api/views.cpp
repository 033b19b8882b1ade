#include "views.hpp"


#include "warpsim/grid/launch.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/isa/parameter_text.hpp"
#include "warpsim/timeline/timeline.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim::api {

Views render_views(const std::vector<const isa::Program*>& programs, isa::Millicycles tm, const std::string& title,
                   const sim::core::CoreOptions& engine, bool timeline, bool trace) {
  Views views;
  if (!timeline && !trace) return views;
  sim::report::TimelineRun run;
  run.title = title;
  run.warps = programs.size();
  sim::core::CoreOptions options = engine;
  options.events = &run.events;
  run.total = sim::core::simulate_core(programs, tm, options);
  if (timeline) views.timeline_svg = sim::report::render_timeline_svg(run);
  if (trace) views.trace_json = sim::report::render_trace_json(run);
  return views;
}

std::int64_t count(Dim3 d, const std::string& what) {
  return sim::grid::parse_dimensions(std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z), what);
}

sim::core::CoreOptions core_options(const std::optional<std::int64_t>& max_instructions) {
  sim::core::CoreOptions options;
  if (max_instructions) options.max_warp_instructions = *max_instructions;
  return options;
}

isa::Program load_bound_program(const std::string& path, const Parameters& params) {
  if (path.ends_with(".ptx")) {
    throw InputError(SourceLocation{path}, "this command runs a .kp program; lower the PTX with `warpsim lower` "
                                           "(or predict it with `warpsim simulate`)");
  }
  return sim::workload::load_kernel_program(path).bind(isa::parse_parameter_values(params));
}

}  // namespace warpsim::api

#include "ptx_lowering.hpp"

#include <sstream>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <variant>

#include "warpsim/ptx/lowering_warnings.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::api {
namespace {

ptx::Dim3 dim3(Dim3 d) { return ptx::Dim3{d.x, d.y, d.z}; }

std::string plural(std::int64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string note_text(const isa::Op& op, const ptx::OpNote& note) {
  if (op.kind == isa::OpKind::calc) {
    if (note.instructions == 0) return "opens a calc period (+9)";
    return plural(note.instructions, "instruction") + (note.opens_period ? " + 9" : "");
  }
  if (!isa::is_memory(op.kind)) return "";
  const std::int32_t t = note.transactions;
  if (t == 0) return "no lane active";
  switch (op.space) {
    case isa::MemorySpace::shared:
      if (t < 0) return "ways unknown";
      if (note.broadcast) return "broadcast";
      return t == 1 ? "no bank conflict" : std::to_string(t) + "-way bank conflict";
    case isa::MemorySpace::constant:
      if (t < 0) return "addresses unknown";
      return std::to_string(t) + (t == 1 ? " address" : " addresses");
    default:
      return t < 0 ? "sectors unknown" : plural(t, "sector");
  }
}

// The program's ops as nested JSON, from op `i` to the end of the enclosing loop.
nlohmann::ordered_json ops_json(const ptx::WarpProgram& p, std::size_t& i) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const std::vector<isa::Op>& ops = p.program.ops();
  while (i < ops.size()) {
    const isa::Op& op = ops[i];
    const ptx::OpNote& note = p.notes[i];
    ++i;
    if (op.kind == isa::OpKind::end) break;
    nlohmann::ordered_json j;
    j["op"] = isa::to_string(op.kind);
    if (op.kind == isa::OpKind::repeat) {
      j["count"] = op.count;
      j["body"] = ops_json(p, i);
    } else {
      j["cycles"] = sim::report::cycles_json(op.duration);
      if (op.kind == isa::OpKind::calc) {
        j["instructions"] = note.instructions;
        j["opens_period"] = note.opens_period;
      } else if (isa::is_memory(op.kind)) {
        j["space"] = isa::to_string(op.space);
        j[isa::counts_ways(op.space) ? "ways" : "sectors"] =
            note.transactions < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(note.transactions);
        if (op.space == isa::MemorySpace::shared) j["broadcast"] = note.broadcast;
        if (!isa::counts_ways(op.space) && note.transactions >= 0) {
          j["lines"] = op.lines > 0 ? op.lines : isa::fewest_lines(note.transactions);
          j["reuse"] = op.reuse.permille / 1000.0;
          j["reuse_distance_bytes"] = op.reuse.distance_bytes;
        }
      }
    }
    list.push_back(std::move(j));
  }
  return list;
}

}  // namespace

std::vector<Assumption> assumptions(const ptx::LoweredKernel& kernel, const std::string& file) {
  std::vector<Assumption> list;
  for (const ptx::Assumption& a : kernel.assumptions) {
    list.push_back({std::string(ptx::to_string(a.kind)), a.message, file, a.first.line, a.first.column, a.count});
  }
  return list;
}

nlohmann::ordered_json assumptions_json(const std::vector<Assumption>& assumptions) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Assumption& a : assumptions) {
    nlohmann::ordered_json j;
    j["kind"] = a.kind;
    j["message"] = a.message;
    j["file"] = a.file;
    j["line"] = a.line;
    j["column"] = a.column;
    j["count"] = a.count;
    list.push_back(std::move(j));
  }
  return list;
}

std::vector<std::string> assumption_lines(const std::vector<Assumption>& assumptions) {
  std::vector<std::string> lines;
  for (const Assumption& a : assumptions) {
    const std::string where = a.file + ":" + std::to_string(a.line) + ":" + std::to_string(a.column);
    lines.push_back(a.kind + ": " + a.message + " (count " + std::to_string(a.count) + ", first at " + where + ")");
  }
  return lines;
}

isa::Millicycles exact_cycles(double cycles, const std::string& what) {
  try {
    return isa::cycles_from_double(cycles);
  } catch (const std::invalid_argument& e) {
    throw InputError(what + " " + sim::report::shortest(cycles) + ": " + e.what());
  }
}

ptx::LoweringOptions lowering_options(Dim3 grid, Dim3 block, const Parameters& params, const PtxOptions& given,
                                      const Control& control) {
  ptx::LoweringOptions options;
  options.grid = dim3(grid);
  options.block = dim3(block);
  options.kernel = given.kernel;
  options.parameters = params;
  for (const auto& [name, spec] : given.inputs) options.inputs.emplace_back(name, ptx::parse_input_contents(spec, "--input " + name));
  options.emulator.unknown_branch = given.unknown_branch_taken ? ptx::UnknownBranchPolicy::taken
                                                               : ptx::UnknownBranchPolicy::fallthrough;
  options.emulator.unknown_loop_trips = given.unknown_trips;
  if (options.emulator.unknown_loop_trips < 1) throw InputError("--unknown-trips must be at least 1");
  if (given.max_steps) options.emulator.max_steps_per_warp = *given.max_steps;
  for (const auto& [cycles, flag, into] : {std::tuple{given.load_cycles, "--load-cycles", &options.load_cycles},
                                           std::tuple{given.store_cycles, "--store-cycles", &options.store_cycles}}) {
    if (!cycles) continue;
    *into = exact_cycles(*cycles, flag);
    if (*into <= 0) throw InputError(std::string(flag) + " must be positive");
  }
  options.emulate_all = given.emulate_all;
  options.exact = given.exact;
  if (given.sample_budget) options.sample_budget = *given.sample_budget;
  if (given.sample_seed) options.sample_seed = static_cast<std::uint64_t>(*given.sample_seed);
  options.cancel = control.cancel;
  options.progress = control.progress;
  if (control.activity) {
    options.report_place = [activity = control.activity](const ptx::EmulationPlace& place) { activity(describe(place)); };
  }
  return options;
}

Cancelled cancelled(const ptx::Interrupted& stop, const std::string& file) {
  Cancelled c;
  c.location.file = file;
  if (stop.place) {
    c.location.line = stop.place->at.line;
    c.location.column = stop.place->at.column;
    c.activity = describe(*stop.place);
  }
  return c;
}

ptx::LoweredKernel lower_ptx(const std::string& path, Dim3 grid, Dim3 block, const Parameters& params,
                             const PtxOptions& given, const Control& control, std::vector<std::string>& warnings,
                             const ptx::LoweringOptions* sass_options) {
  ptx::LoweringOptions options = lowering_options(grid, block, params, given, control);
  if (sass_options != nullptr) {
    options.sass = sass_options->sass;
    options.sass_compute_capability = sass_options->sass_compute_capability;
    options.sass_identity = sass_options->sass_identity;
  }
  const ptx::Module module = ptx::load_ptx_file(path);
  ptx::LoweredKernel kernel = api::cancellable([&] { return ptx::lower_kernel(module, options); }, path);
  if (control.cancel && *control.cancel) throw cancelled(ptx::Interrupted{}, path);  // after the lowering's last look at the flag
  for (std::string& line : ptx::warning_lines(kernel, path, options.emulator)) warnings.push_back(std::move(line));
  return kernel;
}

nlohmann::ordered_json parameters_json(const ptx::BoundParameters& bound) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < bound.parameters.size(); ++i) {
    nlohmann::ordered_json& value = out[bound.parameters[i].ptx_name];
    if (bound.given[i]) {
      std::visit([&](auto number) { value = number; }, *bound.given[i]);
    } else if (bound.parameters[i].is_pointer) {
      value = "pointer";
    }
  }
  return out;
}

std::string parameters_text(const ptx::BoundParameters& bound) {
  std::string text;
  for (std::size_t i = 0; i < bound.parameters.size(); ++i) {
    const ptx::KernelParameter& p = bound.parameters[i];
    text += (i == 0 ? "parameters: " : ", ") + std::to_string(i);
    text += (p.cxx_name.empty() ? "" : " (" + p.cxx_name + ")") + " = ";
    if (bound.given[i]) {
      text += std::visit([](auto number) {
        if constexpr (std::is_same_v<decltype(number), double>) return sim::report::shortest(number);
        else return std::to_string(number);
      }, *bound.given[i]);
    } else {
      text += p.is_pointer ? "pointer" : "unknown";
    }
  }
  return text.empty() ? text : text + '\n';
}

nlohmann::ordered_json lowered_json(const ptx::LoweredKernel& kernel, const std::string& file) {
  nlohmann::ordered_json out;
  out["file"] = file;
  out["kernel"] = kernel.name;
  out["ptx_name"] = kernel.ptx_name;
  out["grid"] = {kernel.grid.x, kernel.grid.y, kernel.grid.z};
  out["block"] = {kernel.block.x, kernel.block.y, kernel.block.z};
  out["parameters"] = parameters_json(kernel.parameters);
  out["warps"] = kernel.warp_programs.warps();
  out["emulated_instructions"] = kernel.emulated_instructions;
  out["emulated_classes"] = kernel.emulated_classes;
  out["unknown_branches"] = kernel.unknown_branches.count;
  out["assumptions"] = assumptions_json(assumptions(kernel, file));
  if (kernel.sampling) {  // docs/ptx.md, "Sampling": the programs are the sampled blocks'
    out["sampled"] = {{"blocks", kernel.sampling->blocks.size()}, {"of_blocks", kernel.sampling->launch_blocks},
                      {"reason", kernel.sampling->reason}, {"seed", kernel.sampling->seed},
                      {"sampled_blocks", kernel.sampling->blocks}};
  }
  nlohmann::ordered_json programs = nlohmann::ordered_json::array();
  for (std::size_t id = 0; id < kernel.programs.size(); ++id) {
    const ptx::WarpProgram& p = kernel.programs[id];
    const isa::DynamicCounts counts = p.program.dynamic_counts();
    nlohmann::ordered_json j;
    j["id"] = id;
    j["warps"] = p.warps;
    j["first_warp"] = p.first_warp;
    j["loads"] = counts.loads;
    j["stores"] = counts.stores;
    j["calc_cycles"] = sim::report::cycles_json(counts.calc_time);
    j["kp"] = isa::to_kp(p.program);
    std::size_t i = 0;
    j["program"] = ops_json(p, i);
    programs.push_back(std::move(j));
  }
  out["programs"] = std::move(programs);
  return out;
}

std::string lowered_kp(const ptx::LoweredKernel& kernel, const std::string& file) {
  std::ostringstream out;
  for (const std::string& line : assumption_lines(assumptions(kernel, file))) {
    out << "# assumption: " << line << '\n';
  }
  out << "# " << kernel.name << " (" << kernel.ptx_name << "), grid " << kernel.grid.x << ',' << kernel.grid.y << ','
      << kernel.grid.z << ", block " << kernel.block.x << ',' << kernel.block.y << ',' << kernel.block.z << ": "
      << kernel.warp_programs.warps() << " warp" << (kernel.warp_programs.warps() == 1 ? "" : "s") << ", "
      << kernel.programs.size() << " distinct program" << (kernel.programs.size() == 1 ? "" : "s") << '\n';
  if (kernel.sampling) {
    out << "# sampled: " << kernel.sampling->blocks.size() << " of " << kernel.sampling->launch_blocks
        << " blocks emulated (seed " << kernel.sampling->seed << "), each other block runs one of theirs: "
        << kernel.sampling->reason << '\n';
  }
  for (std::size_t id = 0; id < kernel.programs.size(); ++id) {
    const ptx::WarpProgram& p = kernel.programs[id];
    const isa::DynamicCounts counts = p.program.dynamic_counts();
    out << "\n# program " << id << ": " << p.warps << " warp" << (p.warps == 1 ? "" : "s") << " (first: warp "
        << p.first_warp << "); " << counts.loads << " loads, " << counts.stores << " stores, "
        << isa::format_cycles(counts.calc_time) << " calc cycles\n";
    std::istringstream lines(isa::to_kp(p.program));
    std::string line;
    std::getline(lines, line);  // the `kernel NAME` line has no op
    out << line << '\n';
    for (std::size_t i = 0; std::getline(lines, line); ++i) {
      const std::string note = note_text(p.program.ops()[i], p.notes[i]);
      out << line;
      if (!note.empty()) out << std::string(line.size() < 24 ? 24 - line.size() : 1, ' ') << "# " << note;
      out << '\n';
    }
  }
  return out.str();
}

}  // namespace warpsim::api

#include "sim/cli/ptx_support.hpp"

#include <iostream>
#include <sstream>
#include <type_traits>
#include <variant>

#include "frontends/ptx/lowering_warnings.hpp"
#include "frontends/ptx/parser.hpp"
#include "isa/input_error.hpp"
#include "isa/kp_format.hpp"
#include "sim/cli/progress.hpp"
#include "sim/grid/launch.hpp"
#include "sim/report/number_format.hpp"

namespace warpsim::cli {
namespace {

ptx::Dim3 dim3(const std::string& text, const std::string& flag) {
  const sim::grid::Dimensions d = sim::grid::parse_dimension_list(text, flag);
  return ptx::Dim3{d.x, d.y, d.z};
}


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
  switch (op.space) {
    case isa::MemorySpace::shared:
      if (t < 0) return "ways unknown";
      if (t == 0) return "no lane active";
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

void print_warnings(const ptx::LoweredKernel& kernel, const std::string& file, const ptx::EmulatorOptions& options) {
  for (const std::string& line : ptx::warning_lines(kernel, file, options)) std::cerr << "warpsim: warning: " << line << '\n';
}

ptx::UnknownBranchPolicy unknown_branch_policy(const po::variables_map& v) {
  const std::string text = v["unknown-branch"].as<std::string>();
  if (text == "fallthrough") return ptx::UnknownBranchPolicy::fallthrough;
  if (text == "taken") return ptx::UnknownBranchPolicy::taken;
  throw InputError("--unknown-branch " + quote_for_message(text) + ": expected fallthrough or taken");
}

}  // namespace

nlohmann::ordered_json assumptions_json(const ptx::LoweredKernel& kernel, const std::string& file) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ptx::Assumption& a : kernel.assumptions) {
    nlohmann::ordered_json j;
    j["kind"] = ptx::to_string(a.kind);
    j["message"] = a.message;
    j["file"] = file;
    j["line"] = a.first.line;
    j["column"] = a.first.column;
    j["count"] = a.count;
    list.push_back(std::move(j));
  }
  return list;
}

std::vector<std::string> assumption_lines(const ptx::LoweredKernel& kernel, const std::string& file) {
  std::vector<std::string> lines;
  for (const ptx::Assumption& a : kernel.assumptions) {
    const std::string where = file + ":" + std::to_string(a.first.line) + ":" + std::to_string(a.first.column);
    lines.push_back(std::string(ptx::to_string(a.kind)) + ": " + a.message + " (count " + std::to_string(a.count) +
                    ", first at " + where + ")");
  }
  return lines;
}

bool is_ptx_path(const std::string& path) { return path.ends_with(".ptx"); }

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
      ("load-cycles", po::value<std::string>(), "PTX: duration of a global load in cycles (default 60, the paper's calibration)")
      ("store-cycles", po::value<std::string>(), "PTX: duration of a global store in cycles (default 60)");
}

ptx::LoweredKernel lower_ptx_program(const po::variables_map& v) {
  const std::string path = v["program"].as<std::string>();
  ptx::LoweringOptions options;
  options.grid = dim3(v["grid"].as<std::string>(), "--grid");
  options.block = dim3(v["block"].as<std::string>(), "--block");
  if (v.count("kernel")) options.kernel = v["kernel"].as<std::string>();
  options.parameters = split_parameters(parameter_entries(v));
  options.emulator.unknown_branch = unknown_branch_policy(v);
  options.emulator.unknown_loop_trips = parse_count_flag(v["unknown-trips"].as<std::string>(), "--unknown-trips");
  if (options.emulator.unknown_loop_trips < 1) throw InputError("--unknown-trips must be at least 1");
  if (v.count("max-steps")) options.emulator.max_steps_per_warp = parse_count_flag(v["max-steps"].as<std::string>(), "--max-steps");
  for (const char* flag : {"load-cycles", "store-cycles"}) {
    if (!v.count(flag)) continue;
    const isa::Millicycles cycles = parse_cycles_flag(v[flag].as<std::string>(), std::string("--") + flag);
    if (cycles <= 0) throw InputError(std::string("--") + flag + " must be positive");
    (std::string(flag) == "load-cycles" ? options.load_cycles : options.store_cycles) = cycles;
  }
  options.emulate_all = v.count("emulate-all") > 0;
  const ptx::Module module = ptx::load_ptx_file(path);
  // Ctrl-C stops the lowering with ptx::Interrupted (main exits with kInterruptedStatus, nothing
  // written); a long lowering shows its progress.
  const std::atomic<bool>& interrupted = interrupt_flag();
  options.cancel = &interrupted;
  ptx::LoweredKernel kernel = [&] {
    ProgressLine progress("lowering", true);
    options.progress = [&](std::int64_t done, std::int64_t total) { progress.update(done, total); };
    return ptx::lower_kernel(module, options);
  }();
  if (interrupted) throw ptx::Interrupted{};  // Ctrl-C after the lowering's last look at the flag
  print_warnings(kernel, path, options.emulator);
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

nlohmann::ordered_json lowered_json(const ptx::LoweredKernel& kernel, const po::variables_map& v) {
  nlohmann::ordered_json out;
  out["file"] = v["program"].as<std::string>();
  out["kernel"] = kernel.name;
  out["ptx_name"] = kernel.ptx_name;
  out["grid"] = {kernel.grid.x, kernel.grid.y, kernel.grid.z};
  out["block"] = {kernel.block.x, kernel.block.y, kernel.block.z};
  out["parameters"] = parameters_json(kernel.parameters);
  out["warps"] = kernel.warp_programs.warps();
  out["emulated_instructions"] = kernel.emulated_instructions;
  out["emulated_classes"] = kernel.emulated_classes;
  out["unknown_branches"] = kernel.unknown_branches.count;
  out["assumptions"] = assumptions_json(kernel, out["file"].get<std::string>());
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

std::string lowered_kp(const ptx::LoweredKernel& kernel, const po::variables_map& v) {
  std::ostringstream out;
  for (const std::string& line : assumption_lines(kernel, v["program"].as<std::string>())) {
    out << "# assumption: " << line << '\n';
  }
  out << "# " << kernel.name << " (" << kernel.ptx_name << "), grid " << kernel.grid.x << ',' << kernel.grid.y << ','
      << kernel.grid.z << ", block " << kernel.block.x << ',' << kernel.block.y << ',' << kernel.block.z << ": "
      << kernel.warp_programs.warps() << " warp" << (kernel.warp_programs.warps() == 1 ? "" : "s") << ", "
      << kernel.programs.size() << " distinct program" << (kernel.programs.size() == 1 ? "" : "s") << '\n';
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

}  // namespace warpsim::cli

#include "sim/cli/cli_support.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "sim/cli/output_file.hpp"
#include "warpsim/report/timeline.hpp"

namespace warpsim::cli {

CommandLine parse_command_line(const std::vector<std::string>& args, const po::options_description& options,
                               const po::positional_options_description& positional) {
  CommandLine line;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), line.values);
    line.help = line.values.count("help") > 0;
    if (!line.help) po::notify(line.values);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return line;
}

int print_help(const std::string& usage, const std::string& summary, const po::options_description& options) {
  std::cout << "Usage: " << usage << "\n\n" << summary << "\n\n" << options;
  return 0;
}

Format parse_format(const std::string& text, const std::vector<std::string>& allowed) {
  bool ok = false;
  std::string list;
  for (const std::string& name : allowed) {
    ok = ok || name == text;
    list += (list.empty() ? "" : "|") + name;
  }
  if (!ok) throw InputError("--format " + quote_for_message(text) + ": expected " + list);
  return text == "json" ? Format::json : text == "csv" ? Format::csv : Format::text;
}

std::vector<std::pair<std::string, std::string>> split_parameters(const std::vector<std::string>& entries) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw InputError("--param " + quote_for_message(entry) + ": expected NAME=VALUE");
    }
    pairs.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
  }
  return pairs;
}

isa::ParameterValues parse_parameters(const std::vector<std::string>& entries) {
  isa::ParameterValues values;
  for (const auto& [name, text] : split_parameters(entries)) {
    const std::int64_t value = parse_count_flag(text, "--param " + name);
    if (!values.emplace(name, value).second) throw InputError("--param " + name + " given twice");
  }
  return values;
}

isa::Millicycles parse_cycles_flag(const std::string& text, const std::string& flag) {
  try {
    return isa::parse_cycles(text);
  } catch (const std::invalid_argument& e) {
    throw InputError(flag + " " + quote_for_message(text) + ": " + e.what());
  }
}

double parse_microseconds_flag(const std::string& text, const std::string& flag) {
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value) || value < 0 ||
      value > 1e12) {
    throw InputError(flag + " " + quote_for_message(text) + ": expected microseconds in [0, 10^12]");
  }
  return value;
}

std::int64_t parse_count_flag(const std::string& text, const std::string& flag) {
  std::int64_t value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || value < 0) {
    throw InputError(flag + " " + quote_for_message(text) + ": expected a non-negative whole number");
  }
  return value;
}

void add_program_options(po::options_description& options) {
  options.add_options()
      ("program", po::value<std::string>()->required(), "kernel program (.kp) or kernel in PTX (.ptx)")
      ("param", po::value<std::vector<std::string>>()->composing(),
       "NAME=VALUE (repeatable): a .kp `repeat NAME` count, or a PTX kernel parameter by position (0=...), PTX name "
       "or C++ name (nvcc -G builds only); see `warpsim lower --help`")
      ("max-instructions", po::value<std::string>(),
       "limit on simulated warp-instructions per core package (default 2^32)")
      ("model", po::value<std::string>()->default_value("memory"),
       "memory: price annotated accesses from the GPU profile, barriers, occupancy (docs/model.md); paper: the paper's "
       "Algorithms 1-3 exactly (every global load costs t_m and its d_i; a program without annotations times the same "
       "under both)")
      ("timeline", po::value<std::string>(), "write the core package's per-warp timeline as SVG to FILE")
      ("trace", po::value<std::string>(), "write its events as a Chrome trace (Perfetto) JSON to FILE");
}

std::vector<std::string> parameter_entries(const po::variables_map& values) {
  return values.count("param") ? values["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

isa::Program load_bound_program(const po::variables_map& values) {
  const std::string path = values["program"].as<std::string>();
  if (path.ends_with(".ptx")) {
    throw InputError(SourceLocation{path}, "this command runs a .kp program; lower the PTX with `warpsim lower` "
                                           "(or predict it with `warpsim simulate`)");
  }
  return isa::load_kp_file(path).bind(parse_parameters(parameter_entries(values)));
}

gpus::CalibrationChoice calibration_choice(const po::variables_map& values) {
  gpus::CalibrationChoice given;
  if (values.count("tp")) given.tp_us = parse_microseconds_flag(values["tp"].as<std::string>(), "--tp");
  if (values.count("tm")) given.tm = parse_cycles_flag(values["tm"].as<std::string>(), "--tm");
  return given;
}

sim::workload::TimingModel timing_model(const po::variables_map& values) {
  return sim::workload::parse_timing_model(values["model"].as<std::string>());
}

sim::core::CoreOptions core_options(const po::variables_map& values) {
  sim::core::CoreOptions options;
  if (values.count("max-instructions")) {
    options.max_warp_instructions =
        parse_count_flag(values["max-instructions"].as<std::string>(), "--max-instructions");
  }
  return options;
}

void write_requested_views(const po::variables_map& values, const isa::Program& program, std::int64_t warps,
                           isa::Millicycles tm, const std::string& title, const sim::core::CoreOptions& engine) {
  if (!values.count("timeline") && !values.count("trace")) return;
  write_requested_views(values, std::vector<const isa::Program*>(static_cast<std::size_t>(warps), &program), tm, title,
                        engine);
}

void write_requested_views(const po::variables_map& values, const std::vector<const isa::Program*>& programs,
                           isa::Millicycles tm, const std::string& title, const sim::core::CoreOptions& engine) {
  if (!values.count("timeline") && !values.count("trace")) return;
  sim::report::TimelineRun run;
  run.title = title;
  run.warps = programs.size();
  sim::core::CoreOptions options = engine;
  options.events = &run.events;
  run.total = sim::core::simulate_core(programs, tm, options);
  if (values.count("timeline")) write_output(sim::report::render_timeline_svg(run), values["timeline"].as<std::string>());
  if (values.count("trace")) write_output(sim::report::render_trace_json(run), values["trace"].as<std::string>());
}

void write_output(const std::string& text, const std::string& path) {
  OutputFile out(path);
  out.write(text);
  out.commit();
}

}  // namespace warpsim::cli

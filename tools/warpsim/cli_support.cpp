#include "cli_support.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "output_file.hpp"

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

std::string output_format(const po::variables_map& values, const FormatRule& rule, const char* out) {
  const std::optional<std::string> format =
      values.count("format") ? std::optional(values["format"].as<std::string>()) : std::nullopt;
  return choose_format(format, values.count(out) ? values[out].as<std::string>() : "", rule);
}

std::vector<std::pair<std::string, std::string>> split_parameters(const std::vector<std::string>& entries, const std::string& flag) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw InputError(flag + " " + quote_for_message(entry) + ": expected NAME=VALUE");
    }
    pairs.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
  }
  return pairs;
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

void add_program_options(po::options_description& options) {
  options.add_options()("program", po::value<std::string>()->required(), "kernel program (.kp), kernel in PTX (.ptx) or CUDA source (.cu, with nvcc); or a built-in kernel program: dwt_matrix, dwt_lattice");
  add_run_options(options);
  options.add_options()
      ("timeline", po::value<std::string>(), "write the core package's per-warp timeline as SVG to FILE")
      ("trace", po::value<std::string>(), "write its events as a Chrome trace (Perfetto) JSON to FILE");
}

namespace {

constexpr const char* kModelHelp = "pipes (the default): the memory-aware model with instruction-level timing: a core package "
       "per warp scheduler, each instruction priced by its pipe (gpus/pipes/), memory and arithmetic overlapping "
       "(docs/model.md); memory: the memory-aware figures without instruction-level timing: annotated accesses priced "
       "from the GPU profile, barriers, occupancy; paper: the paper's Algorithms 1-3 exactly (every global load costs "
       "t_m and its d_i; a program without annotations times the same under paper and memory)";

}  // namespace

void add_run_options(po::options_description& options) {
  options.add_options()
      ("param", po::value<std::vector<std::string>>()->composing(),
       "NAME=VALUE (repeatable): a .kp `repeat NAME` count, or a PTX kernel parameter by position (0=...), PTX name "
       "or C++ name (nvcc -G builds only); see `warpsim lower --help`")
      ("max-instructions", po::value<std::string>(),
       "limit on simulated warp-instructions per core package (default 2^32)")
      ("model", po::value<std::string>()->default_value(to_string(kDefaultModel)), kModelHelp);
}

void add_model_option(po::options_description& options) {
  options.add_options()("model", po::value<std::string>()->default_value(to_string(kDefaultModel)), kModelHelp);
}

void add_file_model_option(po::options_description& options) {
  const std::string help = std::string("memory|paper|pipes: every workload under this model (default: each workload's "
                                       "`model` key, else the suite's, else ") + to_string(kDefaultModel) +
                           "; docs/model.md)";
  options.add_options()("model", po::value<std::string>(), help.c_str());
}

void add_cache_option(po::options_description& options) {
  options.add_options()("no-cache", "run ptxas (and nvcc for a .cu) again instead of taking the answer from the cache "
                                    "($WARPSIM_CACHE_DIR, else ~/.cache/warpsim)");
}

std::optional<Model> file_model_flag(const po::variables_map& values) {
  if (!values.count("model")) return std::nullopt;
  return parse_model(values["model"].as<std::string>());
}

std::vector<std::string> parameter_entries(const po::variables_map& values) {
  return values.count("param") ? values["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

Parameters parameters(const po::variables_map& values) { return split_parameters(parameter_entries(values)); }

std::optional<double> tp_flag(const po::variables_map& values) {
  if (!values.count("tp")) return std::nullopt;
  return parse_microseconds_flag(values["tp"].as<std::string>(), "--tp");
}

std::optional<double> tm_flag(const po::variables_map& values) {
  if (!values.count("tm")) return std::nullopt;
  return parse_cycles(values["tm"].as<std::string>(), "--tm");
}

std::optional<std::int64_t> max_instructions(const po::variables_map& values) {
  if (!values.count("max-instructions")) return std::nullopt;
  return parse_count(values["max-instructions"].as<std::string>(), "--max-instructions");
}

Model model_flag(const po::variables_map& values) { return parse_model(values["model"].as<std::string>()); }

Dim3 dimensions_flag(const po::variables_map& values, const std::string& name) {
  return parse_dim3(values[name].as<std::string>(), "--" + name);
}

void write_views(const po::variables_map& values, const Views& views) {
  if (values.count("timeline")) write_output(views.timeline_svg, values["timeline"].as<std::string>());
  if (values.count("trace")) write_output(views.trace_json, values["trace"].as<std::string>());
}

void print_warnings(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) std::cerr << "warpsim: warning: " << line << '\n';
}

void write_output(const std::string& text, const std::string& path) {
  OutputFile out(path);
  out.write(text);
  out.commit();
}

}  // namespace warpsim::cli

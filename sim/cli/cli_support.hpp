// Shared pieces of the subcommands: option parsing helpers, output, and the --help text style.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/program.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim::cli {

namespace po = boost::program_options;

enum class Format { text, json, csv };

struct CommandLine {
  po::variables_map values;
  bool help = false;
};

// Parses `args` (after the subcommand name) against `options`, with `positional` naming the
// positional arguments in order. Unknown options and bad values throw InputError.
CommandLine parse_command_line(const std::vector<std::string>& args, const po::options_description& options,
                               const po::positional_options_description& positional);

// Prints "Usage: <usage>\n\n<summary>\n\n<options>".
int print_help(const std::string& usage, const std::string& summary, const po::options_description& options);

// --format value; `allowed` lists the accepted names.
Format parse_format(const std::string& text, const std::vector<std::string>& allowed);

// --param NAME=VALUE entries split at the first '=', in command-line order.
std::vector<std::pair<std::string, std::string>> split_parameters(const std::vector<std::string>& entries);
// --param NAME=VALUE entries with whole non-negative values (.kp loop counts).
isa::ParameterValues parse_parameters(const std::vector<std::string>& entries);
// The raw --param entries.
std::vector<std::string> parameter_entries(const po::variables_map& values);

// A non-negative decimal number of cycles from flag `flag` (exact, at most three decimals).
isa::Millicycles parse_cycles_flag(const std::string& text, const std::string& flag);
// A non-negative finite number of microseconds.
double parse_microseconds_flag(const std::string& text, const std::string& flag);
// A positive whole number.
std::int64_t parse_count_flag(const std::string& text, const std::string& flag);

// Adds the options every program-running command takes: the positional PROGRAM, --param and
// --max-instructions.
void add_program_options(po::options_description& options);
// The .kp program named by those options, its parameters bound.
isa::Program load_bound_program(const po::variables_map& values);
// --tp US and --tm CYCLES, when given.
gpus::CalibrationChoice calibration_choice(const po::variables_map& values);

// Engine options from those options (the instruction limit).
sim::core::CoreOptions core_options(const po::variables_map& values);
// --model (add_program_options adds it).
sim::workload::TimingModel timing_model(const po::variables_map& values);

// When --timeline FILE.svg or --trace FILE.json was given (add_program_options adds them),
// simulates `warps` warps of the program once more with events recorded (with `engine`'s model)
// and writes the views.
void write_requested_views(const po::variables_map& values, const isa::Program& program, std::int64_t warps,
                           isa::Millicycles tm, const std::string& title, const sim::core::CoreOptions& engine);
// The same for a core package whose warps run the given programs, one each.
void write_requested_views(const po::variables_map& values, const std::vector<const isa::Program*>& programs,
                           isa::Millicycles tm, const std::string& title, const sim::core::CoreOptions& engine);

// Writes the complete output: to stdout, or to `path` through a temporary file renamed when
// complete, so no partial file is ever presented as complete.
void write_output(const std::string& text, const std::string& path = {});

}  // namespace warpsim::cli

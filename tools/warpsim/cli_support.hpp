// Shared pieces of the subcommands: option parsing helpers, output, and the --help text style.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "output_format.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::cli {

namespace po = boost::program_options;

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

// The command's format: --format, else from the extension of -o FILE (the option named `out`),
// by the one rule of choose_format.
std::string output_format(const po::variables_map& values, const FormatRule& rule, const char* out = "out");

// --param NAME=VALUE entries split at the first '=', in command-line order.
std::vector<std::pair<std::string, std::string>> split_parameters(const std::vector<std::string>& entries, const std::string& flag = "--param");
// The raw --param entries.
std::vector<std::string> parameter_entries(const po::variables_map& values);

// A non-negative finite number of microseconds.
double parse_microseconds_flag(const std::string& text, const std::string& flag);

// Adds the options every program-running command takes: the positional PROGRAM, --param,
// --max-instructions, --model, --timeline and --trace.
void add_program_options(po::options_description& options);
// Those without the program and the views: --param, --max-instructions and --model.
void add_run_options(po::options_description& options);
// --param NAME=VALUE pairs, in order.
Parameters parameters(const po::variables_map& values);
// --tp US and --tm CYCLES, when given.
std::optional<double> tp_flag(const po::variables_map& values);
std::optional<double> tm_flag(const po::variables_map& values);
// --max-instructions, when given.
std::optional<std::int64_t> max_instructions(const po::variables_map& values);
// --model.
Model model_flag(const po::variables_map& values);
// --model with the default kDefaultModel, pipes (predict, calibrate).
void add_model_option(po::options_description& options);
// --model without a default, over a suite's, point list's or app's `model` (sweep, app).
void add_file_model_option(po::options_description& options);
std::optional<Model> file_model_flag(const po::variables_map& values);
// --no-cache: ptxas runs again (simulate, launch --search).
void add_cache_option(po::options_description& options);
// B or X,Y,Z from the option `name` (--grid, --block).
Dim3 dimensions_flag(const po::variables_map& values, const std::string& name);
// Writes the --timeline and --trace files the views were rendered for.
void write_views(const po::variables_map& values, const Views& views);
// Prints each line on stderr as "warpsim: warning: LINE".
void print_warnings(const std::vector<std::string>& lines);

// Writes the complete output: to stdout, or to `path` through a temporary file renamed when
// complete, so no partial file is ever presented as complete.
void write_output(const std::string& text, const std::string& path = {});

}  // namespace warpsim::cli

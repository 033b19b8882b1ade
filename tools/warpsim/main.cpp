// warpsim: predicts CUDA kernel times without a GPU. This file only dispatches subcommands and
// turns errors into exit statuses: 0 success, 2 bad input, 1 internal error, 130 Ctrl-C.
#include <exception>
#include <iostream>
#include <map>
#include <string>

#include "commands.hpp"
#include "progress.hpp"
#include "warpsim/warpsim.hpp"

namespace {

using Command = int (*)(const warpsim::cli::Args&);

struct Subcommand {
  Command run;
  const char* summary;
};

const std::map<std::string, Subcommand>& subcommands() {
  static const std::map<std::string, Subcommand> list = {
      {"app", {warpsim::cli::run_app, "predict a whole application (copies, kernels, collectives) on 1..M GPUs"}},
      {"core", {warpsim::cli::run_core, "T_c of one core package (Algorithm 2)"}},
      {"simulate", {warpsim::cli::run_simulate, "predict a kernel's time on a GPU for a launch (Algorithm 1)"}},
      {"explain", {warpsim::cli::run_explain, "why a prediction takes that long: limits, waits, hot lines, occupancy, roofline"}},
      {"lower", {warpsim::cli::run_lower, "lower PTX to per-warp kernel programs (.kp or JSON)"}},
      {"launch", {warpsim::cli::run_launch, "the paper's launch heuristic for N threads (Algorithm 3); --search: the fastest block size"}},
      {"plot", {warpsim::cli::run_plot, "draw sweep results as an SVG line chart (log axes)"}},
      {"predict", {warpsim::cli::run_predict, "predict one point of a named DWT workload (eq. 17, 18, 2D)"}},
      {"sweep", {warpsim::cli::run_sweep, "predict every point of a suite (GPUs x workloads x axes), in parallel"}},
      {"gpus", {warpsim::cli::run_gpus, "list GPU profiles or show one"}},
      {"evaluate", {warpsim::cli::run_evaluate, "accuracy of predictions against measurements (eq. 15-22)"}},
      {"import", {warpsim::cli::run_import, "measured kernel times from nvprof / nsys CSV to a measurements row"}},
      {"calibrate", {warpsim::cli::run_calibrate, "fit t_p, t_m and durations to measured times: a profile [calibration] section"}},
      {"occupancy", {warpsim::cli::run_occupancy, "active blocks per SM and what limits them (warps, blocks, registers, shared memory)"}},
  };
  return list;
}

// "app, calibrate, ...": every command, for the message that names an unknown one.
std::string command_names() {
  std::string names;
  for (const auto& [name, command] : subcommands()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

int print_usage(std::ostream& out) {
  out << "Usage: warpsim <command> [options]   (warpsim <command> --help for its options)\n\n"
         "warpsim predicts how long a CUDA kernel runs on a GPU, without the GPU.\n\nCommands:\n";
  for (const auto& [name, command] : subcommands()) {
    out << "  " << name << std::string(10 - name.size(), ' ') << command.summary << '\n';
  }
  out << "\nExit status: 0 success, 2 bad input (message: warpsim: error: FILE:LINE: ...), 1 internal error,\n"
         "130 stopped by Ctrl-C (nothing written).\n"
         "Documentation: docs/cli.md, docs/formats.md, docs/model.md.\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const warpsim::cli::Args args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") return print_usage(std::cout);
  if (args[0] == "--version") {
    std::cout << "warpsim " WARPSIM_VERSION "\n";
    return 0;
  }
  try {
    const auto command = subcommands().find(args[0]);
    if (command == subcommands().end()) {
      throw warpsim::InputError("unknown command " + warpsim::quote_for_message(args[0]) +
                                " (commands: " + command_names() + "; see warpsim --help)");
    }
    return command->second.run(warpsim::cli::Args(args.begin() + 1, args.end()));
  } catch (const warpsim::Cancelled& stop) {  // Ctrl-C or --max-seconds: the command wrote nothing yet
    if (const std::optional<double> limit = warpsim::cli::time_limit_passed()) {
      std::cerr << "warpsim: error: " << warpsim::cli::time_limit_message(stop, *limit) << '\n';
      return 2;
    }
    return warpsim::cli::report_interrupted();
  } catch (const warpsim::InputError& e) {
    std::cerr << "warpsim: error: " << e.describe() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warpsim: internal error: " << e.what() << '\n';
    return 1;
  }
}

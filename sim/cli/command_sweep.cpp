#include <exception>
#include <memory>
#include <optional>

#include "warpsim/isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/progress.hpp"
#ifdef WARPSIM_MPI
#include "api/sweep_setup.hpp"
#include "mpi_sweep.hpp"
#endif

namespace warpsim::sim::driver {
class MpiSweep;  // sim/driver/mpi_sweep.hpp, with -DWARPSIM_MPI=ON
}

namespace warpsim::cli {

namespace {

// The sweep, in this process or (`mpi`) as rank `rank` of an MPI job.
int sweep(const po::variables_map& v, const sim::driver::MpiSweep* mpi, int rank) {
  [[maybe_unused]] const std::atomic<bool>& interrupted = interrupt_flag();  // first: Ctrl-C while loading stops too
  const bool root = rank == 0;
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  const std::string format_name =
      output_format(v, {{{".csv", "csv"}, {".json", "json"}}, "text", {"text", "csv", "json"}, true});
  const Format format = format_name == "csv" ? Format::csv : format_name == "json" ? Format::json : Format::text;
  SweepRequest request;
  if (v.count("suite")) request.suite = v["suite"].as<std::string>();
  if (v.count("points")) request.points = v["points"].as<std::string>();
  request.jobs = v["jobs"].as<int>();
  request.model = file_model_flag(v);
  std::optional<OutputFile> output;
  ProgressLine progress("sweep", root && !v.count("quiet"));
  request.control = progress_control(progress);
  SweepSummary summary;
  if (mpi == nullptr) {
    // The output file opens once the input has loaded: the facade writes the header after that.
    summary = warpsim::sweep(request, format, [&](const std::string& piece) {
      if (!output) output.emplace(out);
      output->write(piece);
    });
  } else {
#ifdef WARPSIM_MPI
    std::optional<api::SweepSetup> setup;
    std::exception_ptr error;
    try {
      setup.emplace(request, format);
      if (root) output.emplace(out);
    } catch (...) {
      error = std::current_exception();
    }
    mpi->agree(error);  // no rank starts unless every rank read the input
    sim::report::SweepWriter& writer = *setup->writer;
    if (root) output->write(writer.begin());
    sim::driver::SweepOptions sweep_options;
    sweep_options.jobs = request.jobs;
    sweep_options.stop = &interrupted;
    sweep_options.progress = request.control.progress;
    const auto format_row = [&](const sim::driver::SweepRow& row) { return writer.format(row); };
    const auto write = [&](const std::string& piece) { output->write(writer.add_formatted(piece)); };
    const sim::driver::SweepStats stats = mpi->run(setup->points(), format_row, write, sweep_options);
    summary = {stats.points, setup->points().total(), stats.stopped, sim::driver::warning_lines(stats)};
    if (root && !stats.stopped) output->write(writer.finish());
#endif
  }
  if (!root) return 0;
  print_warnings(summary.warnings);
  if (summary.stopped) {  // `output` removes its partial file
    return report_interrupted(" after " + std::to_string(summary.points) + " of " + std::to_string(summary.total) +
                              " points");
  }
  output->commit();
  return 0;
}

}  // namespace

int run_sweep(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("suite", po::value<std::string>(), "suite file (.toml)")
      ("points", po::value<std::string>(), "predict the rows of ROWS.csv instead of a suite, in order (docs/formats.md, Point lists)")
      ("out,o", po::value<std::string>(), "write to FILE.csv or FILE.json (format from the extension), streamed as points finish")
      ("format", po::value<std::string>(), "text|csv|json (default: from --out, else text)")
      ("jobs,j", po::value<int>()->default_value(0), "worker threads (0: every core); the output is the same for any value")
      ("quiet,q", "no progress line on stderr")
      ("mpi", "share the points between the ranks of an MPI job (mpirun -np K warpsim sweep ... --mpi); rank 0 writes (docs/cluster.md)");
  add_file_model_option(options);
  po::positional_options_description positional;
  positional.add("suite", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim sweep SUITE.toml|--points ROWS.csv [-o FILE.csv|FILE.json] [--format text|csv|json] [-j N] [--quiet] [--mpi]",
                      "Predicts every point of a suite (GPUs x workloads x each workload's axes), one row each, in suite\n"
                      "order; or, with --points, exactly the rows of ROWS.csv (columns gpu, kernel, entry, grid, block,\n"
                      "param:NAME, tp_us, tm), in order, each output row the input's columns then the predictions (the\n"
                      "input's time_us as measured_time_us). Points run in parallel; T_c and PTX lowerings are shared\n"
                      "between them. With -o the rows stream to FILE.partial, renamed to FILE when complete; Ctrl-C\n"
                      "stops, removes it and exits with status 130. --mpi splits the points between MPI ranks, each with\n"
                      "-j threads; rank 0 writes the same output as one process (docs/cluster.md).",
                      options);
  }
  const auto& v = line.values;
  if (!v.count("mpi")) return sweep(v, nullptr, 0);
#ifdef WARPSIM_MPI
  const sim::driver::MpiSweep mpi;
  if (mpi.rank() == 0) return sweep(v, &mpi, mpi.rank());
  try {
    return sweep(v, &mpi, mpi.rank());
  } catch (const std::exception&) {
    // Rank 0 reports every rank's errors and exits with 2. Status 0 here: a rank exiting with
    // another status makes mpirun kill the job, perhaps before rank 0 has said why.
    return 0;
  }
#else
  throw InputError("--mpi: warpsim was built without MPI (configure with -DWARPSIM_MPI=ON; docs/cluster.md)");
#endif
}

}  // namespace warpsim::cli

#include <exception>
#include <optional>

#include "cli_support.hpp"
#include "commands.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace warpsim::cli {

namespace {

// The sweep, in this process or (`mpi`) as one rank of an MPI job; rank 0 writes.
int sweep(const po::variables_map& v, const MpiJob* mpi) {
  [[maybe_unused]] const std::atomic<bool>& interrupted = interrupt_flag();  // first: Ctrl-C while loading stops too
  const bool root = mpi == nullptr || mpi->rank() == 0;
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
  // The output file opens once the input has loaded: the facade writes the header after that.
  const auto write = [&](const std::string& piece) {
    if (!output) output.emplace(out);
    output->write(piece);
  };
  const SweepSummary summary = mpi ? mpi->sweep(request, format, write) : warpsim::sweep(request, format, write);
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
                      "param:NAME, tp_us, tm, regs, model), in order, each output row the input's columns then the\n"
                      "predictions (the input's time_us as measured_time_us). Points run in parallel; T_c and PTX\n"
                      "lowerings are shared between them. With -o the rows stream to FILE.partial, renamed to FILE\n"
                      "when complete; Ctrl-C stops, removes it and exits with status 130. --mpi splits the points\n"
                      "between MPI ranks, each with -j threads; rank 0 writes the same output as one process\n"
                      "(docs/cluster.md).",
                      options);
  }
  const auto& v = line.values;
  if (!v.count("mpi")) return sweep(v, nullptr);
  const MpiJob mpi;  // Error in a build without MPI
  if (mpi.rank() == 0) return sweep(v, &mpi);
  try {
    return sweep(v, &mpi);
  } catch (const std::exception&) {
    // Rank 0 reports every rank's errors and exits with 2. Status 0 here: a rank exiting with
    // another status makes mpirun kill the job, perhaps before rank 0 has said why.
    return 0;
  }
}

}  // namespace warpsim::cli

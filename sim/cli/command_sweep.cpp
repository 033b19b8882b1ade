#include <exception>
#include <memory>
#include <optional>

#include "warpsim/isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/progress.hpp"
#include "warpsim/driver/point_list.hpp"
#ifdef WARPSIM_MPI
#include "warpsim/driver/mpi_sweep.hpp"
#endif
#include "warpsim/driver/suite.hpp"
#include "warpsim/driver/sweep.hpp"
#include "warpsim/report/sweep_report.hpp"

namespace warpsim::sim::driver {
class MpiSweep;  // sim/driver/mpi_sweep.hpp, with -DWARPSIM_MPI=ON
}

namespace warpsim::cli {

namespace {

// What a sweep reads and writes, from its options. Every rank of an MPI sweep reads the input;
// only rank 0 (`writes`) opens the output.
struct Sweep {
  Sweep(const po::variables_map& v, bool writes) {
    const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
    std::string format_name = "text";
    if (v.count("format")) {
      format_name = v["format"].as<std::string>();
    } else if (out.ends_with(".csv")) {
      format_name = "csv";
    } else if (out.ends_with(".json")) {
      format_name = "json";
    } else if (!out.empty()) {
      throw InputError("--out " + out + ": name a .csv or .json file, or give --format");
    }
    const Format format = parse_format(format_name, {"text", "csv", "json"});
    jobs = v["jobs"].as<int>();
    if (jobs < 0 || jobs > 4096) throw InputError("--jobs " + std::to_string(jobs) + ": give 0 (every core) .. 4096");
    if (v.count("suite") == v.count("points")) {
      throw InputError("give a suite (sweep SUITE.toml) or a point list (sweep --points ROWS.csv), not both");
    }
    // One of the two: a suite, or a point list whose rows are the points.
    const auto report_format = format == Format::csv    ? sim::report::SweepFormat::csv
                               : format == Format::json ? sim::report::SweepFormat::json
                                                        : sim::report::SweepFormat::text;
    if (v.count("suite")) {
      suite = sim::driver::load_suite(v["suite"].as<std::string>());
      suite_points = sim::driver::suite_points(*suite);
      writer.emplace(report_format, suite->axis_names());
    } else {
      point_list.emplace(sim::driver::load_point_list(v["points"].as<std::string>()));
      writer.emplace(report_format, std::vector<std::string>{}, point_list->columns);
    }
    if (writes) {
      output.emplace(out);
      output->write(writer->begin());
    }
  }
  const sim::driver::SweepPoints& points() const {
    if (suite) return *suite_points;
    return *point_list;
  }

  std::optional<sim::driver::Suite> suite;
  std::unique_ptr<sim::driver::SweepPoints> suite_points;
  std::optional<sim::driver::PointList> point_list;
  std::optional<sim::report::SweepWriter> writer;
  std::optional<OutputFile> output;
  int jobs = 0;
};

// The sweep, in this process or (`mpi`) as rank `rank` of an MPI job.
int sweep(const po::variables_map& v, const sim::driver::MpiSweep* mpi, int rank) {
  const std::atomic<bool>& interrupted = interrupt_flag();  // first: Ctrl-C while the suite loads stops cleanly too
  const bool root = rank == 0;
  std::optional<Sweep> setup;
  if (mpi == nullptr) {
    setup.emplace(v, true);
  } else {
#ifdef WARPSIM_MPI
    std::exception_ptr error;
    try {
      setup.emplace(v, root);
    } catch (...) {
      error = std::current_exception();
    }
    mpi->agree(error);  // no rank starts unless every rank read the input
#endif
  }
  const sim::driver::SweepPoints& points = setup->points();
  sim::report::SweepWriter& writer = *setup->writer;
  sim::driver::SweepOptions sweep_options;
  sweep_options.jobs = setup->jobs;
  sweep_options.stop = &interrupted;
  sim::driver::SweepStats stats;
  {
    ProgressLine progress("sweep", root && !v.count("quiet"));
    sweep_options.progress = [&](std::int64_t done, std::int64_t total) { progress.update(done, total); };
    if (mpi == nullptr) {
      stats = sim::driver::run_sweep(points, [&](const sim::driver::SweepRow& row) { setup->output->write(writer.add(row)); },
                                     sweep_options);
    } else {
#ifdef WARPSIM_MPI
      const auto format = [&](const sim::driver::SweepRow& row) { return writer.format(row); };
      const auto write = [&](const std::string& piece) { setup->output->write(writer.add_formatted(piece)); };
      stats = mpi->run(points, format, write, sweep_options);
#endif
    }
  }
  if (!root) return 0;
  for (const auto& [workload, point, messages] : stats.warnings) {  // once per workload, not per point
    for (const std::string& message : messages) {
      std::fprintf(stderr, "warpsim: warning: %s %s: %s\n", workload->name().c_str(),
                   sim::workload::describe_point(point).c_str(), message.c_str());
    }
  }
  if (stats.stopped) {  // `output` removes its partial file
    return report_interrupted(" after " + std::to_string(stats.points) + " of " + std::to_string(points.total()) +
                              " points");
  }
  setup->output->write(writer.finish());
  setup->output->commit();
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

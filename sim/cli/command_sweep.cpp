#include <optional>

#include "isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/progress.hpp"
#include "sim/driver/point_list.hpp"
#include "sim/driver/suite.hpp"
#include "sim/driver/sweep.hpp"
#include "sim/report/sweep_report.hpp"

namespace warpsim::cli {

int run_sweep(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("suite", po::value<std::string>(), "suite file (.toml)")
      ("points", po::value<std::string>(), "predict the rows of ROWS.csv instead of a suite, in order (docs/formats.md, Point lists)")
      ("out,o", po::value<std::string>(), "write to FILE.csv or FILE.json (format from the extension), streamed as points finish")
      ("format", po::value<std::string>(), "text|csv|json (default: from --out, else text)")
      ("jobs,j", po::value<int>()->default_value(0), "worker threads (0: every core); the output is the same for any value")
      ("quiet,q", "no progress line on stderr");
  po::positional_options_description positional;
  positional.add("suite", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim sweep SUITE.toml|--points ROWS.csv [-o FILE.csv|FILE.json] [--format text|csv|json] [-j N] [--quiet]",
                      "Predicts every point of a suite (GPUs x workloads x each workload's axes), one row each, in suite\n"
                      "order; or, with --points, exactly the rows of ROWS.csv (columns gpu, kernel, entry, grid, block,\n"
                      "param:NAME, tp_us, tm), in order, each output row the input's columns then the predictions (the\n"
                      "input's time_us as measured_time_us). Points run in parallel; T_c and PTX lowerings are shared\n"
                      "between them. With -o the rows stream to FILE.partial, renamed to FILE when complete; Ctrl-C\n"
                      "stops, removes it and exits with status 130.",
                      options);
  }
  const auto& v = line.values;
  const std::atomic<bool>& interrupted = interrupt_flag();  // first: Ctrl-C while the suite loads stops cleanly too
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
  const int jobs = v["jobs"].as<int>();
  if (jobs < 0 || jobs > 4096) throw InputError("--jobs " + std::to_string(jobs) + ": give 0 (every core) .. 4096");
  if (v.count("suite") == v.count("points")) {
    throw InputError("give a suite (sweep SUITE.toml) or a point list (sweep --points ROWS.csv), not both");
  }
  // One of the two: a suite, or a point list whose rows are the points.
  std::optional<sim::driver::Suite> suite;
  std::optional<sim::driver::PointList> point_list;
  if (v.count("suite")) {
    suite = sim::driver::load_suite(v["suite"].as<std::string>());
  } else {
    point_list.emplace(sim::driver::load_point_list(v["points"].as<std::string>()));
  }
  const std::int64_t point_count = suite ? suite->point_count() : point_list->total();

  const auto report_format = format == Format::csv    ? sim::report::SweepFormat::csv
                             : format == Format::json ? sim::report::SweepFormat::json
                                                      : sim::report::SweepFormat::text;
  sim::report::SweepWriter writer = suite ? sim::report::SweepWriter(report_format, suite->axis_names())
                                          : sim::report::SweepWriter(report_format, {}, point_list->columns);
  OutputFile output(out);
  output.write(writer.begin());
  sim::driver::SweepOptions sweep_options;
  sweep_options.jobs = jobs;
  sweep_options.stop = &interrupted;
  sim::driver::SweepStats stats;
  {
    ProgressLine progress("sweep", !v.count("quiet"));
    sweep_options.progress = [&](std::int64_t done, std::int64_t total) { progress.update(done, total); };
    const auto emit = [&](const sim::driver::SweepRow& row) { output.write(writer.add(row)); };
    stats = suite ? sim::driver::run_sweep(*suite, emit, sweep_options) : sim::driver::run_sweep(*point_list, emit, sweep_options);
  }
  for (const auto& [workload, point, messages] : stats.warnings) {  // once per workload, not per point
    for (const std::string& message : messages) {
      std::fprintf(stderr, "warpsim: warning: %s %s: %s\n", workload->name().c_str(),
                   sim::workload::describe_point(point).c_str(), message.c_str());
    }
  }
  if (stats.stopped) {  // `output` removes its partial file
    return report_interrupted(" after " + std::to_string(stats.points) + " of " + std::to_string(point_count) +
                              " points");
  }
  output.write(writer.finish());
  output.commit();
  return 0;
}

}  // namespace warpsim::cli

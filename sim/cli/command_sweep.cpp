#include "isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/progress.hpp"
#include "sim/driver/suite.hpp"
#include "sim/driver/sweep.hpp"
#include "sim/report/sweep_report.hpp"

namespace warpsim::cli {

int run_sweep(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("suite", po::value<std::string>()->required(), "suite file (.toml)")
      ("out,o", po::value<std::string>(), "write to FILE.csv or FILE.json (format from the extension), streamed as points finish")
      ("format", po::value<std::string>(), "text|csv|json (default: from --out, else text)")
      ("jobs,j", po::value<int>()->default_value(0), "worker threads (0: every core); the output is the same for any value")
      ("quiet,q", "no progress line on stderr");
  po::positional_options_description positional;
  positional.add("suite", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim sweep SUITE.toml [-o FILE.csv|FILE.json] [--format text|csv|json] [-j N] [--quiet]",
                      "Predicts every point of a suite (GPUs x workloads x each workload's axes), one row each, in suite\n"
                      "order. Points run in parallel; T_c is shared between them. With -o the rows stream to FILE.partial,\n"
                      "renamed to FILE when complete; Ctrl-C stops, removes it and exits with status 130.",
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
  const sim::driver::Suite suite = sim::driver::load_suite(v["suite"].as<std::string>());

  const auto report_format = format == Format::csv    ? sim::report::SweepFormat::csv
                             : format == Format::json ? sim::report::SweepFormat::json
                                                      : sim::report::SweepFormat::text;
  sim::report::SweepWriter writer(report_format, suite.axis_names());
  OutputFile output(out);
  output.write(writer.begin());
  sim::driver::SweepOptions sweep_options;
  sweep_options.jobs = jobs;
  sweep_options.stop = &interrupted;
  sim::driver::SweepStats stats;
  {
    ProgressLine progress("sweep", !v.count("quiet"));
    sweep_options.progress = [&](std::int64_t done, std::int64_t total) { progress.update(done, total); };
    stats = sim::driver::run_sweep(suite, [&](const sim::driver::SweepRow& row) { output.write(writer.add(row)); }, sweep_options);
  }
  for (const auto& [workload, point, messages] : stats.warnings) {  // once per workload, not per point
    for (const std::string& message : messages) {
      std::fprintf(stderr, "warpsim: warning: %s %s: %s\n", workload->name().c_str(),
                   sim::workload::describe_point(point).c_str(), message.c_str());
    }
  }
  if (stats.stopped) {  // `output` removes its partial file
    return report_interrupted(" after " + std::to_string(stats.points) + " of " + std::to_string(suite.point_count()) +
                              " points");
  }
  output.write(writer.finish());
  output.commit();
  return 0;
}

}  // namespace warpsim::cli

#include "isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/driver/suite.hpp"
#include "sim/report/sweep_report.hpp"

namespace warpsim::cli {

int run_sweep(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("suite", po::value<std::string>()->required(), "suite file (.toml)")
      ("out,o", po::value<std::string>(), "write to FILE.csv or FILE.json (format from the extension)")
      ("format", po::value<std::string>(), "text|csv|json (default: from --out, else text)");
  po::positional_options_description positional;
  positional.add("suite", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim sweep SUITE.toml [--out FILE.csv|FILE.json] [--format text|csv|json]",
                      "Predicts every point of a suite: GPUs x workloads x K x N, one row each.", options);
  }
  const auto& v = line.values;
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
  const sim::driver::Suite suite = sim::driver::load_suite(v["suite"].as<std::string>());
  std::vector<sim::driver::SweepRow> rows;
  rows.reserve(static_cast<std::size_t>(suite.point_count()));
  sim::driver::run_sweep(suite, [&](const sim::driver::SweepRow& row) { rows.push_back(row); });
  const auto report_format = format == Format::csv    ? sim::report::SweepFormat::csv
                             : format == Format::json ? sim::report::SweepFormat::json
                                                      : sim::report::SweepFormat::text;
  write_output(sim::report::render_sweep(rows, report_format), out);
  return 0;
}

}  // namespace warpsim::cli

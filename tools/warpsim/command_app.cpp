#include "cli_support.hpp"
#include "commands.hpp"
#include "progress.hpp"

namespace warpsim::cli {

int run_app(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("app", po::value<std::string>()->required(), "the application: an app .toml (docs/apps.md)")
      ("format", po::value<std::string>(), "text|csv|json (default: from the -o extension, else text)")
      ("out,o", po::value<std::string>(), "write the rows to FILE (.csv, .json or .txt) instead of stdout")
      ("chart", po::value<std::string>(), "also draw total time and speed-up against M as SVG to FILE")
      ("jobs,j", po::value<int>()->default_value(0), "threads for the kernel steps (0: every core)")
      ("quiet,q", "no progress line");
  add_file_model_option(options);
  po::positional_options_description positional;
  positional.add("app", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help(
        "warpsim app APP.toml [--format text|csv|json] [-o FILE] [--chart scaling.svg] [--jobs J]",
        "Predicts a whole application, a sequence of steps (host<->device copies, kernels, broadcast/scatter/gather/"
        "allreduce/alltoall between GPUs, CPU time), for each GPU count M of [system] gpus and each point of "
        "[axes]. A row's total_us is the sum of its steps, with no overlap (seed 003, eq. 1) unless a step says "
        "overlap = true; speedup is the "
        "time on one GPU over the time on M. See docs/apps.md.",
        options);
  }
  const auto& v = line.values;
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  const std::string format = output_format(v, {{{".csv", "csv"}, {".json", "json"}, {".txt", "text"}}, "text", {"text", "csv", "json"}});
  AppRequest request;
  request.app = v["app"].as<std::string>();
  request.jobs = v["jobs"].as<int>();
  request.model = file_model_flag(v);
  AppResult result;
  {
    ProgressLine progress("app", !v.count("quiet"));
    request.control = progress_control(progress);
    result = warpsim::run_app(request);  // Ctrl-C: warpsim::Cancelled, reported by main()
  }
  print_warnings(result.warnings);
  if (v.count("chart")) write_output(to_svg(result), v["chart"].as<std::string>());
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : format == "csv" ? to_csv(result) : to_text(result), out);
  return 0;
}

}  // namespace warpsim::cli

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {

int run_plot(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("results", po::value<std::string>()->required(), "a CSV with a header, e.g. from `warpsim sweep --out`")
      ("x", po::value<std::string>()->default_value("N"), "column on the x axis")
      ("y", po::value<std::string>()->default_value("time_us"), "column on the y axis")
      ("by", po::value<std::string>()->default_value("gpu,workload"), "columns whose values name a series")
      ("where", po::value<std::vector<std::string>>()->composing(), "COLUMN=VALUE: keep only matching rows (repeatable)")
      ("out,o", po::value<std::string>()->required(), "the chart, as SVG")
      ("title", po::value<std::string>(), "chart title (default: Y vs X)")
      ("linear-x", "linear x axis (default logarithmic)")
      ("linear-y", "linear y axis (default logarithmic)");
  po::positional_options_description positional;
  positional.add("results", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim plot RESULTS.csv --x N --y time_us --by gpu,workload [--where K=8] -o chart.svg",
                      "Draws one line per series (rows sharing the --by values) of y against x, log axes by default "
                      "(an x axis of powers of two is ticked 2^k). With two or more --by columns, colour follows the "
                      "first and the dash the others; the --where filter is named under the title.",
                      options);
  }
  const auto& v = line.values;
  PlotRequest request;
  request.results = v["results"].as<std::string>();
  request.x = v["x"].as<std::string>();
  request.y = v["y"].as<std::string>();
  request.by = v["by"].as<std::string>();
  if (v.count("where")) request.where = v["where"].as<std::vector<std::string>>();
  if (v.count("title")) request.title = v["title"].as<std::string>();
  request.linear_x = v.count("linear-x") > 0;
  request.linear_y = v.count("linear-y") > 0;
  write_output(to_svg(plot(request)), v["out"].as<std::string>());
  return 0;
}

}  // namespace warpsim::cli

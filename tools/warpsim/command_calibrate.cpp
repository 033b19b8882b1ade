// warpsim calibrate: fits t_p, t_m and memory-instruction durations of a workload to measured
// times (sim/calibrate, docs/calibration.md) and prints a [calibration.<kernel>] section.
#include <optional>

#include "cli_support.hpp"
#include "commands.hpp"

namespace warpsim::cli {
namespace {

// --params N,K=1: axis N gives the parameter named N, axis K parameter 1 (a position or a name).
std::vector<std::pair<std::string, std::string>> parameter_axes(const po::variables_map& v) {
  std::vector<std::pair<std::string, std::string>> axes;
  if (!v.count("params")) return axes;
  for (const std::string& entry : parse_names(v["params"].as<std::string>(), "--params")) {
    const std::size_t equals = entry.find('=');
    if (equals == 0 || equals + 1 == entry.size()) {
      throw InputError("--params " + quote_for_message(entry) + ": expected AXIS or AXIS=PARAMETER");
    }
    if (equals == std::string::npos) {
      axes.emplace_back(entry, entry);
    } else {
      axes.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
    }
  }
  return axes;
}

std::optional<std::string> optional_flag(const po::variables_map& v, const char* name) {
  return v.count(name) ? std::optional(v[name].as<std::string>()) : std::nullopt;
}

}  // namespace

int run_calibrate(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("measured", po::value<std::string>(), "measured times: a measurements CSV (docs/formats.md)")
      ("points", po::value<std::string>(), "instead of MEASURED.csv: a point list with time_us, each row predicted from its own launch "
                                           "(docs/formats.md, Point lists)")
      ("gpu", po::value<std::string>()->required(), "GPU id (see `warpsim gpus`) or path to a profile .toml; selects the rows whose gpu is its id")
      ("workload", po::value<std::string>(), "a built-in workload (dwt_matrix, ...), a .kp program or a .ptx kernel; with --points, "
                                             "the kernel name whose rows to fit (default: every row's)")
      ("fit", po::value<std::string>(), "what to fit: tm, tp, d1, d2, ... comma-separated (default: tm, plus tp without a launch_us column)")
      ("bounds", po::value<std::string>(), "NAME=LOWER:UPPER,...: bounds of fitted parameters (default tp 0:min time, tm 0:10000, d 1:100000)")
      ("tp", po::value<std::string>(), "t_p in microseconds: fixed (or the start when fitted); beats launch_us")
      ("tm", po::value<std::string>(), "t_m in cycles: fixed (or the start when fitted)")
      ("threads", po::value<std::string>(), ".kp/.ptx: total threads, a number or an axis (Algorithm 3, or with --block)")
      ("grid", po::value<std::string>(), ".kp/.ptx: blocks, B or X,Y,Z (numbers or axes), with --block")
      ("block", po::value<std::string>(), ".kp/.ptx: threads per block, T or X,Y,Z (numbers or axes)")
      ("kernel", po::value<std::string>(), ".ptx: the kernel (.entry) to use (default: the only one)")
      ("params", po::value<std::string>(),
       ".ptx: axes that give kernel parameters, comma-separated: AXIS (the parameter of that name) or AXIS=PARAMETER "
       "(a position or a name), e.g. N=0")
      ("label", po::value<std::string>(), ".kp/.ptx: the workload name in the CSV (default: the kernel's name)")
      ("section", po::value<std::string>(), "the profile section to write and start from (default: the workload's kernel)")
      ("max-evaluations", po::value<std::string>()->default_value("3000"), "objective evaluations in all")
      ("format", po::value<std::string>(), "toml|json|text (default: toml, or from the -o extension)")
      ("out,o", po::value<std::string>(), "write to FILE instead of stdout");
  add_model_option(options);
  po::positional_options_description positional;
  positional.add("measured", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim calibrate MEASURED.csv --gpu ID --workload W [--fit tm,tp,d1,...] [--bounds tm=0:100]\n"
                      "       [--threads N | --grid B --block T] [--kernel NAME] [--params N,...] [--label NAME]\n"
                      "       [--tp US] [--tm C] [--max-evaluations N] [--format toml|json|text] [-o FILE]\n"
                      "   or: warpsim calibrate --points ROWS.csv --gpu ID [--workload KERNEL] [--fit ...] [--bounds ...]\n"
                      "       [--tp US] [--tm C] [--max-evaluations N] [--format toml|json|text] [-o FILE]",
                      "Fits t_p, t_m and durations of memory instructions to the measured times of the rows for this GPU\n"
                      "and workload, minimising E = mean |1 - t_model / t_measured| (paper 002, eq. 15, 16) within bounds\n"
                      "(NLopt: a global then a local derivative-free search; t_p exactly). t_p is the median of launch_us\n"
                      "when the file has that column and tp is not fitted. Prints a [calibration.<kernel>] section for the\n"
                      "profile, after comments with E and E^ before and after. docs/calibration.md.",
                      options);
  }
  const auto& v = line.values;
  const std::string format =
      output_format(v, {{{".json", "json"}, {".txt", "text"}}, "toml", {"toml", "json", "text"}});
  CalibrateRequest request;
  request.max_evaluations = parse_count(v["max-evaluations"].as<std::string>(), "--max-evaluations");
  request.gpu = v["gpu"].as<std::string>();
  request.measured = optional_flag(v, "measured").value_or("");
  request.points = optional_flag(v, "points").value_or("");
  request.workload = optional_flag(v, "workload").value_or("");
  request.threads = optional_flag(v, "threads");
  request.grid = optional_flag(v, "grid");
  request.block = optional_flag(v, "block");
  request.kernel = optional_flag(v, "kernel").value_or("");
  request.parameter_axes = parameter_axes(v);
  request.label = optional_flag(v, "label").value_or("");
  request.section = optional_flag(v, "section").value_or("");
  request.fit = optional_flag(v, "fit").value_or("");
  if (v.count("fit") && request.fit.empty()) throw InputError("--fit: an empty list (expected e.g. tm,tp,d1)");
  request.bounds = optional_flag(v, "bounds").value_or("");
  request.tp_us = tp_flag(v);
  request.tm = tm_flag(v);
  request.model = model_flag(v);
  const CalibrateResult result = calibrate(request);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : format == "text" ? to_text(result) : to_toml(result),
               v.count("out") ? v["out"].as<std::string>() : "");
  return 0;
}

}  // namespace warpsim::cli

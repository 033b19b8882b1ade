// warpsim calibrate: fits t_p, t_m and memory-instruction durations of a workload to measured
// times (sim/calibrate, docs/calibration.md) and prints a [calibration.<kernel>] section.
#include <memory>
#include <optional>

#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"
#include "warpsim/calibrate/calibration_report.hpp"
#include "warpsim/calibrate/calibration_setup.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/ptx_support.hpp"
#include "warpsim/driver/point_list.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim::cli {
namespace {

namespace cal = sim::calibrate;

// --threads / --grid / --block, as a suite's launch = { ... }; none given: no launch.
std::optional<sim::workload::LaunchPolicy> launch_policy(const po::variables_map& v) {
  if (!v.count("threads") && !v.count("grid") && !v.count("block")) return std::nullopt;
  sim::workload::LaunchPolicy policy;
  if (v.count("threads")) policy.threads = v["threads"].as<std::string>();
  if (v.count("grid")) policy.grid = v["grid"].as<std::string>();
  if (v.count("block")) policy.block = v["block"].as<std::string>();
  return policy;
}

// --params N,K=1: axis N gives the parameter named N, axis K parameter 1 (a position or a name).
std::vector<sim::workload::ParameterAxis> parameter_axes(const po::variables_map& v) {
  std::vector<sim::workload::ParameterAxis> axes;
  if (!v.count("params")) return axes;
  for (const std::string& entry : split_names(v["params"].as<std::string>(), "--params")) {
    const std::size_t equals = entry.find('=');
    if (equals == 0 || equals + 1 == entry.size()) {
      throw InputError("--params " + quote_for_message(entry) + ": expected AXIS or AXIS=PARAMETER");
    }
    if (equals == std::string::npos) {
      axes.push_back({entry, entry});
    } else {
      axes.push_back({entry.substr(0, equals), entry.substr(equals + 1)});
    }
  }
  return axes;
}

// --workload and the flags that go with it, as a suite's [[workload]] table says the same.
sim::workload::WorkloadSpec workload_spec(const po::variables_map& v) {
  using sim::workload::WorkloadKind;
  sim::workload::WorkloadSpec spec;
  spec.source = v["workload"].as<std::string>();
  spec.kind = spec.source.ends_with(".kp") ? WorkloadKind::kp
              : is_ptx_path(spec.source) || is_cuda_path(spec.source) ? WorkloadKind::ptx  // CUDA: the loader says to run nvcc
                                           : WorkloadKind::builtin;
  if (v.count("label")) spec.name = v["label"].as<std::string>();
  if (v.count("kernel")) spec.kernel = v["kernel"].as<std::string>();
  spec.params = parameter_axes(v);
  spec.launch = launch_policy(v);
  return spec;
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
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  std::string format_name = v.count("format") ? v["format"].as<std::string>() : "toml";
  if (!v.count("format") && out.ends_with(".json")) format_name = "json";
  if (!v.count("format") && out.ends_with(".txt")) format_name = "text";
  if (format_name != "toml" && format_name != "json" && format_name != "text") {
    throw InputError("--format " + quote_for_message(format_name) + ": expected toml, json or text");
  }
  const std::int64_t max_evaluations = parse_count_flag(v["max-evaluations"].as<std::string>(), "--max-evaluations");
  if (max_evaluations < 1 || max_evaluations > 10'000'000) {
    throw InputError("--max-evaluations " + std::to_string(max_evaluations) + ": give 1 .. 10^7");
  }

  const gpus::Profile gpu = gpus::load_profile(v["gpu"].as<std::string>());
  std::optional<sim::driver::PointList> point_list;  // owns the rows' models
  std::shared_ptr<const sim::workload::WorkloadModel> named_model;  // MEASURED.csv: the --workload's
  const sim::workload::WorkloadModel* model = nullptr;  // whose kernel, durations and section are fitted
  cal::MeasuredData data;
  if (v.count("points")) {
    if (v.count("measured")) throw InputError("give MEASURED.csv or --points ROWS.csv, not both");
    for (const char* flag : {"threads", "grid", "block", "kernel", "params", "label"}) {
      if (v.count(flag)) throw InputError(std::string("--") + flag + ": a point list's rows give their own launch and parameters");
    }
    point_list.emplace(sim::driver::load_point_list(v["points"].as<std::string>()));
    data = cal::select_point_list_rows(*point_list, gpu.id, v.count("workload") ? v["workload"].as<std::string>() : "");
    model = data.points.front().model;  // every row's kernel is the same
  } else {
    if (!v.count("measured")) throw InputError("give MEASURED.csv (with --workload) or --points ROWS.csv");
    if (!v.count("workload")) throw InputError("the option '--workload' is required but missing");
    named_model = sim::workload::make_workload_model(workload_spec(v));
    model = named_model.get();
    data = cal::select_measured_points(sim::report::read_csv(v["measured"].as<std::string>()), gpu.id, model->name(),
                                       model->axes());
  }
  cal::SetupOptions setup_options;
  if (v.count("fit")) setup_options.fit = v["fit"].as<std::string>();
  if (v.count("bounds")) setup_options.bounds = v["bounds"].as<std::string>();
  if (v.count("section")) setup_options.section = v["section"].as<std::string>();
  const gpus::CalibrationChoice given = calibration_choice(v);
  setup_options.tp_us = given.tp_us;
  setup_options.tm = given.tm;
  if (v.count("fit") && setup_options.fit.empty()) throw InputError("--fit: an empty list (expected e.g. tm,tp,d1)");
  const cal::Setup setup =
      cal::set_up_calibration(*model, gpu, std::move(data), cal::program_defaults(*model), setup_options);
  cal::CalibrateOptions calibrate_options;
  calibrate_options.max_evaluations = max_evaluations;
  const cal::CalibrationResult result = cal::calibrate(setup.problem, calibrate_options);

  const cal::CalibrationReport report{&setup.problem, &result, setup.tp_origin};
  const std::string text = format_name == "json" ? cal::calibration_json(report).dump(2) + '\n'
                           : format_name == "text" ? cal::render_calibration_text(report)
                                                   : cal::render_calibration_toml(report);
  write_output(text, out);
  return 0;
}

}  // namespace warpsim::cli

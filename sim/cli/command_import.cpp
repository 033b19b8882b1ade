#include <filesystem>
#include <iostream>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/evaluate/profiler_import.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::cli {

int run_import(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("profile", po::value<std::string>()->required(), "the profiler's CSV output")
      ("from", po::value<std::string>()->required(), "nvprof (--csv --print-gpu-summary or --print-gpu-trace) or nsys "
                                                     "(stats --report cuda_gpu_kern_sum --format csv)")
      ("gpu", po::value<std::string>()->required(), "the gpu column: the profile id the predictions use (e.g. h100)")
      ("workload", po::value<std::string>()->required(), "the workload column (e.g. dwt_matrix)")
      ("param", po::value<std::vector<std::string>>()->composing(), "NAME=VALUE (repeatable): a key column, e.g. K=8, N=1024")
      ("kernel", po::value<std::string>()->default_value(""), "the kernel whose name contains NAME (needed when there are several)")
      ("launches", po::value<std::string>()->default_value("1"), "time_us = L x the per-launch time (the lattice DWT: K/2+1)")
      ("out,o", po::value<std::string>(), "write to FILE.csv instead of stdout")
      ("append", "add the row to --out FILE when it exists (its header must match)");
  po::positional_options_description positional;
  positional.add("profile", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help("warpsim import PROFILE.csv --from nvprof|nsys --gpu ID --workload W [--param K=V]... [--kernel NAME]\n"
                      "       [--launches L] [-o OUT.csv [--append]]",
                      "Turns a profiler's kernel times into a row of the measurements CSV that `warpsim evaluate` reads:\n"
                      "gpu,workload,<params>,time_us,samples[,launch_us]. time_us is the median per launch (the average\n"
                      "where the profiler gives no median); launch_us is cudaLaunchKernel's, when the file lists it.",
                      options);
  }
  const auto& v = line.values;
  const std::string profile = v["profile"].as<std::string>();
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  if (v.count("append") && out.empty()) throw InputError("--append needs --out FILE");
  const std::int64_t launches = parse_count_flag(v["launches"].as<std::string>(), "--launches");
  if (launches < 1 || launches > 1000000) throw InputError("--launches must be at least 1 and at most 10^6");
  const sim::evaluate::Profiler from = sim::evaluate::parse_profiler(v["from"].as<std::string>());

  sim::evaluate::MeasurementRow row;
  row.gpu = v["gpu"].as<std::string>();
  row.workload = v["workload"].as<std::string>();
  row.parameters = split_parameters(parameter_entries(v));
  const sim::evaluate::KernelTime time =
      sim::evaluate::read_profile(read_text_file(profile), profile, from, v["kernel"].as<std::string>());
  row.time_us = time.time_us * static_cast<double>(launches);
  row.samples = time.samples;
  row.launch_us = time.launch_us;
  const std::string header = sim::evaluate::measurement_header(row), data = sim::evaluate::measurement_line(row);

  std::string text = header + data;
  if (v.count("append") && std::filesystem::exists(out)) {
    std::string existing = read_text_file(out);
    if (existing.substr(0, existing.find('\n') + 1) != header) {
      throw InputError(SourceLocation{out, 1, 0}, "its header is not " + header.substr(0, header.size() - 1));
    }
    if (!existing.ends_with('\n')) existing += '\n';
    text = existing + data;
  }
  write_output(text, out);
  std::cerr << "warpsim: " << quote_for_message(time.kernel) << ": " << (time.median ? "median " : "average ")
            << sim::report::shortest(time.time_us) << " us per launch over " << time.samples << " launches\n";
  return 0;
}

}  // namespace warpsim::cli

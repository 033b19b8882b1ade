#include "cli_support.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "ptx_options.hpp"

namespace warpsim::cli {
namespace {

// Runs `work` with the PTX lowering's progress line, Ctrl-C and --max-seconds.
template <typename Work>
auto with_progress(const po::variables_map& v, SimulateRequest& request, Work&& work) {
  ProgressLine progress("lowering", true);  // a PTX lowering that takes a while shows its progress
  request.control = progress_control(progress);
  start_time_limit(v);
  return work();
}

// --set FIGURE=VALUE...: the baseline and the what-if run.
int run_what_if(const po::variables_map& v, SimulateRequest& request, const std::string& format) {
  const WhatIfResult result =
      with_progress(v, request, [&] { return what_if({request, v["set"].as<std::vector<std::string>>()}); });
  print_warnings(result.baseline.warnings);
  write_views(v, result.baseline.views);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

// --gpu a,b,c or all: one row per GPU, and --chart.
int run_gpu_comparison(const po::variables_map& v, SimulateRequest& request) {
  if (v.count("set")) throw InputError("--set takes one GPU, not a --gpu list");
  if (v.count("timeline") || v.count("trace")) throw InputError("--timeline and --trace take one GPU, not a --gpu list");
  const std::string format = output_format(v, {{}, "text", {"text", "json", "csv"}});
  const std::vector<std::string> gpus = parse_gpu_list(request.gpu);
  const GpuComparison result = with_progress(v, request, [&] { return compare_gpus(request, gpus); });
  for (const GpuTime& row : result.gpus) print_warnings(row.result.warnings);
  const std::string chart = v.count("chart") ? to_svg(result) : std::string();
  const std::string text = format == "json" ? to_json(result).dump(2) + '\n' : format == "csv" ? to_csv(result) : to_text(result);
  if (v.count("chart")) write_output(chart, v["chart"].as<std::string>());
  write_output(text);
  return 0;
}

}  // namespace

int run_simulate(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(),
       "GPU id (see `warpsim gpus`) or path to a profile .toml; or a comma list (a100,h100,rtx2080), or `all` (every "
       "built-in profile): one row per GPU with the time, the speed-up against the first and the limiter")
      ("grid", po::value<std::string>()->required(), "blocks: B or X,Y,Z")
      ("block", po::value<std::string>()->required(), "threads per block: T or X,Y,Z")
      ("tp", po::value<std::string>(), "t_p in microseconds (default: the profile's [calibration.<kernel>])")
      ("tm", po::value<std::string>(), "t_m in cycles (default: the profile's calibration, then the program's `tm`)")
      ("format", po::value<std::string>(), "json|text (default json); a --gpu list: text|json|csv (default text)")
      ("chart", po::value<std::string>(), "with a --gpu list: write a bar chart of the time per GPU (SVG) to FILE")
      ("regs", po::value<std::string>(), "PTX, memory-aware model: registers per thread for occupancy (default: ptxas -v "
                                          "when it runs, else 32; the output says which)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "ptxas to run for --regs (searched on PATH), or `none`")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "FIGURE=VALUE (repeatable): what if: runs the baseline and again with the figure changed, and reports both "
       "with the speed-up. FIGURE: a GPU profile key (clock_mhz, sm_count, memory_bandwidth_gbs, ...; see `warpsim "
       "gpus ID`; aliases sms, dram_bandwidth_gbs), registers (per thread, PTX) or shared (dynamic shared bytes, PTX). "
       "VALUE: a number, xK (K times the baseline) or P% (P percent of it)");
  add_program_options(options);
  add_ptx_options(options);
  add_cache_option(options);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help(
        "warpsim simulate PROGRAM.kp|KERNEL.ptx|KERNEL.cu --gpu ID[,ID...]|all --grid B --block T [--tp US] [--tm C] "
        "[--param K=V]... [--set FIGURE=VALUE]...",
        "T_k: predicts the kernel's time on the GPU for the launch (Algorithm 1 over Algorithm 2).", options);
  }
  const auto& v = line.values;
  SimulateRequest request = simulation_request(v);
  request.grid = dimensions_flag(v, "grid");
  request.block = dimensions_flag(v, "block");
  request.timeline = v.count("timeline") > 0;
  request.trace = v.count("trace") > 0;
  if (is_gpu_list(request.gpu)) return run_gpu_comparison(v, request);
  if (v.count("chart")) throw InputError("--chart needs a --gpu list (a100,h100 or all)");
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  if (v.count("set")) return run_what_if(v, request, format);
  const SimulateResult result = with_progress(v, request, [&] { return simulate(request); });
  print_warnings(result.warnings);
  write_views(v, result.views);
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result));
  return 0;
}

}  // namespace warpsim::cli

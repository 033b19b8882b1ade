#include <filesystem>

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
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : to_text(result), v.count("out") ? v["out"].as<std::string>() : "");
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
  write_output(text, v.count("out") ? v["out"].as<std::string>() : "");
  return 0;
}


// `explain` is `simulate --explain` with the pipes model, text and -o by default.
int simulate_command(const Args& args, bool explain_command) {
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
      ("format", po::value<std::string>(), explain_command ? "text|json|html (default: from -o's extension, else text)"
                                                            : "json|text (default json), html with --explain; a --gpu list: "
                                                              "text|json|csv (default text)")
      ("out,o", po::value<std::string>(), "write the output to FILE (default: standard output)")
      ("explain", explain_command ? "(always on here)" : "also explain the prediction, as `warpsim explain` (the pipes model)")
      ("charts", po::value<std::string>(), "with the explanation: write its charts as SVG into DIR (occupancy_block_size.svg, "
                                           "occupancy_registers.svg, occupancy_shared_memory.svg, roofline.svg)")
      ("chart", po::value<std::string>(), "with a --gpu list: write a bar chart of the time per GPU (SVG) to FILE")
      ("baseline", po::value<std::string>(), "with the explanation: the kernel before the change (a .ptx, .cu or .kp; default "
                                             "PROGRAM itself), on the same launch and GPU: both side by side, what moved most")
      ("baseline-kernel", po::value<std::string>(), "with the explanation: the baseline's entry (default: --kernel)")
      ("regs", po::value<std::string>(), "PTX, memory-aware model: registers per thread for occupancy (default: ptxas -v "
                                          "when it runs, else 32; the output says which)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"),
       "ptxas to run for --regs and the SASS the pipes model times (searched on PATH), or `none`")
      ("nvdisasm", po::value<std::string>()->default_value("nvdisasm"),
       "nvdisasm that lists ptxas's SASS, the pipes model's timed stream (searched on PATH; pip install "
       "nvidia-cuda-nvdisasm), or `none`: time the PTX in PTX order (docs/sass.md)")
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
  if (line.help && explain_command) {
    return print_help(
        "warpsim explain PROGRAM.kp|KERNEL.ptx|KERNEL.cu --gpu ID --grid B --block T [--param K=V]... [--baseline FILE] "
        "[--baseline-kernel NAME] [--format text|json|html] [-o FILE]",
        "Why the prediction takes that long and what to change (docs/explain.md): findings, each cause (bank conflicts, "
        "uncoalesced access, colliding atomics, local memory, FP64, divergence, occupancy, tail, too few warps) with its line "
        "and the speed-up of the launch re-simulated without it; speed of light per pipe and memory level with the binding "
        "limit, where warps wait, hot PTX and CUDA lines (.loc of nvcc -lineinfo), occupancy with its three graphs, and the "
        "roofline. With --baseline or --baseline-kernel: the kernel before a change beside it, and what moved most. The pipes "
        "model unless --model says otherwise (only it can explain).",
        options);
  }
  if (line.help) {
    return print_help(
        "warpsim simulate PROGRAM.kp|KERNEL.ptx|KERNEL.cu --gpu ID[,ID...]|all --grid B --block T [--tp US] [--tm C] "
        "[--param K=V]... [--set FIGURE=VALUE]...",
        "T_k: predicts the kernel's time on the GPU for the launch (Algorithm 1 over Algorithm 2).", options);
  }
  const auto& v = line.values;
  const bool explain = explain_command || v.count("explain") > 0;
  if (v.count("charts") && !explain) throw Error("--charts needs --explain");
  const bool baseline = v.count("baseline") > 0 || v.count("baseline-kernel") > 0;
  if (baseline && !explain) throw Error("--baseline needs --explain");
  SimulateRequest request = simulation_request(v);
  request.explain = explain;
  if (explain_command && v["model"].defaulted()) request.model = Model::pipes;
  request.grid = dimensions_flag(v, "grid");
  request.block = dimensions_flag(v, "block");
  request.timeline = v.count("timeline") > 0;
  request.trace = v.count("trace") > 0;
  if (is_gpu_list(request.gpu)) {
    if (explain) throw InputError("explain takes one GPU, not a --gpu list (explain each, or compare them without it)");
    return run_gpu_comparison(v, request);
  }
  if (v.count("chart")) throw InputError("--chart needs a --gpu list (a100,h100 or all)");
  const std::string format = output_format(
      v, {{{".json", "json"}, {".html", "html"}, {".txt", "text"}}, explain_command ? "text" : "json",
          explain ? std::vector<std::string>{"json", "text", "html"} : std::vector<std::string>{"json", "text"}});
  if (v.count("set")) {
    if (explain) throw InputError("--set and explain: explain the baseline and the changed GPU one at a time");
    return run_what_if(v, request, format);
  }
  if (baseline) {
    if (v.count("charts")) throw InputError("--charts and --baseline: write the charts of each kernel apart");
    const BaselineComparison c = with_progress(v, request, [&] {
      BaselineRequest compare{request, request};  // with the progress line's control
      if (v.count("baseline")) compare.before.program = v["baseline"].as<std::string>();
      if (v.count("baseline-kernel")) compare.before.ptx.kernel = v["baseline-kernel"].as<std::string>();
      return compare_with_baseline(compare);
    });
    print_warnings(c.before.warnings);
    print_warnings(c.after.warnings);
    const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
    write_output(format == "json" ? to_json(c).dump(2) + '\n' : format == "html" ? to_html(c) : to_text(c), out);
    return 0;
  }
  const SimulateResult result = with_progress(v, request, [&] { return simulate(request); });
  print_warnings(result.warnings);
  write_views(v, result.views);
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  write_output(format == "json" ? to_json(result).dump(2) + '\n' : format == "html" ? to_html(result) : to_text(result), out);
  if (v.count("charts")) {
    const std::filesystem::path dir = v["charts"].as<std::string>();
    std::filesystem::create_directories(dir);
    for (const OccupancyCurve& curve : result.explanation->occupancy_curves) {
      if (!curve.points.empty()) write_output(occupancy_svg(*result.explanation, curve), (dir / ("occupancy_" + curve.axis + ".svg")).string());
    }
    if (result.explanation->roofline.dram_gbs > 0) write_output(roofline_svg(*result.explanation), (dir / "roofline.svg").string());
  }
  return 0;
}

}  // namespace

int run_simulate(const Args& args) { return simulate_command(args, false); }
int run_explain(const Args& args) { return simulate_command(args, true); }

}  // namespace warpsim::cli

#include "cli_support.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "ptx_options.hpp"

namespace warpsim::cli {
namespace {

// The options of the block-size search: a PROGRAM and how to simulate it.
po::options_description search_options() {
  po::options_description options("Block-size search (with --search)");
  options.add_options()("program", po::value<std::string>(), "kernel program (.kp) or kernel in PTX (.ptx) to simulate (default: the paper's matrix DWT, dwt_matrix, K = 8)");
  add_run_options(options);
  options.add_options()
      ("tp", po::value<std::string>(), "t_p in microseconds (default: the profile's [calibration.<kernel>])")
      ("tm", po::value<std::string>(), "t_m in cycles (default: the profile's calibration, then the program's `tm`)")
      ("regs", po::value<std::string>(), "PTX, memory-aware model: registers per thread for occupancy (default: ptxas -v "
                                          "when it runs, else 32)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "ptxas to run for --regs (searched on PATH), or `none`")
      ("out,o", po::value<std::string>(), "write to FILE instead of stdout (the format follows .json, .csv, .txt)");
  add_ptx_options(options);
  add_cache_option(options);
  return options;
}

// Search options given without --search are a mistake, not something to ignore.
void refuse_without_search(const po::variables_map& v, const po::options_description& search) {
  for (const auto& option : search.options()) {
    const std::string& name = option->long_name();
    if (!v.count(name) || v[name].defaulted()) continue;
    if (name == "program") {
      throw InputError("PROGRAM " + quote_for_message(v["program"].as<std::string>()) +
                       ": a program is simulated only by the block-size search: add --search");
    }
    throw InputError("--" + name + " is an option of the block-size search: add --search and a PROGRAM");
  }
}

int run_search(const po::variables_map& v) {
  const std::string out = v.count("out") ? v["out"].as<std::string>() : "";
  const std::string format =
      output_format(v, {{{".json", "json"}, {".csv", "csv"}, {".txt", "text"}}, "json", {"json", "text", "csv"}});
  BlockSearchRequest request;
  request.total_threads = parse_count(v["threads"].as<std::string>(), "--threads");
  request.simulation = simulation_request(v);  // no PROGRAM: the paper's matrix DWT
  const BlockSizeSearch search = [&] {
    ProgressLine progress("block sizes", true);  // a search over a PTX kernel can take a while
    request.control = progress_control(progress);
    start_time_limit(v);
    return search_block_size(request);
  }();
  print_warnings(search.warnings);
  write_output(format == "json" ? to_json(search).dump(2) + '\n' : format == "csv" ? to_csv(search) : to_text(search), out);
  return 0;
}

}  // namespace

int run_launch(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(), "GPU id or path to a profile .toml")
      ("threads", po::value<std::string>()->required(), "total number of threads N")
      ("search", po::bool_switch(), "simulate PROGRAM at every block size the GPU allows and mark the fastest")
      ("format", po::value<std::string>(), "json|text (default json); with --search also csv");
  const po::options_description search = search_options();
  options.add(search);
  po::positional_options_description positional;
  positional.add("program", 1);
  const CommandLine line = parse_command_line(args, options, positional);
  if (line.help) {
    return print_help(
        "warpsim launch --gpu ID --threads N [--format json|text]\n"
        "       warpsim launch --gpu ID --threads N --search [PROGRAM.kp|KERNEL.ptx] [--param K=V]... [--kernel NAME]\n"
        "                      [--regs R] [--model pipes|memory|paper] [--tp US] [--tm C] [--format json|text|csv] [-o FILE]",
        "N_bt*: the paper's launch heuristic (Algorithm 3) for N threads.\n"
        "With --search: simulates PROGRAM (as `warpsim simulate` does) at every block size T that is a multiple of\n"
        "the GPU's warp size up to its max_threads_per_block, each a 1-D launch of ceil(N / T) blocks, lists each\n"
        "with its predicted time, or why the launch cannot run (occupancy: registers, shared memory; the grid\n"
        "limit), marks the fastest (of equal times the smallest block) and compares Algorithm 3's choice.\n"
        "Without PROGRAM it times the paper's matrix DWT kernel (dwt_matrix, K = 8 unless --param K=...), the\n"
        "kernel Algorithm 3 was made for. PROGRAM may also name a built-in kernel program: dwt_matrix, dwt_lattice.",
        options);
  }
  const auto& v = line.values;
  if (v["search"].as<bool>()) return run_search(v);
  refuse_without_search(v, search);
  const std::string format = output_format(v, {{}, "json", {"json", "text"}});
  const LaunchPlan plan = plan_launch(v["gpu"].as<std::string>(), parse_count(v["threads"].as<std::string>(), "--threads"));
  write_output(format == "json" ? to_json(plan).dump(2) + '\n' : to_text(plan));
  return 0;
}

}  // namespace warpsim::cli

// warpsim._warpsim: a thin layer over the C++ facade (include/warpsim/warpsim.hpp). Each function
// takes plain, already-checked values from python/warpsim/__init__.py and returns the text the CLI
// would write (JSON or CSV), so the Python results equal the CLI's by construction. Every call runs
// on a worker thread without the GIL while the calling thread watches for Ctrl-C (interruptible).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "warpsim/warpsim.hpp"

namespace nb = nanobind;

namespace {

using Dims = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
using Lines = std::vector<std::string>;

warpsim::Dim3 dim3(const Dims& d) { return {std::get<0>(d), std::get<1>(d), std::get<2>(d)}; }

// Compact JSON; invalid UTF-8 (a name read from a file) is replaced rather than failing the call.
std::string dump(const nlohmann::ordered_json& json) {
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// Runs work(cancel) on a worker thread with the GIL released, the one way every function here
// calls the facade. The calling thread wakes every 50 ms, takes the GIL and runs Python's signal
// handlers (PyErr_CheckSignals: Ctrl-C's KeyboardInterrupt, or whatever a handler raises); when one
// raises, it sets the cancel flag the work's warpsim::Control holds, waits for the worker to stop
// (warpsim::Cancelled, or a stopped sweep, which is dropped) and raises the handler's exception.
// Off the main thread PyErr_CheckSignals does nothing, so other threads simply wait.
template <class Work>
auto interruptible(Work&& work) -> decltype(work(static_cast<const std::atomic<bool>*>(nullptr))) {
  using Result = decltype(work(static_cast<const std::atomic<bool>*>(nullptr)));
  std::atomic<bool> cancel{false};
  std::optional<Result> result;
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool interrupted = false;
  {
    nb::gil_scoped_release unlocked;
    std::thread worker([&] {
      try {
        result.emplace(work(&cancel));
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_one();
    });
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) break;
      }
      nb::gil_scoped_acquire locked;
      if (PyErr_CheckSignals() != 0) {  // the exception stays set in this thread until raised below
        interrupted = true;
        cancel.store(true);
        break;
      }
    }
    worker.join();
  }
  if (interrupted) throw nb::python_error();  // the handler's exception (KeyboardInterrupt)
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

// Reads the keyword options the Python package passes (already checked there); a missing or None
// key keeps the request's default.
struct Options {
  const nb::dict& dict;
  template <class T>
  std::optional<T> get(const char* key) const {
    if (!dict.contains(key)) return std::nullopt;
    nb::handle value = dict[key];
    if (value.is_none()) return std::nullopt;
    return nb::cast<T>(value);
  }
  template <class T>
  void set(T& field, const char* key) const {
    if (auto value = get<T>(key)) field = std::move(*value);
  }
};

warpsim::PtxOptions ptx_options(const Options& o) {
  warpsim::PtxOptions ptx;
  o.set(ptx.kernel, "kernel");
  if (auto trips = o.get<std::int64_t>("unknown_trips")) ptx.unknown_trips = *trips;
  if (auto branch = o.get<std::string>("unknown_branch")) {
    if (*branch != "fallthrough" && *branch != "taken") {
      throw warpsim::Error("unknown_branch " + warpsim::quote_for_message(*branch) + ": expected fallthrough or taken");
    }
    ptx.unknown_branch_taken = *branch == "taken";
  }
  ptx.max_steps = o.get<std::int64_t>("max_steps");
  o.set(ptx.emulate_all, "emulate_all");
  o.set(ptx.exact, "exact");
  ptx.sample_budget = o.get<std::int64_t>("sample_budget");
  ptx.sample_seed = o.get<std::int64_t>("sample_seed");
  if (auto text = o.get<std::string>("load_cycles")) ptx.load_cycles = warpsim::parse_cycles(*text, "load_cycles");
  if (auto text = o.get<std::string>("store_cycles")) ptx.store_cycles = warpsim::parse_cycles(*text, "store_cycles");
  o.set(ptx.inputs, "inputs");
  return ptx;
}

// What `simulate` and `launch --search` share (cli/ptx_options.cpp's simulation_request).
warpsim::SimulateRequest simulation_request(const nb::dict& options) {
  const Options o{options};
  warpsim::SimulateRequest request;
  o.set(request.program, "program");
  o.set(request.gpu, "gpu");
  if (auto grid = o.get<Dims>("grid")) request.grid = dim3(*grid);
  if (auto block = o.get<Dims>("block")) request.block = dim3(*block);
  request.tp_us = o.get<double>("tp_us");
  request.tm = o.get<double>("tm");
  o.set(request.params, "params");
  if (auto model = o.get<std::string>("model")) request.model = warpsim::parse_model(*model);
  request.max_instructions = o.get<std::int64_t>("max_instructions");
  request.ptx = ptx_options(o);
  request.registers = o.get<std::int64_t>("registers");
  o.set(request.ptxas, "ptxas");
  o.set(request.nvdisasm, "nvdisasm");
  o.set(request.use_cache, "use_cache");
  o.set(request.timeline, "timeline");
  o.set(request.trace, "trace");
  o.set(request.nvcc_flags, "nvcc_flags");
  o.set(request.dynamic_shared_bytes, "dynamic_shared_bytes");
  return request;
}

// JSON text and the views.
std::tuple<std::string, std::string, std::string> core(const std::string& program, std::int64_t warps,
                                                       std::optional<double> tm, const warpsim::Parameters& params,
                                                       const nb::dict& options) {
  const Options o{options};
  warpsim::CoreRequest request;
  request.program = program;
  request.warps = warps;
  request.tm = tm;
  request.params = params;
  request.gpu = o.get<std::string>("gpu");
  request.block_warps = o.get<std::int64_t>("block_warps");
  if (auto model = o.get<std::string>("model")) request.model = warpsim::parse_model(*model);  // None: CoreRequest's
  request.max_instructions = o.get<std::int64_t>("max_instructions");
  o.set(request.timeline, "timeline");
  o.set(request.trace, "trace");
  return interruptible([&](const std::atomic<bool>*) {
    warpsim::CoreResult result = warpsim::run_core(request);
    return std::tuple{dump(warpsim::to_json(result)), std::move(result.views.timeline_svg),
                      std::move(result.views.trace_json)};
  });
}

// JSON text, the lowering's warnings (the CLI prints those on stderr; Python warns) and the views.
std::tuple<std::string, Lines, std::string, std::string> simulate(const nb::dict& options) {
  warpsim::SimulateRequest request = simulation_request(options);
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    warpsim::SimulateResult result = warpsim::simulate(request);
    return std::tuple{dump(warpsim::to_json(result)), std::move(result.warnings),
                      std::move(result.views.timeline_svg), std::move(result.views.trace_json)};
  });
}

// `warpsim simulate --set ... --format json` and the baseline's warnings.
std::pair<std::string, Lines> what_if(const nb::dict& options, const std::vector<std::string>& changes) {
  warpsim::WhatIfRequest request{simulation_request(options), changes};
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.simulation.control.cancel = cancel;
    warpsim::WhatIfResult result = warpsim::what_if(request);
    return std::pair{dump(warpsim::to_json(result)), std::move(result.baseline.warnings)};
  });
}

// `warpsim simulate --gpu a,b,... --format json`, its CSV, its bar chart and every run's warnings.
std::tuple<std::string, std::string, std::string, Lines> compare_gpus(const nb::dict& options, const std::string& gpus) {
  warpsim::SimulateRequest request = simulation_request(options);
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    const warpsim::GpuComparison result = warpsim::compare_gpus(request, warpsim::parse_gpu_list(gpus));
    Lines warnings;
    for (const warpsim::GpuTime& row : result.gpus) warnings.insert(warnings.end(), row.result.warnings.begin(), row.result.warnings.end());
    return std::tuple{dump(warpsim::to_json(result)), warpsim::to_csv(result), warpsim::to_svg(result), std::move(warnings)};
  });
}

using Charts = std::vector<std::pair<std::string, std::string>>;

// An explanation's charts (file name, SVG), as `explain --charts DIR` writes them.
Charts charts_of(const warpsim::Explanation& explanation) {
  Charts charts;
  for (const warpsim::OccupancyCurve& curve : explanation.occupancy_curves) {
    if (!curve.points.empty()) charts.emplace_back("occupancy_" + curve.axis + ".svg", warpsim::occupancy_svg(explanation, curve));
  }
  if (explanation.roofline.dram_gbs > 0) charts.emplace_back("roofline.svg", warpsim::roofline_svg(explanation));
  return charts;
}

// `warpsim explain --format json`, the warnings, the HTML report and the charts (file name, SVG).
std::tuple<std::string, Lines, std::string, Charts> explain(const nb::dict& options) {
  warpsim::SimulateRequest request = simulation_request(options);
  request.explain = true;
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    warpsim::SimulateResult result = warpsim::simulate(request);
    return std::tuple{dump(warpsim::to_json(result)), std::move(result.warnings), warpsim::to_html(result), charts_of(*result.explanation)};
  });
}

// `warpsim explain --baseline ... --format json`, both runs' warnings, the HTML report and the
// changed kernel's charts.
std::tuple<std::string, Lines, std::string, Charts> compare_baseline(const nb::dict& options, const nb::dict& baseline) {
  warpsim::BaselineRequest request{simulation_request(options), simulation_request(baseline)};
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.after.control.cancel = request.before.control.cancel = cancel;
    warpsim::BaselineComparison result = warpsim::compare_with_baseline(request);
    Lines warnings = std::move(result.before.warnings);
    warnings.insert(warnings.end(), result.after.warnings.begin(), result.after.warnings.end());
    return std::tuple{dump(warpsim::to_json(result)), std::move(warnings), warpsim::to_html(result), charts_of(*result.after.explanation)};
  });
}

// `warpsim lower --format json`, the .kp text (`warpsim lower`) and the warnings.
std::tuple<std::string, std::string, Lines> lower(const std::string& ptx, const Dims& grid, const Dims& block,
                                                  const warpsim::Parameters& params, const nb::dict& options) {
  warpsim::LowerRequest request;
  request.ptx = ptx;
  request.grid = dim3(grid);
  request.block = dim3(block);
  request.params = params;
  request.options = ptx_options(Options{options});
  Options{options}.set(request.nvcc_flags, "nvcc_flags");
  Options{options}.set(request.use_cache, "use_cache");
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    warpsim::LowerResult result = warpsim::lower(request);
    return std::tuple{dump(warpsim::to_json(result)), warpsim::to_kp(result), std::move(result.warnings)};
  });
}

// `warpsim launch --format json`.
std::string launch(const std::string& gpu, std::int64_t total_threads) {
  return interruptible(
      [&](const std::atomic<bool>*) { return dump(warpsim::to_json(warpsim::plan_launch(gpu, total_threads))); });
}

// `warpsim launch --search --format json`, its CSV and the warnings.
std::tuple<std::string, std::string, Lines> search_block_size(std::int64_t total_threads, const nb::dict& options) {
  warpsim::BlockSearchRequest request;
  request.total_threads = total_threads;
  request.simulation = simulation_request(options);
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    warpsim::BlockSizeSearch search = warpsim::search_block_size(request);
    return std::tuple{dump(warpsim::to_json(search)), warpsim::to_csv(search), std::move(search.warnings)};
  });
}

// `warpsim predict WORKLOAD --format json`.
std::string predict(const std::string& workload, const std::string& gpu, std::int64_t K, std::int64_t N,
                    std::optional<double> tp_us, std::optional<double> tm, const std::string& model) {
  warpsim::PredictRequest request;
  request.workload = workload;
  request.gpu = gpu;
  request.K = K;
  request.N = N;
  request.tp_us = tp_us;
  request.tm = tm;
  request.model = warpsim::parse_model(model);
  return interruptible([&](const std::atomic<bool>*) { return dump(warpsim::to_json(warpsim::predict(request))); });
}

// `warpsim calibrate --format json` and the profile section (`--format toml`).
std::pair<std::string, std::string> calibrate(const nb::dict& options) {
  const Options o{options};
  warpsim::CalibrateRequest request;
  o.set(request.measured, "measured");
  o.set(request.points, "points");
  o.set(request.gpu, "gpu");
  o.set(request.workload, "workload");
  o.set(request.fit, "fit");
  o.set(request.bounds, "bounds");
  request.tp_us = o.get<double>("tp_us");
  request.tm = o.get<double>("tm");
  request.threads = o.get<std::string>("threads");
  request.grid = o.get<std::string>("grid");
  request.block = o.get<std::string>("block");
  o.set(request.kernel, "kernel");
  o.set(request.parameter_axes, "parameter_axes");
  o.set(request.label, "label");
  o.set(request.section, "section");
  o.set(request.max_evaluations, "max_evaluations");
  if (auto model = o.get<std::string>("model")) request.model = warpsim::parse_model(*model);
  return interruptible([&](const std::atomic<bool>*) {
    const warpsim::CalibrateResult result = warpsim::calibrate(request);
    return std::pair{dump(warpsim::to_json(result)), warpsim::to_toml(result)};
  });
}

// `warpsim evaluate --format json`, its CSV and the charts of --charts.
std::tuple<std::string, std::string, std::vector<std::pair<std::string, std::string>>> evaluate(
    const std::string& predicted, const std::string& measured, const Lines& keys, const std::string& x,
    std::optional<std::pair<std::string, std::string>> ratio, bool allow_missing, bool charts) {
  warpsim::EvaluateRequest request{predicted, measured, keys, x, std::move(ratio), allow_missing};
  return interruptible([&](const std::atomic<bool>*) {
    const warpsim::EvaluateResult result = warpsim::evaluate(request);
    return std::tuple{dump(warpsim::to_json(result)), warpsim::to_csv(result),
                      charts ? warpsim::to_svg_charts(result) : std::vector<std::pair<std::string, std::string>>{}};
  });
}

// The CSV text and the sweep's warnings. The streaming overload, as the whole-text one drops the
// warnings; a stopped sweep (Ctrl-C) is not returned: interruptible raises instead.
std::pair<std::string, Lines> sweep(const std::string& suite, const std::string& points, int jobs,
                                    std::optional<std::string> model) {
  warpsim::SweepRequest request;
  request.suite = suite;
  request.points = points;
  request.jobs = jobs;
  if (model) request.model = warpsim::parse_model(*model);
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    std::string csv;
    warpsim::SweepSummary summary =
        warpsim::sweep(request, warpsim::Format::csv, [&](const std::string& piece) { csv += piece; });
    if (summary.stopped) throw warpsim::Cancelled();
    return std::pair{std::move(csv), std::move(summary.warnings)};
  });
}

// `warpsim app --format json` as JSON text, and the warnings.
std::pair<std::string, Lines> app(const std::string& path, int jobs, std::optional<std::string> model) {
  warpsim::AppRequest request;
  request.app = path;
  request.jobs = jobs;
  if (model) request.model = warpsim::parse_model(*model);
  return interruptible([&](const std::atomic<bool>* cancel) {
    request.control.cancel = cancel;
    warpsim::AppResult result = warpsim::run_app(request);
    return std::pair{dump(warpsim::to_json(result)), std::move(result.warnings)};
  });
}

// `warpsim occupancy --format json` as JSON text, and why registers took the default.
std::pair<std::string, Lines> occupancy(const std::string& gpu, const Dims& block, std::optional<std::int64_t> registers,
                                        std::optional<std::int64_t> smem, std::int64_t dynamic_smem,
                                        const std::string& ptx, const std::string& kernel, const std::string& ptxas,
                                        const std::string& nvcc_flags) {
  warpsim::OccupancyRequest request;
  request.nvcc_flags = nvcc_flags;
  request.gpu = gpu;
  request.block = dim3(block);
  request.registers = registers;
  request.static_smem_bytes = smem;
  request.dynamic_smem_bytes = dynamic_smem;
  request.ptx = ptx;
  request.kernel = kernel;
  request.ptxas = ptxas;
  return interruptible([&](const std::atomic<bool>*) {
    warpsim::OccupancyResult result = warpsim::occupancy(request);
    return std::pair{dump(warpsim::to_json(result)), std::move(result.warnings)};
  });
}

// `warpsim gpus [ID] --format json` as JSON text: the built-in profiles, or the one named.
std::string gpus(std::optional<std::string> id) {
  return interruptible([&](const std::atomic<bool>*) {
    return id ? dump(warpsim::to_json(warpsim::gpu_profile(*id))) : dump(warpsim::to_json(warpsim::gpu_profiles()));
  });
}

// `warpsim plot`: the chart as SVG text.
std::string plot(const std::string& results, const std::string& x, const std::string& y, const std::string& by,
                 const Lines& where, std::optional<std::string> title, bool linear_x, bool linear_y) {
  warpsim::PlotRequest request{results, x, y, by, where, std::move(title), linear_x, linear_y};
  return interruptible([&](const std::atomic<bool>*) { return warpsim::to_svg(warpsim::plot(request)); });
}

// `warpsim import`: the measurements row and what was read, as JSON text.
std::string import_profile(const std::string& profile, const std::string& from, const std::string& gpu,
                           const std::string& workload, const warpsim::Parameters& params, const std::string& kernel,
                           std::int64_t launches) {
  warpsim::ImportRequest request{profile, from, gpu, workload, params, kernel, launches};
  return interruptible(
      [&](const std::atomic<bool>*) { return dump(warpsim::to_json(warpsim::import_profile(request))); });
}

// warpsim::Error becomes warpsim.Error (python/warpsim/_error.py), built with its location so
// Python code can read file/line/column. Imported when first needed: the package imports us.
void translate_error(const std::exception_ptr& thrown, void*) {
  try {
    std::rethrow_exception(thrown);
  } catch (const warpsim::Cancelled& e) {
    PyErr_SetString(PyExc_KeyboardInterrupt, e.what());  // a run stopped through Control::cancel
  } catch (const warpsim::Error& e) {
    const warpsim::SourceLocation& where = e.location();
    try {
      nb::object type = nb::module_::import_("warpsim._error").attr("Error");
      nb::object error = type(e.describe(), where.file, where.line, where.column);
      PyErr_SetObject(type.ptr(), error.ptr());
    } catch (nb::python_error& failed) {
      failed.restore();  // the package is broken: raise why, rather than nothing
    }
  }
}

}  // namespace

NB_MODULE(_warpsim, m) {
  m.doc() = "warpsim's C++ facade; use the warpsim package, which checks arguments and parses the results.";
  nb::register_exception_translator(translate_error);
  m.attr("DEFAULT_MODEL") = warpsim::to_string(warpsim::kDefaultModel);  // every `model` default of the package
  m.def("core", &core, nb::arg("program"), nb::arg("warps"), nb::arg("tm").none(), nb::arg("params"),
        nb::arg("options"), "`warpsim core --format json` as JSON text, the timeline SVG and the trace JSON.");
  m.def("simulate", &simulate, nb::arg("options"),
        "`warpsim simulate --format json` as JSON text, the warnings, the timeline SVG and the trace JSON.");
  m.def("what_if", &what_if, nb::arg("options"), nb::arg("changes"),
        "`warpsim simulate --set ... --format json` as JSON text and the baseline's warnings.");
  m.def("compare_gpus", &compare_gpus, nb::arg("options"), nb::arg("gpus"),
        "`warpsim simulate --gpu a,b,... --format json` as JSON text, its CSV, its SVG bar chart and the warnings.");
  m.def("explain", &explain, nb::arg("options"),
        "`warpsim explain --format json` as JSON text, the warnings, the HTML report and the charts (name, SVG).");
  m.def("compare_baseline", &compare_baseline, nb::arg("options"), nb::arg("baseline"),
        "`warpsim explain --baseline ... --format json` as JSON text, the warnings, the HTML report and the charts (name, SVG).");
  m.def("lower", &lower, nb::arg("ptx"), nb::arg("grid"), nb::arg("block"), nb::arg("params"), nb::arg("options"),
        "`warpsim lower --format json` as JSON text, the .kp text and the warnings.");
  m.def("launch", &launch, nb::arg("gpu"), nb::arg("total_threads"), "`warpsim launch --format json` as JSON text.");
  m.def("search_block_size", &search_block_size, nb::arg("total_threads"), nb::arg("options"),
        "`warpsim launch --search --format json` as JSON text, its CSV and the warnings.");
  m.def("predict", &predict, nb::arg("workload"), nb::arg("gpu"), nb::arg("K"), nb::arg("N"), nb::arg("tp_us").none(),
        nb::arg("tm").none(), nb::arg("model"), "`warpsim predict --format json` as JSON text.");
  m.def("calibrate", &calibrate, nb::arg("options"),
        "`warpsim calibrate --format json` as JSON text, and the profile section (`--format toml`).");
  m.def("evaluate", &evaluate, nb::arg("predicted"), nb::arg("measured"), nb::arg("keys"), nb::arg("x"),
        nb::arg("ratio").none(), nb::arg("allow_missing"), nb::arg("charts"),
        "`warpsim evaluate --format json` as JSON text, its CSV, and (file name, SVG) of each chart when asked.");
  m.def("sweep", &sweep, nb::arg("suite"), nb::arg("points"), nb::arg("jobs"), nb::arg("model").none(),
        "`warpsim sweep SUITE|--points LIST --format csv` as CSV text, and the warnings.");
  m.def("occupancy", &occupancy, nb::arg("gpu"), nb::arg("block"), nb::arg("registers").none(), nb::arg("smem").none(),
        nb::arg("dynamic_smem"), nb::arg("ptx"), nb::arg("kernel"), nb::arg("ptxas"), nb::arg("nvcc_flags"),
        "`warpsim occupancy --format json` as JSON text, and the warnings.");
  m.def("gpus", &gpus, nb::arg("id").none(), "`warpsim gpus [ID] --format json` as JSON text.");
  m.def("plot", &plot, nb::arg("results"), nb::arg("x"), nb::arg("y"), nb::arg("by"), nb::arg("where"),
        nb::arg("title").none(), nb::arg("linear_x"), nb::arg("linear_y"), "`warpsim plot` as SVG text.");
  m.def("import_profile", &import_profile, nb::arg("profile"), nb::arg("from_"), nb::arg("gpu"), nb::arg("workload"),
        nb::arg("params"), nb::arg("kernel"), nb::arg("launches"), "`warpsim import`'s row, as JSON text.");
  m.def("app", &app, nb::arg("path"), nb::arg("jobs"), nb::arg("model").none(),
        "`warpsim app APP --format json` as JSON text, and the warnings.");
}

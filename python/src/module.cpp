// warpsim._warpsim: a thin layer over the C++ facade (include/warpsim/warpsim.hpp). Each function
// takes plain, already-checked values from python/warpsim/__init__.py and returns the text the CLI
// would write (JSON or CSV), so the Python results equal the CLI's by construction.
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
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

warpsim::Dim3 dim3(const Dims& d) { return {std::get<0>(d), std::get<1>(d), std::get<2>(d)}; }

// Compact JSON; invalid UTF-8 (a name read from a file) is replaced rather than failing the call.
std::string dump(const nlohmann::ordered_json& json) {
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string core(const std::string& program, std::int64_t warps, std::optional<double> tm,
                 const warpsim::Parameters& params) {
  warpsim::CoreRequest request;
  request.program = program;
  request.warps = warps;
  request.tm = tm;
  request.params = params;
  nb::gil_scoped_release unlocked;  // plain C++ from here on: other Python threads may run
  return dump(warpsim::to_json(warpsim::run_core(request)));
}

// JSON text and the lowering's warnings (the CLI prints those on stderr; Python warns).
std::pair<std::string, std::vector<std::string>> simulate(const std::string& program, const std::string& gpu,
                                                          const Dims& grid, const Dims& block,
                                                          const warpsim::Parameters& params, const std::string& kernel,
                                                          std::optional<double> tp_us, std::optional<double> tm) {
  warpsim::SimulateRequest request;  // model memory and ptxas "ptxas": the CLI's defaults
  request.program = program;
  request.gpu = gpu;
  request.grid = dim3(grid);
  request.block = dim3(block);
  request.params = params;
  request.ptx.kernel = kernel;
  request.tp_us = tp_us;
  request.tm = tm;
  nb::gil_scoped_release unlocked;
  warpsim::SimulateResult result = warpsim::simulate(request);
  return {dump(warpsim::to_json(result)), std::move(result.warnings)};
}

// The CSV text and the sweep's warnings. The streaming overload, as the whole-text one drops the
// warnings; without a cancel flag the sweep always runs to the end.
std::pair<std::string, std::vector<std::string>> sweep(const std::string& suite, int jobs) {
  warpsim::SweepRequest request;
  request.suite = suite;
  request.jobs = jobs;
  nb::gil_scoped_release unlocked;
  std::string csv;
  warpsim::SweepSummary summary =
      warpsim::sweep(request, warpsim::Format::csv, [&](const std::string& piece) { csv += piece; });
  return {std::move(csv), std::move(summary.warnings)};
}

// `warpsim app --format json` as JSON text, and the warnings.
std::pair<std::string, std::vector<std::string>> app(const std::string& path, int jobs) {
  warpsim::AppRequest request;
  request.app = path;
  request.jobs = jobs;
  nb::gil_scoped_release unlocked;
  warpsim::AppResult result = warpsim::run_app(request);
  return {dump(warpsim::to_json(result)), std::move(result.warnings)};
}

// `warpsim occupancy --format json` as JSON text, and why registers took the default.
std::pair<std::string, std::vector<std::string>> occupancy(const std::string& gpu, const Dims& block,
                                                           std::optional<std::int64_t> registers,
                                                           std::optional<std::int64_t> smem, std::int64_t dynamic_smem,
                                                           const std::string& ptx, const std::string& kernel,
                                                           const std::string& ptxas) {
  warpsim::OccupancyRequest request;
  request.gpu = gpu;
  request.block = dim3(block);
  request.registers = registers;
  request.static_smem_bytes = smem;
  request.dynamic_smem_bytes = dynamic_smem;
  request.ptx = ptx;
  request.kernel = kernel;
  request.ptxas = ptxas;
  nb::gil_scoped_release unlocked;
  warpsim::OccupancyResult result = warpsim::occupancy(request);
  return {dump(warpsim::to_json(result)), std::move(result.warnings)};
}

// `warpsim gpus [ID] --format json` as JSON text: the built-in profiles, or the one named.
std::string gpus(std::optional<std::string> id) {
  nb::gil_scoped_release unlocked;
  return id ? dump(warpsim::to_json(warpsim::gpu_profile(*id))) : dump(warpsim::to_json(warpsim::gpu_profiles()));
}

// `warpsim plot`: the chart as SVG text.
std::string plot(const std::string& results, const std::string& x, const std::string& y, const std::string& by,
                 const std::vector<std::string>& where, std::optional<std::string> title, bool linear_x, bool linear_y) {
  warpsim::PlotRequest request{results, x, y, by, where, std::move(title), linear_x, linear_y};
  nb::gil_scoped_release unlocked;
  return warpsim::to_svg(warpsim::plot(request));
}

// `warpsim import`: the measurements row and what was read, as JSON text.
std::string import_profile(const std::string& profile, const std::string& from, const std::string& gpu,
                           const std::string& workload, const warpsim::Parameters& params, const std::string& kernel,
                           std::int64_t launches) {
  warpsim::ImportRequest request{profile, from, gpu, workload, params, kernel, launches};
  nb::gil_scoped_release unlocked;
  return dump(warpsim::to_json(warpsim::import_profile(request)));
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
  m.def("core", &core, nb::arg("program"), nb::arg("warps"), nb::arg("tm").none(), nb::arg("params"),
        "`warpsim core --format json` as JSON text.");
  m.def("simulate", &simulate, nb::arg("program"), nb::arg("gpu"), nb::arg("grid"), nb::arg("block"),
        nb::arg("params"), nb::arg("kernel"), nb::arg("tp_us").none(), nb::arg("tm").none(),
        "`warpsim simulate --format json` as JSON text, and the warnings.");
  m.def("sweep", &sweep, nb::arg("suite"), nb::arg("jobs"), "`warpsim sweep SUITE --format csv` as CSV text, and the warnings.");
  m.def("occupancy", &occupancy, nb::arg("gpu"), nb::arg("block"), nb::arg("registers").none(), nb::arg("smem").none(),
        nb::arg("dynamic_smem"), nb::arg("ptx"), nb::arg("kernel"), nb::arg("ptxas"),
        "`warpsim occupancy --format json` as JSON text, and the warnings.");
  m.def("gpus", &gpus, nb::arg("id").none(), "`warpsim gpus [ID] --format json` as JSON text.");
  m.def("plot", &plot, nb::arg("results"), nb::arg("x"), nb::arg("y"), nb::arg("by"), nb::arg("where"),
        nb::arg("title").none(), nb::arg("linear_x"), nb::arg("linear_y"), "`warpsim plot` as SVG text.");
  m.def("import_profile", &import_profile, nb::arg("profile"), nb::arg("from_"), nb::arg("gpu"), nb::arg("workload"),
        nb::arg("params"), nb::arg("kernel"), nb::arg("launches"), "`warpsim import`'s row, as JSON text.");
  m.def("app", &app, nb::arg("path"), nb::arg("jobs"), "`warpsim app APP --format json` as JSON text, and the warnings.");
}

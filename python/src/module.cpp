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
  return {dump(result.json), std::move(result.warnings)};
}

// warpsim::Error becomes warpsim.Error (python/warpsim/_error.py), built with its location so
// Python code can read file/line/column. Imported when first needed: the package imports us.
void translate_error(const std::exception_ptr& thrown, void*) {
  try {
    std::rethrow_exception(thrown);
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
  m.def("app", &app, nb::arg("path"), nb::arg("jobs"), "`warpsim app APP --format json` as JSON text, and the warnings.");
}

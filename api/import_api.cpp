// warpsim::import_profile: a profiler's kernel times as a row of the measurements CSV.
#include "warpsim/evaluate/profiler_import.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

sim::evaluate::MeasurementRow measurement_row(const Measurement& m) {
  return {m.gpu, m.workload, m.parameters, m.time_us, static_cast<long long>(m.samples), m.launch_us};
}

}  // namespace

ImportResult import_profile(const ImportRequest& request) {
  if (request.launches < 1 || request.launches > 1000000) throw InputError("--launches must be at least 1 and at most 10^6");
  const sim::evaluate::Profiler from = sim::evaluate::parse_profiler(request.from);
  const sim::evaluate::KernelTime time =
      sim::evaluate::read_profile(read_text_file(request.profile), request.profile, from, request.kernel);
  ImportResult result;
  result.row = {request.gpu, request.workload, request.params, time.time_us * static_cast<double>(request.launches),
                time.samples, time.launch_us};
  result.kernel = time.kernel;
  result.median = time.median;
  result.per_launch_us = time.time_us;
  return result;
}

nlohmann::ordered_json to_json(const ImportResult& result) {
  const Measurement& m = result.row;
  nlohmann::ordered_json out;
  out["gpu"] = m.gpu;
  out["workload"] = m.workload;
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (const auto& [name, value] : m.parameters) parameters[name] = value;
  out["parameters"] = parameters;
  out["time_us"] = m.time_us;
  out["samples"] = m.samples;
  out["launch_us"] = m.launch_us ? nlohmann::ordered_json(*m.launch_us) : nlohmann::ordered_json(nullptr);
  out["kernel"] = result.kernel;
  out["median"] = result.median;
  out["per_launch_us"] = result.per_launch_us;
  return out;
}

std::string to_csv(const ImportResult& result) {
  const sim::evaluate::MeasurementRow row = measurement_row(result.row);
  return sim::evaluate::measurement_header(row) + sim::evaluate::measurement_line(row);
}

std::string append_csv(const std::string& path, const ImportResult& result) {
  const sim::evaluate::MeasurementRow row = measurement_row(result.row);
  const std::string header = sim::evaluate::measurement_header(row);
  std::string existing = read_text_file(path);
  if (existing.substr(0, existing.find('\n') + 1) != header) {
    throw InputError(SourceLocation{path, 1, 0}, "its header is not " + header.substr(0, header.size() - 1));
  }
  if (!existing.ends_with('\n')) existing += '\n';
  return existing + sim::evaluate::measurement_line(row);
}

std::string to_text(const ImportResult& result) {
  return quote_for_message(result.kernel) + ": " + (result.median ? "median " : "average ") +
         sim::report::shortest(result.per_launch_us) + " us per launch over " + std::to_string(result.row.samples) +
         " launches\n";
}

}  // namespace warpsim

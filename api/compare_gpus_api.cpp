// warpsim::compare_gpus: one kernel and launch simulated on several GPUs, as a table and a chart.
#include <algorithm>

#include "simulate_on.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/report/bar_chart.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

bool is_gpu_list(const std::string& text) { return text == "all" || text.find(',') != std::string::npos; }

std::vector<std::string> parse_gpu_list(const std::string& text) {
  if (text == "all") return gpus::builtin_profile_ids();
  std::vector<std::string> ids = parse_names(text, "--gpu");
  for (auto i = ids.begin(); i != ids.end(); ++i) {
    if (std::find(ids.begin(), i, *i) != i) throw InputError("--gpu " + quote_for_message(text) + ": " + *i + " is listed twice");
  }
  return ids;
}

GpuComparison compare_gpus(const SimulateRequest& request, const std::vector<std::string>& gpus) {
  if (gpus.empty()) throw InputError("--gpu: name at least one GPU");
  GpuComparison comparison;
  comparison.model = request.model;
  std::vector<gpus::Profile> profiles;  // every name checked before any run
  for (const std::string& id : gpus) profiles.push_back(gpus::load_profile(id));
  for (const gpus::Profile& gpu : profiles) {
    GpuTime row;
    row.result = api::simulate_on(request, gpu);
    row.gpu = row.result.gpu;
    row.time_us = row.result.time_us;
    row.cycles = row.result.cycles;
    if (row.result.limits) row.limiter = row.result.limits->limiter;
    comparison.gpus.push_back(std::move(row));
  }
  comparison.kernel = comparison.gpus.front().result.kernel;
  for (GpuTime& row : comparison.gpus) row.speedup = comparison.gpus.front().time_us / row.time_us;
  return comparison;
}

nlohmann::ordered_json to_json(const GpuComparison& c) {
  nlohmann::ordered_json out;
  out["kernel"] = c.kernel;
  out["model"] = to_string(c.model);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const GpuTime& row : c.gpus) {
    nlohmann::ordered_json r;
    r["gpu"] = row.gpu;
    r["time_us"] = row.time_us;
    r["cycles"] = sim::report::number_json(row.cycles);
    r["speedup"] = row.speedup;
    r["limiter"] = row.limiter.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(row.limiter);
    rows.push_back(std::move(r));
  }
  out["gpus"] = std::move(rows);
  return out;
}

std::string to_text(const GpuComparison& c) {
  sim::report::TextTable table({"gpu", "time_us", "cycles", "speedup", "limiter"});
  for (const GpuTime& row : c.gpus) {
    table.add_row({row.gpu, sim::report::fixed(row.time_us, 3), sim::report::shortest(row.cycles),
                   sim::report::fixed(row.speedup, 3) + "x", row.limiter});
  }
  return c.kernel + " on " + std::to_string(c.gpus.size()) + " GPUs, " + to_string(c.model) +
         " model; speed-up against " + c.gpus.front().gpu + "\n" + table.render();
}

std::string to_csv(const GpuComparison& c) {
  using sim::report::csv_field;
  using sim::report::shortest;
  std::string csv = "gpu,kernel,model,time_us,cycles,speedup,limiter\n";
  for (const GpuTime& row : c.gpus) {
    csv += csv_field(row.gpu) + ',' + csv_field(c.kernel) + ',' + to_string(c.model) + ',' + shortest(row.time_us) + ',' +
           shortest(row.cycles) + ',' + shortest(row.speedup) + ',' + csv_field(row.limiter) + '\n';
  }
  return csv;
}

std::string to_svg(const GpuComparison& c) {
  std::vector<sim::report::Bar> bars;
  for (const GpuTime& row : c.gpus) {
    bars.push_back({row.gpu, row.time_us, sim::report::fixed(row.speedup, 2) + "x" + (row.limiter.empty() ? "" : ", " + row.limiter)});
  }
  return sim::report::render_bar_chart_svg(
      bars, {"time of " + c.kernel + " per GPU", std::string(to_string(c.model)) + " model; speed-up against " + c.gpus.front().gpu,
             "predicted time (us)"});
}

}  // namespace warpsim

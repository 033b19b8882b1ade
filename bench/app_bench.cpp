// Whole applications (warpsim app): parsing an app file and predicting all its rows, for the
// bundled examples (a few rows) and a scaling study over 1..1024 GPUs (powers of 2) and 20 sizes with a PTX
// kernel step (220 rows, each a distinct launch to lower), as a new run would (lowered PTX launches
// dropped each time).
#include <benchmark/benchmark.h>

#include "warpsim/app/app.hpp"
#include "warpsim/app/app_report.hpp"
#include "warpsim/app/app_run.hpp"
#include "warpsim/workload/lowering_cache.hpp"

namespace {

using namespace warpsim;

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

void run_app(benchmark::State& state, const sim::app::App& app) {
  sim::driver::SweepOptions options;
  options.jobs = 1;
  for (auto _ : state) {
    state.PauseTiming();
    sim::workload::LoweringCache::process_wide()->clear();
    state.ResumeTiming();
    const sim::app::AppRun run = sim::app::run_app(app, options);
    benchmark::DoNotOptimize(sim::app::app_csv(app, run));
  }
  state.SetItemsProcessed(state.iterations() * app.row_count());  // rows
}

void AppFile(benchmark::State& state, const std::string& file) { run_app(state, sim::app::load_app(kSourceDir + "/" + file)); }
BENCHMARK_CAPTURE(AppFile, shared_host, std::string("workloads/apps/shared_host.toml"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(AppFile, distributed, std::string("workloads/apps/distributed.toml"))->Unit(benchmark::kMicrosecond);

void AppPtxScaling(benchmark::State& state) {
  const std::string text = R"app(gpu = "h100"
[system]
network_gbs = 12.5
gpus = { powers_of = 2, from = 0, to = 10 }
[axes]
N = { powers_of = 2, from = 11, to = 30 }
[[step]]
copy = "h2d"
bytes = "8*N"
[[step]]
ptx = ")app" + kSourceDir + R"app(/workloads/saxpy/saxpy.ptx"
params = ["ceil_div(N, M)"]
launch = { threads = "ceil_div(N, M)", block = 256 }
[[step]]
gather = "4*N"
)app";
  run_app(state, sim::app::parse_app(text, "bench.toml"));
}
BENCHMARK(AppPtxScaling)->Unit(benchmark::kMillisecond);

void AppParse(benchmark::State& state) {
  const std::string path = kSourceDir + "/workloads/apps/distributed.toml";
  for (auto _ : state) benchmark::DoNotOptimize(sim::app::load_app(path).steps.size());
}
BENCHMARK(AppParse)->Unit(benchmark::kMicrosecond);

}  // namespace

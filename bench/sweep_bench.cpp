// Whole predictions: the grid roll-up of one DWT point, the paper's 720-point sweep, and the
// parallel driver (-j 1 against -j 2) on sweeps large enough to matter.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "warpsim/driver/suite.hpp"
#include "warpsim/driver/sweep.hpp"
#include "warpsim/workload/lowering_cache.hpp"
#include "warpsim/workload/named_workload.hpp"

namespace {

using namespace warpsim;

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

void DwtMatrixPrediction(benchmark::State& state) {
  const gpus::Profile gpu = gpus::load_profile("rtx2080");
  const auto& workload = sim::workload::find_workload("dwt_matrix");
  for (auto _ : state) {
    benchmark::DoNotOptimize(sim::workload::predict(workload, gpu, {14, 1 << 20}).time_us);
  }
}
BENCHMARK(DwtMatrixPrediction);

void run_suite(benchmark::State& state, const std::string& file, int jobs) {
  const sim::driver::Suite suite = sim::driver::load_suite(kSourceDir + "/" + file);
  sim::driver::SweepOptions options;
  options.jobs = jobs;
  for (auto _ : state) {
    state.PauseTiming();  // PTX points lower and time from scratch each iteration, as in a new run
    sim::workload::LoweringCache::process_wide()->clear();
    state.ResumeTiming();
    double total = 0;
    sim::driver::run_sweep(suite, [&](const sim::driver::SweepRow& row) { total += row.prediction.time_us; }, options);
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * suite.point_count());  // predictions
}

// A suite file's sweep on state.range(0) threads (wall-clock time: the point of -j).
void Sweep(benchmark::State& state, const std::string& file) { run_suite(state, file, static_cast<int>(state.range(0))); }
// The name the baseline (bench/baseline/) and docs/performance.md know: the paper sweep, one thread.
void PaperSweep(benchmark::State& state) { run_suite(state, "workloads/suites/paper-dwt.toml", 1); }
BENCHMARK(PaperSweep)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Sweep, paper_dwt, std::string("workloads/suites/paper-dwt.toml"))->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Sweep, dwt_filters_8_gpus, std::string("bench/suites/dwt-filters.toml"))->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Sweep, ptx_mtx_mul_vec, std::string("bench/suites/ptx-mtx-mul-vec.toml"))->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// A long PTX sweep's memory: the resident set's growth over the sweep at its peak (sampled at
// every delivered point) and at its end, in MiB. Flat memory shows as a peak that does not grow
// with the sweep's length; a sweep that keeps what it no longer needs grows with every launch.
std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::int64_t>(sysconf(_SC_PAGESIZE));
}

void SweepPeakMemory(benchmark::State& state) {
  const sim::driver::Suite suite = sim::driver::load_suite(kSourceDir + "/bench/suites/measured-tiles.toml");
  sim::driver::SweepOptions options;
  options.jobs = 2;
  std::int64_t peak = 0, end = 0;
  for (auto _ : state) {
    state.PauseTiming();
    sim::workload::LoweringCache::process_wide()->clear();
    const std::int64_t before = resident_bytes();
    state.ResumeTiming();
    sim::driver::run_sweep(suite, [&](const sim::driver::SweepRow&) { peak = std::max(peak, resident_bytes() - before); }, options);
    end = resident_bytes() - before;
  }
  state.counters["peak_growth_MiB"] = static_cast<double>(peak) / (1 << 20);
  state.counters["end_growth_MiB"] = static_cast<double>(end) / (1 << 20);
  state.SetItemsProcessed(state.iterations() * suite.point_count());
}
BENCHMARK(SweepPeakMemory)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

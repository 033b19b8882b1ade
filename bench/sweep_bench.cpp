// Whole predictions: the grid roll-up of one DWT point and the paper's 720-point sweep.
#include <benchmark/benchmark.h>

#include "sim/driver/suite.hpp"

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

void PaperSweep(benchmark::State& state) {
  const sim::driver::Suite suite = sim::driver::load_suite(kSourceDir + "/workloads/suites/paper-dwt.toml");
  for (auto _ : state) {
    double total = 0;
    sim::driver::run_sweep(suite, [&](const sim::driver::SweepRow& row) { total += row.prediction.time_us; });
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * suite.point_count());  // predictions
}
BENCHMARK(PaperSweep)->Unit(benchmark::kMillisecond);

}  // namespace

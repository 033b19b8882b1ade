// warpsim explain with its findings (docs/explain.md, "Findings"): a simulation, the explanation's
// instruction-by-instruction run, and each cause re-simulated away. The kernels of
// tests/advice/kernels/, in PTX order (--ptxas none --nvdisasm none), so no tool is run.
#include <benchmark/benchmark.h>

#include <string>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

void Explain(benchmark::State& state, const std::string& file, const std::string& kernel, Dim3 grid, Dim3 block, Parameters params) {
  SimulateRequest request;
  request.program = "tests/advice/kernels/" + file;
  request.ptx.kernel = kernel;
  request.gpu = "a100";
  request.grid = grid;
  request.block = block;
  request.params = std::move(params);
  request.ptxas = request.nvdisasm = "none";
  request.explain = true;
  std::size_t findings = 0;
  for (auto _ : state) {
    const SimulateResult result = simulate(request);
    findings = result.explanation->findings.size();
    benchmark::DoNotOptimize(result.time_us);
  }
  state.counters["findings"] = static_cast<double>(findings);
}
// Line findings (each re-times the launch), and a block-size finding (each size lowered again).
BENCHMARK_CAPTURE(Explain, bank_conflicts, std::string("advice_bank_conflict.sm_80.ptx"), std::string("transpose_conflicted"),
                  Dim3{64, 64, 1}, Dim3{32, 8, 1}, Parameters{{"2", "2048"}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Explain, small_blocks, std::string("advice_small_blocks.sm_80.ptx"), std::string("small_block_work"),
                  Dim3{32768, 1, 1}, Dim3{32, 1, 1}, Parameters{{"2", "1048576"}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

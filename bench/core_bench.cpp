// The core-package engine (Algorithm 2) on the paper's programs.
#include <benchmark/benchmark.h>

#include "warpsim/isa/kp_format.hpp"
#include "warpsim/core/simulate_core.hpp"

namespace {

using namespace warpsim;

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

void Listing1(benchmark::State& state) {
  const isa::Program program = isa::load_kp_file(kSourceDir + "/workloads/examples/listing1_load.kp");
  for (auto _ : state) benchmark::DoNotOptimize(sim::core::simulate_core(program, 3, 2'000));
}
BENCHMARK(Listing1);

void DwtMatrixK14(benchmark::State& state) {
  const isa::Program program =
      isa::load_kp_file(kSourceDir + "/workloads/dwt/matrix.kp").bind({{"K", 14}});
  const auto warps = state.range(0);
  for (auto _ : state) benchmark::DoNotOptimize(sim::core::simulate_core(program, warps, 1'100));
}
BENCHMARK(DwtMatrixK14)->Arg(1)->Arg(16)->Arg(32);

// The visit engine's rounds (visit_list.hpp) on the DWT matrix at K = 14, t_m = 1.1: by the
// first and last warps alone (run_visits, O(visits)) against warp by warp.
void VisitRounds(benchmark::State& state, bool envelope) {
  const isa::Program program =
      isa::load_kp_file(kSourceDir + "/workloads/dwt/matrix.kp").bind({{"K", 14}});
  const sim::core::VisitList visits = sim::core::compile_visits(program, 1'100);
  const auto warps = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(envelope ? sim::core::run_visits(visits, warps)
                                      : sim::core::run_visits_warp_by_warp(visits, warps));
  }
}
BENCHMARK_CAPTURE(VisitRounds, warp_by_warp, false)->Arg(2)->Arg(4)->Arg(8)->Arg(32);
BENCHMARK_CAPTURE(VisitRounds, first_and_last, true)->Arg(2)->Arg(4)->Arg(8)->Arg(32);

// Listing 4 with N = 2^10 .. 2^24 on 32 warps, t_m = 31: the paper's case study is N = 2^14.
void MtxMulVec(benchmark::State& state) {
  const isa::Program program =
      isa::load_kp_file(kSourceDir + "/workloads/mtx_mul_vec/mtx_mul_vec.kp").bind({{"N", state.range(0)}});
  for (auto _ : state) benchmark::DoNotOptimize(sim::core::simulate_core(program, 32, 31'000));
  // Items: the warp-instructions the run stands for (fast-forward does not execute them all).
  state.SetItemsProcessed(state.iterations() * 32 * (1 + 5 * state.range(0)));
}
BENCHMARK(MtxMulVec)->Arg(1 << 10)->Arg(1 << 14)->Arg(1 << 20)->Arg(1 << 24)->Unit(benchmark::kMicrosecond);

}  // namespace

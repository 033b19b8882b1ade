// The PTX frontend: parsing nvcc output, lowering whole launches to warp programs (warps in
// classes, loops in closed form; docs/ptx.md), and lowering plus timing the real-size
// kernels (SGEMM, vectorAdd, grid-stride SAXPY) as `warpsim simulate` does.
#include <benchmark/benchmark.h>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/calibrate/calibrate.hpp"
#include "warpsim/workload/lowering_cache.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace {

using namespace warpsim;

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

void ParsePtx(benchmark::State& state, const std::string& file) {
  const std::string text = read_text_file(kSourceDir + "/" + file);
  for (auto _ : state) benchmark::DoNotOptimize(ptx::parse_ptx(text, file).functions.size());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK_CAPTURE(ParsePtx, dwt, std::string("workloads/dwt/dwt.ptx"));
BENCHMARK_CAPTURE(ParsePtx, reduce_debug_G, std::string("workloads/reduce/reduce.G.ptx"));

// Lowering a launch of `threads` threads in blocks of 1024 (the kernel's own guard handles the
// rest), emulating on state.range(0) cores.
void Lower(benchmark::State& state, const std::string& file, const std::string& kernel,
           const ptx::ParameterEntries& parameters, std::int64_t threads) {
  const ptx::Module module = ptx::load_ptx_file(kSourceDir + "/" + file);
  ptx::LoweringOptions options;
  options.kernel = kernel;
  options.block = {std::min<std::int64_t>(threads, 1024), 1, 1};
  options.grid = {(threads + 1023) / 1024, 1, 1};
  options.parameters = parameters;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(ptx::lower_kernel(module, options).programs.size());
  state.SetItemsProcessed(state.iterations() * (threads / 32));  // warps
}
const std::string kTwoTo20 = std::to_string(1 << 20);
BENCHMARK_CAPTURE(Lower, dwt_matrix_K14_2to20_threads, std::string("workloads/dwt/dwt.ptx"), std::string("mtx"),
                  ptx::ParameterEntries{{"0", "14"}, {"1", kTwoTo20}, {"5", kTwoTo20}}, 1 << 20)
    ->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Lower, dwt_lattice_2to20_threads, std::string("workloads/dwt/dwt.ptx"), std::string("ltt"),
                  ptx::ParameterEntries{{"0", "0"}, {"1", "8"}, {"2", std::to_string(1 << 21)}, {"5", kTwoTo20}},
                  1 << 20)
    ->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(Lower, mtx_mul_vec_N2to14_one_warp, std::string("workloads/mtx_mul_vec/mtx_mul_vec.ptx"),
                  std::string(), ptx::ParameterEntries{{"0", "16384"}}, 32)
    ->Arg(1)->Unit(benchmark::kMillisecond);

// `warpsim simulate` in process: lower the launch (no cache) and time it on the H100 profile.
void LowerAndSimulate(benchmark::State& state, const std::string& file, const std::string& kernel, ptx::Dim3 grid,
                      ptx::Dim3 block, const ptx::ParameterEntries& parameters, bool emulate_all) {
  const ptx::Module module = ptx::load_ptx_file(kSourceDir + "/" + file);
  const gpus::Profile gpu = gpus::load_profile("h100");
  ptx::LoweringOptions options;
  options.kernel = kernel;
  options.grid = grid;
  options.block = block;
  options.parameters = parameters;
  options.emulate_all = emulate_all;
  const sim::grid::Launch launch{grid.count(), block.count()};
  std::int64_t classes = 0;
  for (auto _ : state) {
    const ptx::LoweredKernel lowered = ptx::lower_kernel(module, options);
    classes = lowered.emulated_classes;
    const sim::workload::ModelSpec spec = sim::workload::make_model_spec(Model::paper, gpu, launch, 31'000, false);
    benchmark::DoNotOptimize(sim::workload::time_lowered_kernel(gpu, launch, 5.0, lowered, spec).cycles);
  }
  state.counters["classes"] = static_cast<double>(classes);
  state.counters["warps"] = static_cast<double>(grid.count() * ((block.count() + 31) / 32));
}
const std::string kSgemm = "workloads/sgemm/sgemm.ptx";
const std::string kVectorOps = "workloads/vector_ops/vector_ops.ptx";
const auto sgemm = [](std::int64_t n, bool all) {
  return [=](benchmark::State& s) {
    LowerAndSimulate(s, kSgemm, "sgemm_tiled", {n / 16, n / 16, 1}, {16, 16, 1}, {{"0", std::to_string(n)}}, all);
  };
};
const auto naive = [](std::int64_t n) {
  return [=](benchmark::State& s) {
    LowerAndSimulate(s, kSgemm, "sgemm_naive", {(n + 15) / 16, (n + 15) / 16, 1}, {16, 16, 1}, {{"0", std::to_string(n)}}, false);
  };
};
const int kRegistered = [] {
  for (const std::int64_t n : {256, 1024, 4096, 8192}) {
    benchmark::RegisterBenchmark(("SimulatePtx/sgemm_tiled/" + std::to_string(n)).c_str(), sgemm(n, false))->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("SimulatePtx/sgemm_tiled/256/emulate_all", sgemm(256, true))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("SimulatePtx/sgemm_naive/1024", naive(1024))->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("SimulatePtx/sgemm_naive/1000", naive(1000))->Unit(benchmark::kMillisecond);
  const std::int64_t n = std::int64_t{1} << 28;
  benchmark::RegisterBenchmark("SimulatePtx/vector_add/2^28", [=](benchmark::State& s) {
    LowerAndSimulate(s, kVectorOps, "vector_add", {n / 256, 1, 1}, {256, 1, 1}, {{"3", std::to_string(n)}}, false);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("SimulatePtx/vector_add/2^28-100", [=](benchmark::State& s) {  // a partial last block
    LowerAndSimulate(s, kVectorOps, "vector_add", {n / 256, 1, 1}, {256, 1, 1}, {{"3", std::to_string(n - 100)}}, false);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("SimulatePtx/saxpy_grid_stride/2^28", [=](benchmark::State& s) {
    LowerAndSimulate(s, kVectorOps, "saxpy_grid_stride", {1024, 1, 1}, {256, 1, 1}, {{"0", std::to_string(n)}, {"1", "2"}}, false);
  })->Unit(benchmark::kMillisecond);
  return 0;
}();

// The pipes model's core packages when nothing repeats (docs/performance.md, "The pipes model"):
// the measured data set's tiled product at T = 12 (workloads/measured/ptx), lowered once, timed
// on the GTX 680: 5-warp blocks of different programs with barriers, up to 15 warps a package,
// whose earliest-ready-first schedule never repeats exactly, so every iteration is simulated.
void PipesMixedPackages(benchmark::State& state) {
  const ptx::Module module = ptx::load_ptx_file(kSourceDir + "/workloads/measured/ptx/matMul_gpu_sharedmem-T12.ptx");
  const gpus::Profile gpu = gpus::load_profile("gtx680");
  const std::int64_t n = state.range(0);
  ptx::LoweringOptions options;
  options.grid = {n / 12, n / 12, 1};
  options.block = {12, 12, 1};
  options.parameters = {{"3", std::to_string(n)}};
  const ptx::LoweredKernel lowered = ptx::lower_kernel(module, options);
  const sim::grid::Launch launch = sim::workload::with_occupancy(
      gpu, {options.grid.count(), options.block.count()}, Model::pipes, 24, lowered.static_shared_bytes);
  const sim::workload::ModelSpec spec = sim::workload::make_model_spec(
      Model::pipes, gpu, launch, 4'000, sim::workload::has_memory_annotations(lowered));
  for (auto _ : state) benchmark::DoNotOptimize(sim::workload::time_lowered_kernel(gpu, launch, 0.0, lowered, spec).cycles);
}
BENCHMARK(PipesMixedPackages)->Arg(240)->Arg(1200)->Unit(benchmark::kMillisecond);

// `warpsim calibrate` of a PTX kernel over 15 measured points (the tiled SGEMM, n = 512 .. 7680;
// times from a formula, as only the fit's cost is measured): t_p, t_m, d1 and d2 fitted, every
// point lowered once (a fresh lowering cache per iteration).
void CalibratePtx(benchmark::State& state) {
  namespace wl = sim::workload;
  const gpus::Profile gpu = gpus::load_profile("h100");
  sim::calibrate::CalibrationProblem problem;
  problem.gpu = &gpu;
  for (std::int64_t k = 1; k <= 15; ++k) {
    const std::int64_t n = 512 * k;
    sim::calibrate::MeasuredPoint point;
    point.point = {{"n", n}, {"g", n / 16}};
    point.time_us = 5 + 10 * static_cast<double>(n * n * n) / 3e7;
    problem.data.points.push_back(point);
  }
  problem.fit = sim::calibrate::parse_fit_list("tm,tp,d1,d2", 2, 10.0);
  problem.start_tm = 31'000;
  problem.start_durations = {ptx::kDefaultMemoryCycles, ptx::kDefaultMemoryCycles};
  ptx::LoweringOptions options;
  options.kernel = "sgemm_tiled";
  std::int64_t trials = 0;
  for (auto _ : state) {
    const wl::PtxWorkloadModel model("", wl::load_ptx_source(kSourceDir + "/" + kSgemm), options,
                                     wl::LaunchPolicy{"", "g,g", "16,16"}, {{"n", "0"}}, std::make_shared<wl::LoweringCache>());
    problem.model = &model;
    trials = sim::calibrate::calibrate(problem).trials;
  }
  state.counters["trials"] = static_cast<double>(trials);
}
BENCHMARK(CalibratePtx)->Unit(benchmark::kMillisecond);

}  // namespace

// The PTX frontend: parsing nvcc output, and lowering whole launches to warp programs
// (emulating every warp; docs/ptx.md).
#include <benchmark/benchmark.h>

#include "frontends/ptx/lowering.hpp"
#include "frontends/ptx/parser.hpp"
#include "isa/text_file.hpp"

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

}  // namespace

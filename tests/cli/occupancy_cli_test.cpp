// `warpsim occupancy`: the figures for hand-worked kernels, --ptx (static shared memory from the
// PTX, registers from ptxas where it runs), the default registers with a warning, and bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "warpsim/ptx/kernel_resources.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/workload/ptxas_registers.hpp"
#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

TEST(OccupancyCli, JsonReportsEveryLimit) {
  // A100, 256 threads x 64 registers: 4 blocks by registers (tests/occupancy/occupancy_test.cpp).
  const Result r = run_warpsim("occupancy --gpu a100 --block 16,16 --regs 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["active_blocks_per_sm"], 4);
  EXPECT_EQ(j["limited_by"], "registers");
  EXPECT_EQ(j["by_warps"], 8);
  EXPECT_EQ(j["by_blocks"], 32);
  EXPECT_EQ(j["by_registers"], 4);
  EXPECT_EQ(j["by_shared_memory"], 164);
  EXPECT_EQ(j["active_warps_per_sm"], 32);
  EXPECT_EQ(j["occupancy"], 0.5);
  EXPECT_EQ(j["registers_source"], "--regs");
}

TEST(OccupancyCli, TextNamesTheLimit) {
  const Result r = run_warpsim("occupancy --gpu a100 --block 128 --regs 32 --smem 40960");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("active_blocks_per_sm = 4, limited by shared_memory"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("occupancy 0.25"), std::string::npos) << r.out;
}

TEST(OccupancyCli, DefaultRegistersWarn) {
  const Result r = run_warpsim("occupancy --gpu t4 --block 1024 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("warpsim: warning: registers per thread unknown (no --regs and no --ptx): assuming 32", 0), 0u) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["registers_source"], "default");
  EXPECT_EQ(j["active_blocks_per_sm"], 1);
  EXPECT_EQ(j["limited_by"], "warps");
  EXPECT_TRUE(j["by_shared_memory"].is_null());
}

TEST(OccupancyCli, PtxGivesStaticSharedMemory) {
  // reduce_smem declares a 4096-byte __shared__ array (module scope in the PTX), reduce_shuffle 128.
  const Result r = run_warpsim(
      "occupancy --gpu a100 --block 256 --ptx workloads/reduce/reduce.ptx --kernel reduce_smem --ptxas none --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("warpsim: warning: registers per thread unknown (--ptxas none)", 0), 0u) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["static_smem_bytes"], 4096);
  EXPECT_EQ(j["static_smem_source"], "ptx");
  EXPECT_EQ(j["shared_memory_per_block"], 4096 + 1024);
  const warpsim::ptx::Module module = warpsim::ptx::load_ptx_file(kSourceDir + "/workloads/reduce/reduce.ptx");
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(module, "reduce_shuffle"), 128);
  const warpsim::ptx::Module saxpy = warpsim::ptx::load_ptx_file(kSourceDir + "/workloads/saxpy/saxpy.ptx");
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(saxpy, ""), 0);
  // What `ptxas -arch=sm_80 -v` reports as smem for these kernels.
  const warpsim::ptx::Module sgemm = warpsim::ptx::load_ptx_file(kSourceDir + "/workloads/sgemm/sgemm.ptx");
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(sgemm, "sgemm_tiled"), 2048);
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(sgemm, "sgemm_naive"), 0);
  const warpsim::ptx::Module histogram = warpsim::ptx::load_ptx_file(kSourceDir + "/workloads/histogram/histogram.ptx");
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(histogram, "histogram_shared"), 1024);
}

TEST(OccupancyCli, SharedMemoryOfCalledFunctionsAndAlignmentButNotExtern) {
  // `b` (32 bytes, declared in k's body) first, then `a` (4 bytes, module scope, named by f,
  // which k calls) at its alignment 4: 36.
  // `dyn` is dynamic shared memory; `unused` is named by no function k reaches.
  const warpsim::ptx::Module module = warpsim::ptx::parse_ptx(
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".shared .align 4 .b8 a[4];\n.shared .align 4 .b8 unused[64];\n.extern .shared .align 16 .b8 dyn[];\n"
      ".func f()\n{\n.reg .b32 %r<2>;\nld.shared.u32 %r1, [a];\nret;\n}\n"
      ".visible .entry k()\n{\n.shared .align 16 .b8 b[32];\n.reg .b64 %rd<2>;\n"
      "mov.u64 %rd1, dyn;\ncall f, ();\nret;\n}\n",
      "inline.ptx");
  EXPECT_EQ(warpsim::ptx::static_shared_bytes(module, "k"), 36);
}

TEST(OccupancyCli, SmemOverridesThePtx) {
  const Result r = run_warpsim(
      "occupancy --gpu a100 --block 256 --regs 16 --smem 0 --ptx workloads/reduce/reduce.ptx --kernel reduce_smem --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["static_smem_bytes"], 0);
}

TEST(OccupancyCli, MissingPtxasFallsBackWithAWarning) {
  const Result r = run_warpsim(
      "occupancy --gpu a100 --block 256 --ptx workloads/saxpy/saxpy.ptx --ptxas /nonexistent/ptxas --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warpsim: warning: registers per thread unknown (/nonexistent/ptxas was not found)"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["registers_per_thread"], 32);
}

TEST(OccupancyCli, RegistersFromPtxasWhereItRuns) {
  const Result r = run_warpsim("occupancy --gpu a100 --block 256 --ptx workloads/saxpy/saxpy.ptx --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  if (j["registers_source"] == "default") GTEST_SKIP() << "ptxas does not run here: " << r.err;
  EXPECT_EQ(j["registers_source"], "ptxas -arch=sm_80");
  EXPECT_GT(j["registers_per_thread"], 0);
}

TEST(OccupancyCli, PtxasOutputParsing) {
  const std::string output =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1av' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z1av\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 13 registers, used 1 barriers, 128 bytes smem, 376 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z1bv' for 'sm_80'\n"
      "ptxas info    : Used 40 registers, used 0 barriers, 376 bytes cmem[0]\n";
  EXPECT_EQ(warpsim::sim::workload::parse_ptxas_registers(output, "_Z1av"), 13);
  EXPECT_EQ(warpsim::sim::workload::parse_ptxas_registers(output, "_Z1bv"), 40);
  EXPECT_EQ(warpsim::sim::workload::parse_ptxas_registers(output, "_Z1cv"), std::nullopt);
}

TEST(OccupancyCli, BadInput) {
  expect_input_error("occupancy --gpu a100 --block 2048 --regs 32", "a block of 2048 threads is more than the 1024");
  expect_input_error("occupancy --gpu a100 --block 256 --regs 300", "300 registers per thread is more than the 255");
  expect_input_error("occupancy --gpu nosuchgpu --block 256 --regs 32", "unknown GPU");
}

}  // namespace

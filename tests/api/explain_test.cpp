// warpsim explain (api/explain*.cpp; docs/explain.md): its figures agree with each other and with
// simulate's, the binding pipe is named with its peak, waits and time land on the right lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

SimulateRequest request_for(const std::string& program, const std::string& gpu, Dim3 grid, Dim3 block, Parameters params) {
  SimulateRequest r;
  r.program = program;
  r.gpu = gpu;
  r.grid = grid;
  r.block = block;
  r.params = std::move(params);
  r.model = Model::pipes;
  r.ptxas = "none";
  r.explain = true;
  return r;
}

double total(const std::vector<HotLine>& lines) {
  return std::accumulate(lines.begin(), lines.end(), 0.0, [](double s, const HotLine& h) { return s + h.share; });
}

// Checks every explanation must pass: shares add up, the hot lines hold exactly the warps' time,
// the occupancy curves pass through the kernel's point, and explaining changes no figure.
void expect_consistent(const SimulateRequest& request) {
  const SimulateResult explained = simulate(request);
  ASSERT_TRUE(explained.explanation);
  const Explanation& e = *explained.explanation;
  SimulateRequest plain = request;
  plain.explain = false;
  const SimulateResult result = simulate(plain);
  EXPECT_EQ(explained.time_us, result.time_us);
  EXPECT_EQ(explained.cycles, result.cycles);
  EXPECT_DOUBLE_EQ(e.package_cycles, result.limits->package_cycles);  // the same core package, without fast-forward
  double waits = 0, warp_cycles = 0;
  for (const WaitShare& w : e.waits) waits += w.share, warp_cycles += w.cycles_per_warp * static_cast<double>(e.warps);
  EXPECT_NEAR(waits, 1.0, 1e-12);
  EXPECT_NEAR(total(e.ptx_lines), 1.0, 1e-9);
  double line_cycles = 0;
  for (const HotLine& h : e.ptx_lines) line_cycles += h.warp_cycles;
  EXPECT_NEAR(line_cycles, warp_cycles, 1e-6 * warp_cycles);
  EXPECT_TRUE(std::is_sorted(e.ptx_lines.begin(), e.ptx_lines.end(),
                             [](const HotLine& a, const HotLine& b) { return a.warp_cycles > b.warp_cycles; }));
  ASSERT_EQ(e.speed_of_light.size(), result.limits->utilisation.size());
  for (std::size_t i = 0; i < e.speed_of_light.size(); ++i) {
    EXPECT_EQ(e.speed_of_light[i].name, result.limits->utilisation[i].first);
    EXPECT_EQ(e.speed_of_light[i].busy, result.limits->utilisation[i].second);
  }
  ASSERT_EQ(e.occupancy_curves.size(), 3u);
  for (const OccupancyCurve& c : e.occupancy_curves) {
    const auto at = std::find_if(c.points.begin(), c.points.end(), [&](const auto& p) { return p.first == c.kernel_value; });
    if (c.axis == "shared_memory" && at == c.points.end()) continue;  // between two 1 KiB steps
    ASSERT_NE(at, c.points.end()) << c.axis;
    EXPECT_EQ(at->second, e.occupancy.occupancy) << c.axis;
  }
  EXPECT_GT(e.roofline.warp_instructions, 0);
  EXPECT_LE(e.roofline.achieved_gips, e.roofline.peak_gips * (1 + 1e-12));
}

TEST(Explain, NamesTheBindingPipeWithItsPeak) {
  const SimulateRequest request =
      request_for("workloads/pipes/pipe_bound.ptx", "rtx3090", {82 * 48, 1, 1}, {256, 1, 1}, {{"0", "256"}});
  SimulateRequest fp64 = request;
  fp64.ptx.kernel = "pipe_fp64";
  fp64.registers = 32;
  const SimulateResult r = simulate(fp64);
  const Explanation& e = *r.explanation;
  EXPECT_EQ(e.limiter, "fp64 pipe");
  // GA102: one FP64 lane-op every 64 cycles per scheduler, 4 schedulers: 2 results a clock per SM.
  EXPECT_EQ(e.sentence.substr(0, e.sentence.find(';')), "fp64 pipe: 2 results/clock/SM on rtx3090");
  // The warps wait for the FP64 pipe: what they wait for is the pipe (others' DFMAs) or their own chain.
  double pipe = 0;
  for (const WaitShare& w : e.waits) {
    if (w.cause == "pipe_busy" || w.cause == "dependency") pipe += w.share;
  }
  EXPECT_GT(pipe, 0.95);
  // The hottest lines are the loop's DFMAs (the waits for the pipe are put on the calc that needs it).
  EXPECT_NE(e.ptx_lines.front().text.find("f64"), std::string::npos) << e.ptx_lines.front().text;
  expect_consistent(fp64);
}

TEST(Explain, PutsLoadWaitsOnTheirUseAndFindsTheCudaLine) {
  const SimulateRequest request = request_for("workloads/mtx_mul_vec/mtx_mul_vec.lineinfo.ptx", "rtx2080", {16, 1, 1},
                                              {256, 1, 1}, {{"0", "4096"}});
  const SimulateResult r = simulate(request);
  const Explanation& e = *r.explanation;
  const auto memory = std::find_if(e.waits.begin(), e.waits.end(), [](const WaitShare& w) { return w.cause == "memory"; });
  EXPECT_GT(memory->share, 0.9);  // 2 warps per scheduler: nothing hides the loads
  // The loop's FMA uses both loaded values; its CUDA line is the statement of the loop body, found
  // beside the PTX although the PTX names the path nvcc compiled from.
  EXPECT_NE(e.ptx_lines.front().text.find("fma.rn.f32"), std::string::npos);
  ASSERT_FALSE(e.source_lines.empty());
  EXPECT_EQ(e.source_lines.front().file, "workloads/mtx_mul_vec/mtx_mul_vec.cu");
  EXPECT_EQ(e.source_lines.front().line, 10);
  EXPECT_EQ(e.source_lines.front().text, "vec_out[i] += mtx[i * N + j] * vec_in[j];");
  EXPECT_NEAR(total(e.source_lines), total(e.ptx_lines), 1e-9);  // every instruction has a .loc
  expect_consistent(request);
}

TEST(Explain, KernelProgramsUseTheirOwnLines) {
  const SimulateRequest request =
      request_for("workloads/examples/fp64_chain.kp", "rtx3090", {82 * 4, 1, 1}, {256, 1, 1}, {{"N", "200"}});
  const SimulateResult r = simulate(request);
  const Explanation& e = *r.explanation;
  EXPECT_EQ(e.limiter, "fp64 pipe");
  EXPECT_EQ(e.ptx_lines.front().file, "workloads/examples/fp64_chain.kp");
  EXPECT_EQ(e.ptx_lines.front().line, 10);  // the loop's calc
  EXPECT_EQ(e.ptx_lines.front().text, "calc 10 issue=10 fp64=8 int=1 control=1 chain fp64=1 int=1");
  EXPECT_TRUE(e.source_lines.empty());
  expect_consistent(request);
}

TEST(Explain, TheSgemmTileShowsSharedMemoryAndABarrier) {
  const SimulateRequest request =
      request_for("workloads/sgemm/sgemm.ptx", "h100", {64, 64, 1}, {16, 16, 1}, {{"0", "1024"}});
  SimulateRequest sgemm = request;
  sgemm.ptx.kernel = "sgemm_tiled";
  const SimulateResult r = simulate(sgemm);
  const Explanation& e = *r.explanation;
  EXPECT_EQ(e.limiter, "memory front end (mostly shared memory)");
  const auto barrier = std::find_if(e.waits.begin(), e.waits.end(), [](const WaitShare& w) { return w.cause == "barrier"; });
  EXPECT_GT(barrier->share, 0);
  EXPECT_EQ(e.occupancy.active_warps_per_sm, 64);
  expect_consistent(sgemm);
}

TEST(Explain, NeedsThePipesModel) {
  SimulateRequest request =
      request_for("workloads/sgemm/sgemm.ptx", "h100", {4, 4, 1}, {16, 16, 1}, {{"0", "64"}});
  request.model = Model::memory;
  try {
    simulate(request);
    FAIL() << "explained under the memory model";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("explain needs the pipes model"), std::string::npos) << e.what();
  }
}

}  // namespace

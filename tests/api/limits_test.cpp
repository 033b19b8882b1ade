// simulate()'s limiter report under the pipes model (api/limits.cpp; docs/model.md, "What limits
// it"): kernels bound by one pipe name it, a tiny launch names its overhead, the memory-aware
// model reports none.
#include <gtest/gtest.h>

#include <string>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

SimulateResult pipe_kernel(const std::string& kernel, const std::string& gpu, std::int64_t blocks, Model model = Model::pipes,
                           const std::string& iters = "256") {
  SimulateRequest request;
  request.program = "workloads/pipes/pipe_bound.ptx";
  request.ptx.kernel = kernel;
  request.gpu = gpu;
  request.grid = Dim3{blocks, 1, 1};
  request.block = Dim3{256, 1, 1};
  request.params = {{"0", iters}};
  request.model = model;
  request.registers = 32;
  return simulate(request);
}

double busy(const Limits& limits, const std::string& resource) {
  for (const auto& [name, share] : limits.utilisation) {
    if (name == resource) return share;
  }
  return -1;
}

TEST(Limits, APipeBoundKernelNamesItsPipe) {
  const SimulateResult fp64 = pipe_kernel("pipe_fp64", "rtx3090", 82 * 48);
  ASSERT_TRUE(fp64.limits);
  EXPECT_EQ(fp64.limits->limiter, "fp64 pipe");
  EXPECT_GT(busy(*fp64.limits, "fp64"), 0.99);
  EXPECT_LT(busy(*fp64.limits, "issue"), 0.05);
  const SimulateResult sfu = pipe_kernel("pipe_sfu", "h100", 132 * 48);
  EXPECT_EQ(sfu.limits->limiter, "sfu pipe");
  // FP32 at 32 lanes a scheduler: the issue port is the limit (the loop's overhead issues too).
  const SimulateResult fp32 = pipe_kernel("pipe_fp32", "h100", 132 * 48);
  EXPECT_EQ(fp32.limits->limiter, "issue");
  EXPECT_GT(busy(*fp32.limits, "fp32"), 0.9);
}

TEST(Limits, ATinyLaunchIsItsOverheadAndOtherModelsReportNone) {
  const SimulateResult one = pipe_kernel("pipe_fp32", "h100", 1, Model::pipes, "1");
  EXPECT_EQ(one.limits->limiter, "launch overhead");
  EXPECT_FALSE(pipe_kernel("pipe_fp64", "rtx3090", 82, Model::memory).limits);
  const nlohmann::ordered_json json = to_json(pipe_kernel("pipe_fp64", "rtx3090", 82 * 48));
  EXPECT_EQ(json["limits"]["limiter"], "fp64 pipe");
  EXPECT_TRUE(json["limits"]["utilisation"].contains("dram"));
  EXPECT_NE(to_text(pipe_kernel("pipe_fp64", "rtx3090", 82 * 48)).find("limiter: fp64 pipe"), std::string::npos);
}

}  // namespace

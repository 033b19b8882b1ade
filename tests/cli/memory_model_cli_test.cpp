// The memory-aware timing model end to end through the `warpsim` executable (the model itself,
// worked by hand: tests/workload/memory_model_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "warpsim/gpus/profile.hpp"
#include "support/cli_runner.hpp"

namespace warpsim::sim {
namespace {

// Listing 1 under the memory-aware model with H100 figures: nothing in it is annotated, so it
// takes the paper's 112 cycles (N_w = 3, t_m = 2).
TEST(PaperModel, CoreCommandTimesListing1AsThePaperUnderTheMemoryModel) {
  const testing_support::Result r = testing_support::run_warpsim(
      "core workloads/examples/listing1_load.kp --warps 3 --tm 2 --gpu h100 --model memory --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["cycles"].get<double>(), 112.0);
}

// 6. End to end, `warpsim simulate` on PTX under the default (memory-aware) model: a streaming
// kernel over n = 2^24 floats moves at least 12 bytes per element through DRAM (vector_add: read
// a and b, write c; saxpy: read x and y, write y), and cannot take less than those bytes over the
// profile's bandwidth B (GB/s = 10^3 bytes per microsecond). The launch time t_p comes on top.
TEST(MemoryRoofline, StreamingKernelsAreNoFasterThanDramBandwidth) {
  constexpr std::int64_t n = std::int64_t{1} << 24;
  constexpr double bytes = 12.0 * n;
  const std::string grid = " --grid " + std::to_string(n / 256) + " --block 256";
  const std::pair<const char*, std::string> kernels[] = {
      {"saxpy", "workloads/saxpy/saxpy.ptx --param 0=" + std::to_string(n)},
      {"vector_add", "workloads/vector_ops/vector_ops.ptx --kernel vector_add --param 3=" + std::to_string(n)},
  };
  for (const char* id : {"h100", "rtx3090"}) {
    const double bandwidth_gbs = gpus::load_profile(id).figures.at("memory_bandwidth_gbs");
    const double floor_us = bytes / (bandwidth_gbs * 1e3);
    for (const auto& [name, args] : kernels) {
      const testing_support::Result r = testing_support::run_warpsim("simulate " + args + grid + " --gpu " + id + " --model memory");
      ASSERT_EQ(r.status, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out);
      ASSERT_EQ(j["model"], "memory");
      const double kernel_us = j["cycles"].get<double>() / j["clock_mhz"].get<double>();
      EXPECT_GE(kernel_us, floor_us) << name << " on " << id << ": " << kernel_us << " us predicted, "
                                     << bytes << " bytes need " << floor_us << " us at " << bandwidth_gbs << " GB/s";
      EXPECT_DOUBLE_EQ(j["time_us"].get<double>(), j["tp_us"].get<double>() + kernel_us) << name << " on " << id;
    }
  }
}

}  // namespace
}  // namespace warpsim::sim

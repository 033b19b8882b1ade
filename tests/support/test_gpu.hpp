// A small GPU profile built in code, for tests that work Algorithm 1 and 3 by hand.
#pragma once

#include "warpsim/gpus/profile.hpp"

namespace warpsim::testing_support {

inline gpus::Profile small_gpu(std::int64_t sms = 2, std::int64_t cores = 64, std::int64_t max_blocks = 4,
                               std::int64_t max_warps = 16, double clock_mhz = 1000) {
  gpus::Profile gpu;
  gpu.id = "small";
  gpu.source = "small.toml";
  gpu.name = "Test GPU";
  gpu.clock_mhz = clock_mhz;
  gpu.sm_count = sms;
  gpu.cores_per_sm = cores;
  gpu.max_blocks_per_sm = max_blocks;
  gpu.max_warps_per_sm = max_warps;
  gpu.max_threads_per_block = 1024;
  gpu.warp_size = 32;
  return gpu;
}

}  // namespace warpsim::testing_support

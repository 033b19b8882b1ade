// warpsim::search_block_size through the facade: every candidate timed exactly as simulate()
// times its launch, the fastest marked (ties to the smaller block), launches that cannot run
// listed with their reason, progress, cancel and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

BlockSearchRequest matrix_search(std::int64_t threads) {
  BlockSearchRequest request;
  request.total_threads = threads;
  request.simulation.program = "workloads/dwt/matrix.kp";
  request.simulation.gpu = "rtx2080";
  request.simulation.params = {{"K", "8"}};
  return request;
}

SimulateResult simulate_launch(SimulateRequest request, std::int64_t blocks, std::int64_t threads) {
  request.grid = Dim3{blocks, 1, 1};
  request.block = Dim3{threads, 1, 1};
  return simulate(request);
}

TEST(LaunchSearch, EveryWarpMultipleTimedAsSimulateTimesIt) {
  const BlockSearchRequest request = matrix_search(4096);
  const BlockSizeSearch search = search_block_size(request);
  EXPECT_EQ(search.gpu, "rtx2080");
  EXPECT_EQ(search.kernel, "dwt_matrix");
  EXPECT_EQ(search.total_threads, 4096);
  ASSERT_EQ(search.candidates.size(), 32u);  // 32, 64, ..., 1024 on rtx2080
  std::int64_t best_count = 0;
  for (std::size_t i = 0; i < search.candidates.size(); ++i) {
    const BlockCandidate& c = search.candidates[i];
    EXPECT_EQ(c.threads, 32 * static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(c.blocks, (4096 + c.threads - 1) / c.threads);
    ASSERT_TRUE(c.time_us) << c.threads << ": " << c.reason;
    const SimulateResult simulated = simulate_launch(request.simulation, c.blocks, c.threads);
    EXPECT_EQ(*c.time_us, simulated.time_us) << c.threads;  // exactly: the same simulation
    EXPECT_EQ(c.cycles, simulated.cycles) << c.threads;
    EXPECT_EQ(c.active_blocks_per_sm, simulated.plan.active_blocks_per_sm);
    EXPECT_EQ(c.active_warps_per_sm, simulated.plan.active_blocks_per_sm * simulated.plan.warps_per_block);
    EXPECT_GE(*c.time_us, *search.candidates[search.best].time_us);
    best_count += c.best ? 1 : 0;
  }
  EXPECT_EQ(best_count, 1);
  // 32 and 64 threads time the same (one core package of 2 warps either way): the smaller wins.
  EXPECT_EQ(*search.candidates[0].time_us, *search.candidates[1].time_us);
  EXPECT_EQ(search.best, 0u);
  EXPECT_TRUE(search.candidates[0].best);
  // Algorithm 3's choice (61 threads x 68 blocks, not a warp multiple) is simulated beside them.
  EXPECT_EQ(search.algorithm3_plan.threads, 61);
  EXPECT_EQ(search.algorithm3_plan.blocks, 68);
  EXPECT_EQ(search.algorithm3.threads, 61);
  ASSERT_TRUE(search.algorithm3.time_us);
  EXPECT_EQ(*search.algorithm3.time_us, simulate_launch(request.simulation, 68, 61).time_us);
  EXPECT_FALSE(search.registers_per_thread);  // a .kp program has none
}

TEST(LaunchSearch, RegistersRuleOutLargeBlocks) {
  // 255 registers a thread: 8192 a warp, 65536 on an SM of rtx2080, so at most 8 warps a block.
  BlockSearchRequest request;
  request.total_threads = 4096;
  request.simulation.program = "workloads/mtx_mul_vec/mtx_mul_vec.ptx";
  request.simulation.gpu = "rtx2080";
  request.simulation.params = {{"0", "4096"}};
  request.simulation.registers = 255;
  const BlockSizeSearch search = search_block_size(request);
  ASSERT_EQ(search.candidates.size(), 32u);
  EXPECT_EQ(search.registers_per_thread, 255);
  EXPECT_EQ(search.registers_source, "--regs");
  for (const BlockCandidate& c : search.candidates) {
    if (c.threads <= 256) {
      ASSERT_TRUE(c.time_us) << c.threads << ": " << c.reason;
      EXPECT_EQ(*c.time_us, simulate_launch(request.simulation, c.blocks, c.threads).time_us) << c.threads;
      EXPECT_TRUE(c.reason.empty());
    } else {
      EXPECT_FALSE(c.time_us) << c.threads;
      EXPECT_FALSE(c.best);
      EXPECT_NE(c.reason.find("255 registers each"), std::string::npos) << c.reason;
    }
  }
  EXPECT_LE(search.candidates[search.best].threads, 256);
  const nlohmann::ordered_json json = to_json(search);
  EXPECT_TRUE(json["candidates"][31]["time_us"].is_null());
  EXPECT_TRUE(json["candidates"][31].contains("reason"));
  EXPECT_FALSE(json["candidates"][0].contains("reason"));
  EXPECT_EQ(json["best"]["threads"], search.candidates[search.best].threads);
  EXPECT_EQ(json["registers_per_thread"], 255);
}

TEST(LaunchSearch, GridLimitRulesOutSmallBlocks) {
  // 10^11 threads: 32 a block would take 3125000000 blocks, above 2^31-1.
  const BlockSizeSearch search = search_block_size(matrix_search(100'000'000'000));
  EXPECT_FALSE(search.candidates[0].time_us);
  EXPECT_EQ(search.candidates[0].reason.rfind("launch of 3125000000 blocks exceeds the CUDA grid limit", 0), 0u)
      << search.candidates[0].reason;
  EXPECT_TRUE(search.candidates[1].time_us);
  EXPECT_GT(search.best, 0u);
}

TEST(LaunchSearch, ProgressAndCancel) {
  BlockSearchRequest request = matrix_search(4096);
  std::vector<std::int64_t> done;
  request.control.progress = [&](std::int64_t d, std::int64_t total) {
    EXPECT_EQ(total, 33);  // 32 sizes and Algorithm 3's launch
    done.push_back(d);
  };
  search_block_size(request);
  ASSERT_EQ(done.size(), 33u);
  EXPECT_EQ(done.front(), 1);
  EXPECT_EQ(done.back(), 33);
  const std::atomic<bool> cancel{true};
  request.control.cancel = &cancel;
  EXPECT_THROW(search_block_size(request), Cancelled);  // the facade's own type, not ptx::Interrupted
}

TEST(LaunchSearch, ErrorsAreThrownNotListed) {
  BlockSearchRequest request = matrix_search(0);
  EXPECT_THROW(search_block_size(request), Error);  // Algorithm 3 needs a thread
  request = matrix_search(4096);
  request.simulation.gpu = "rtx9999";
  EXPECT_THROW(search_block_size(request), Error);
  request = matrix_search(4096);
  request.simulation.params.clear();  // K has no value: every size would fail alike
  try {
    search_block_size(request);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.location().file, "workloads/dwt/matrix.kp");
    EXPECT_EQ(e.location().line, 5);
  }
  // No size can run at all: an error, with the smallest size's reason.
  BlockSearchRequest ptx;
  ptx.total_threads = 4096;
  ptx.simulation.program = "workloads/mtx_mul_vec/mtx_mul_vec.ptx";
  ptx.simulation.gpu = "rtx2080";
  ptx.simulation.params = {{"0", "4096"}};
  ptx.simulation.registers = 300;
  try {
    search_block_size(ptx);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("300 registers per thread"), std::string::npos) << e.what();
  }
}

TEST(LaunchSearch, CsvHasARowPerCandidateAtFullPrecision) {
  const BlockSizeSearch search = search_block_size(matrix_search(4096));
  const std::string csv = to_csv(search);
  EXPECT_EQ(csv.rfind("gpu,kernel,total_threads,threads,blocks,time_us,cycles,active_blocks_per_sm,active_warps_per_sm,best,reason\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 33);
  EXPECT_NE(csv.find("\nrtx2080,dwt_matrix,4096,32,128,6.208284789644013,1557.8,2,2,true,\n"), std::string::npos) << csv;
  const std::string text = to_text(search);
  EXPECT_NE(text.find("\n*          32     128    6.208"), std::string::npos) << text;
  EXPECT_NE(text.find("best: 32 threads x 128 blocks, 6.208 us\nAlgorithm 3 (rule 3): 61 threads x 68 blocks"), std::string::npos)
      << text;
}

}  // namespace

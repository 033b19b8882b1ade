#include <gtest/gtest.h>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/grid/launch.hpp"
#include "support/test_gpu.hpp"

namespace warpsim::sim::grid {
namespace {

using testing_support::small_gpu;

// Algorithm 3 with N_sm = 10 (even): N_min = 32, N_max = 1024.
TEST(LaunchHeuristic, RuleOneFewerThreadsThanAWarp) {
  EXPECT_EQ(suggest_launch(small_gpu(10), 1), (Launch{1, 1}));
  EXPECT_EQ(suggest_launch(small_gpu(10), 31), (Launch{1, 31}));
  EXPECT_EQ(heuristic_rule(small_gpu(10), 31), 1);
}

// Rule 2: N / N_sm' < 32, i.e. N < 320: ceil(N / 32) blocks of 32.
TEST(LaunchHeuristic, RuleTwoBlocksOfOneWarp) {
  EXPECT_EQ(suggest_launch(small_gpu(10), 32), (Launch{1, 32}));
  EXPECT_EQ(suggest_launch(small_gpu(10), 64), (Launch{2, 32}));
  EXPECT_EQ(suggest_launch(small_gpu(10), 319), (Launch{10, 32}));  // rounded up
  EXPECT_EQ(heuristic_rule(small_gpu(10), 319), 2);
}

// Rule 3: 32 <= N / N_sm' <= 1024: N_sm' blocks of N / N_sm' threads.
TEST(LaunchHeuristic, RuleThreeOneBlockPerSm) {
  EXPECT_EQ(suggest_launch(small_gpu(10), 320), (Launch{10, 32}));
  EXPECT_EQ(suggest_launch(small_gpu(10), 10240), (Launch{10, 1024}));
  EXPECT_EQ(heuristic_rule(small_gpu(10), 10240), 3);
}

// Rule 4: N / N_sm' > 1024: ceil(N / 1024) blocks of 1024.
TEST(LaunchHeuristic, RuleFourFullBlocks) {
  EXPECT_EQ(suggest_launch(small_gpu(10), 10241), (Launch{11, 1024}));
  EXPECT_EQ(suggest_launch(small_gpu(10), 1 << 20), (Launch{1024, 1024}));
  EXPECT_EQ(heuristic_rule(small_gpu(10), 10241), 4);
}

// Non-divisible SM counts (MODEL.md section 4): N_sm = 5 becomes 6, and 2^k / 6, 2^k / 30,
// 2^k / 68 are not whole, so the threads per block round up.
TEST(LaunchHeuristic, OddAndNonDividingSmCountsRoundUp) {
  // GTX 860M, N_sm = 5 -> 6: 2^10 / 6 = 170.67 -> 6 blocks of 171.
  EXPECT_EQ(suggest_launch(small_gpu(5), 1024), (Launch{6, 171}));
  // 2^7 = 128 < 32 * 6 = 192: rule 2, 4 blocks of 32.
  EXPECT_EQ(suggest_launch(small_gpu(5), 128), (Launch{4, 32}));
  // RTX 2060, N_sm = 30: 2^12 / 30 = 136.53 -> 30 blocks of 137.
  EXPECT_EQ(suggest_launch(small_gpu(30), 4096), (Launch{30, 137}));
  // RTX 2080, N_sm = 68: 2^12 / 68 = 60.24 -> 68 blocks of 61; 2^16 / 68 = 963.76 -> 964.
  EXPECT_EQ(suggest_launch(small_gpu(68), 4096), (Launch{68, 61}));
  EXPECT_EQ(suggest_launch(small_gpu(68), 65536), (Launch{68, 964}));
  // 2^17 / 68 = 1927.5 > 1024: rule 4, 128 blocks of 1024.
  EXPECT_EQ(suggest_launch(small_gpu(68), 131072), (Launch{128, 1024}));
}

TEST(LaunchHeuristic, RejectsNoThreadsAndGridsAboveTheLimit) {
  EXPECT_THROW(suggest_launch(small_gpu(10), 0), InputError);
  EXPECT_THROW(suggest_launch(small_gpu(10), -3), InputError);
  EXPECT_NO_THROW(suggest_launch(small_gpu(10), kMaxBlocks * 1024));
  EXPECT_THROW(suggest_launch(small_gpu(10), kMaxBlocks * 1024 + 1), InputError);
}

}  // namespace
}  // namespace warpsim::sim::grid

#include <fstream>
#include <sstream>

namespace warpsim::sim::grid {
namespace {

// The H100 measurements (workloads/measurements/) launched each point with Algorithm 3 written
// independently in CUDA host code, using the SM count the device reported. Both must agree.
TEST(LaunchHeuristic, AgreesWithTheLaunchesOfTheH100Measurements) {
  const gpus::Profile h100 = gpus::load_profile("h100");
  std::ifstream csv(std::string(WARPSIM_SOURCE_DIR) + "/workloads/measurements/h100-dwt.csv");
  ASSERT_TRUE(csv) << "measurement file missing";
  std::string line;
  std::getline(csv, line);  // header: gpu,workload,K,N,blocks,threads,launches,...
  int rows = 0;
  while (std::getline(csv, line)) {
    std::stringstream fields(line);
    std::string gpu, workload, K, N, blocks, threads, launches;
    std::getline(fields, gpu, ',');
    std::getline(fields, workload, ',');
    std::getline(fields, K, ',');
    std::getline(fields, N, ',');
    std::getline(fields, blocks, ',');
    std::getline(fields, threads, ',');
    std::getline(fields, launches, ',');
    const std::int64_t total = std::stoll(N) / (workload == "dwt_lattice" ? 2 : 1);
    EXPECT_EQ(suggest_launch(h100, total), (Launch{std::stoll(blocks), std::stoll(threads)})) << line;
    EXPECT_EQ(std::stoll(launches), workload == "dwt_lattice" ? std::stoll(K) / 2 + 1 : 1) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 120);
}

}  // namespace
}  // namespace warpsim::sim::grid

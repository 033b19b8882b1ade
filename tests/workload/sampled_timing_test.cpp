// unseen_block_ratio (docs/ptx.md, "Sampling"): how far above the costliest sampled block a sampled
// launch of one wave puts the upper end of its interval, from a normal fit of the sampled blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "warpsim/workload/sampled_timing.hpp"

namespace {

using warpsim::sim::workload::unseen_block_ratio;

TEST(UnseenBlockRatio, TheNormalFitsLevelForTheCostliestUnseenBlock) {
  // mean 3, sd sqrt(2.5); one unseen block: z = Phi^-1(0.975) = 1.959964.
  EXPECT_NEAR(unseen_block_ratio({1, 2, 3, 4, 5}, 1), (3 + 1.959964 * std::sqrt(2.5)) / 5, 1e-6);
  // 99 unseen: Phi(z)^99 = 0.975, z = Phi^-1(0.975^(1/99)) = 3.474710 (Python statistics.NormalDist).
  const double z = (unseen_block_ratio({1, 2, 3, 4, 5}, 99) * 5 - 3) / std::sqrt(2.5);
  EXPECT_NEAR(z, 3.474710, 1e-5);
}

TEST(UnseenBlockRatio, MoreUnseenBlocksReachFurther) {
  const std::vector<double> sampled{10, 12, 9, 14, 11, 10, 13};
  EXPECT_LT(unseen_block_ratio(sampled, 10), unseen_block_ratio(sampled, 100));
  EXPECT_LT(unseen_block_ratio(sampled, 100), unseen_block_ratio(sampled, 1000));
}

TEST(UnseenBlockRatio, OneWhenNothingIsLeftToAllowFor) {
  EXPECT_EQ(unseen_block_ratio({1, 2, 3}, 0), 1);           // every block was sampled
  EXPECT_EQ(unseen_block_ratio({7}, 100), 1);               // no spread to fit
  EXPECT_EQ(unseen_block_ratio({4, 4, 4, 4}, 100), 1);      // every sampled block alike
  std::vector<double> outlier(99, 0.0);
  outlier.push_back(100);  // mean 1, sd 10: one unseen block reaches 20.6, below the sampled 100
  EXPECT_EQ(unseen_block_ratio(outlier, 1), 1);
}

}  // namespace

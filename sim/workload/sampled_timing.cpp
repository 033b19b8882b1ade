#include "warpsim/workload/sampled_timing.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <map>
#include <random>

#include <tbb/parallel_for.h>

#include "warpsim/isa/sample_statistics.hpp"
#include "warpsim/isa/splitmix.hpp"

namespace warpsim::sim::workload {

namespace {
// How many arrangements of a sampled launch's blocks are timed (enough for a t-interval), and
// how many run patterns each draws.
constexpr std::uint64_t kSampledArrangements = 8;
constexpr std::size_t kRunPatterns = 16;

// Each sampled block's time alone on an SM: its warps dealt round-robin to the core packages, as
// a run deals them, and the slowest package. Blocks with the same programs are timed once.
std::vector<double> blocks_alone(const grid::GridPlan& plan, const ptx::Sampling& sampling, const grid::MixedCoreTime& core_time) {
  std::map<std::vector<std::uint32_t>, std::size_t> first_alike;
  std::vector<std::size_t> timed;  // index of the first sampled block with these programs
  for (std::size_t i = 0; i < sampling.programs.size(); ++i) {
    if (first_alike.try_emplace(sampling.programs[i], i).second) timed.push_back(i);
  }
  std::vector<double> alone(sampling.programs.size());
  const auto packages = static_cast<std::size_t>(std::max<std::int64_t>(1, plan.core_packages_per_sm));
  tbb::parallel_for(std::size_t{0}, timed.size(), [&](std::size_t k) {
    const std::vector<std::uint32_t>& warps = sampling.programs[timed[k]];
    isa::Millicycles slowest = 0;
    for (std::size_t p = 0; p < packages; ++p) {
      std::vector<std::uint32_t> ids;
      for (std::size_t w = p; w < warps.size(); w += packages) ids.push_back(warps[w]);
      if (!ids.empty()) slowest = std::max(slowest, core_time(ids, static_cast<std::int64_t>(p)));
    }
    alone[timed[k]] = static_cast<double>(slowest);
  });
  for (std::size_t i = 0; i < alone.size(); ++i) alone[i] = alone[first_alike.at(sampling.programs[i])];
  return alone;
}

}  // namespace

double unseen_block_ratio(const std::vector<double>& sampled, std::int64_t unseen) {
  if (sampled.size() < 2 || unseen < 1) return 1;
  const isa::SampleMoments fit = isa::sample_moments(sampled);
  const double costliest = *std::max_element(sampled.begin(), sampled.end());
  if (fit.deviation == 0 || costliest <= 0) return 1;
  // P(the costliest of `unseen` normal draws <= mean + z sd) = Phi(z)^unseen = 97.5%.
  const double level = std::pow(0.975, 1.0 / static_cast<double>(unseen));
  const double z = boost::math::quantile(boost::math::normal(), level);
  return std::max(1.0, (fit.mean + z * fit.deviation) / costliest);
}

grid::GridTiming time_sampled_launch(const gpus::Profile& gpu, const grid::Launch& planned, double tp_us,
                                     const ptx::Sampling& sampling, const grid::MixedCoreTime& core_time) {
  // A sampled launch (docs/ptx.md, "Sampling"): every block runs a sampled block's programs, drawn
  // at random. Such a launch is one draw of how the blocks not emulated may be arranged; the real
  // launch is another. So that its cost does not grow with the launch, each arrangement draws a
  // pool of kRunPatterns run patterns (which sampled block stands at each place of a run of
  // active blocks) and gives every run of every SM one of them at random: the core packages are
  // then at most the pool's. The launch is timed for kSampledArrangements arrangements: the
  // estimate is their mean, and the 95% prediction interval for one more draw (Student's t) is
  // where the real launch's time should fall.
  const grid::GridPlan plan = grid::plan_grid(gpu, planned);
  const std::int64_t sms = std::max<std::int64_t>(1, gpu.sm_count);
  const std::int64_t per_run = std::max<std::int64_t>(1, plan.active_blocks_per_sm);
  // The arrangements are independent, each with its own seeded draws: they are timed in
  // parallel, and the result does not depend on the order.
  std::vector<grid::GridTiming> each(kSampledArrangements);
  tbb::parallel_for(std::uint64_t{0}, kSampledArrangements, [&](std::uint64_t draw) {
    std::mt19937_64 random(sampling.seed * 0x9e3779b97f4a7c15ULL + draw);
    std::uniform_int_distribution<std::size_t> any(0, sampling.programs.size() - 1);
    // A bootstrap resample of the sampled blocks: the arrangements then also vary as another
    // sample of the launch's blocks would, not only in where the same blocks stand.
    std::vector<std::size_t> resample(sampling.programs.size());
    for (std::size_t& block : resample) block = any(random);
    std::vector<std::vector<std::size_t>> patterns(kRunPatterns, std::vector<std::size_t>(static_cast<std::size_t>(per_run)));
    for (auto& pattern : patterns) {
      for (std::size_t& block : pattern) block = resample[any(random)];
    }
    const std::uint64_t salt = random();
    const auto pattern_of_run = [&](std::int64_t sm, std::int64_t run) {
      return static_cast<std::size_t>(isa::splitmix64((static_cast<std::uint64_t>(sm) << 32 ^ static_cast<std::uint64_t>(run)) ^ salt) %
                                      kRunPatterns);
    };
    each[draw] = grid::time_grid_mixed(
        gpu, planned, tp_us, std::nullopt,
        [&](std::int64_t block, std::int64_t warp) {
          const std::int64_t on_sm = block / sms;  // the SM's blocks in order, runs of per_run
          const std::size_t stand_in =
              patterns[pattern_of_run(block % sms, on_sm / per_run)][static_cast<std::size_t>(on_sm % per_run)];
          return sampling.programs[stand_in][static_cast<std::size_t>(warp)];
        },
        core_time);
  });
  std::vector<double> cycles;
  for (const grid::GridTiming& t : each) cycles.push_back(t.cycles);
  const double mean = isa::sample_moments(cycles).mean;
  const double half = isa::prediction_half_width(cycles);
  // The draw nearest the mean gives the plan and run times shown; the total is the mean.
  const auto nearest = std::min_element(each.begin(), each.end(), [&](const grid::GridTiming& a, const grid::GridTiming& b) {
    return std::abs(a.cycles - mean) < std::abs(b.cycles - mean);
  });
  grid::GridTiming timing = *nearest;
  timing.cycles = mean;
  timing.time_us = tp_us + mean / gpu.clock_mhz;
  timing.low_us = tp_us + std::max(0.0, mean - half) / gpu.clock_mhz;
  // A launch of one wave (every block resident at once) lasts as long as its slowest SM, set by the
  // costliest blocks there. A sample holds the launch's costliest block only with probability
  // n / N, and every arrangement is drawn from the sample, so no arrangement can put the interval
  // above a block the sample missed. The upper end is raised by how much costlier than the
  // costliest sampled block the costliest unseen one may be (unseen_block_ratio).
  double tail = 1;
  if (plan.full_runs + plan.remaining_runs <= 1) {
    tail = unseen_block_ratio(blocks_alone(plan, sampling, core_time),
                              sampling.launch_blocks - static_cast<std::int64_t>(sampling.programs.size()));
  }
  timing.high_us = tp_us + (mean + half) * tail / gpu.clock_mhz;
  timing.unseen_block_ratio = tail;
  return timing;
}

}  // namespace warpsim::sim::workload

// Algorithm 1 for a launch whose warps run different programs (docs/model.md, "Warps with
// different programs"): each SM's runs dealt, their distinct core packages simulated (all, or a
// sample of the runs when that would pass the budget: RunSampling), each SM's runs summed.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

#include <tbb/parallel_for.h>

#include "grid_cycles.hpp"
#include "warpsim/core/memory_timing.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/isa/sample_statistics.hpp"

namespace warpsim::sim::grid {
namespace {

// Runs drawn of each stratum at least, whatever the budget (the interval needs a spread to go
// by), and at most.
constexpr std::int64_t kMinDraws = 24;
constexpr std::int64_t kMaxDraws = 4096;
constexpr std::int64_t kOpsCeiling = std::int64_t{1} << 61;  // two of them still add within 64 bits

// A launch dealt into runs: its distinct core packages, its distinct runs (which packages, full
// or not), and each SM's runs in order with consecutive repeats counted.
struct DealtLaunch {
  std::vector<std::vector<std::uint32_t>> package_programs;
  std::vector<std::int64_t> package_index;  // which package of its SM
  std::vector<std::vector<std::uint32_t>> run_packages;
  std::vector<bool> run_full;
  std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> sm_runs;
};

DealtLaunch deal(const gpus::Profile& gpu, const Launch& launch, const GridPlan& plan, const ProgramOfWarp& program_of) {
  // Packages with the same programs time the same when their warps fall into blocks alike (the
  // partition, not the blocks' numbers, matters to barriers): the key is both.
  const auto block_partition = [&](std::int64_t package, std::size_t warps) {
    const core::BarrierLayout layout{plan.core_packages_per_sm, plan.warps_per_block, package};
    std::vector<bool> same_block_as_previous(warps);
    for (std::size_t k = 1; k < warps; ++k) {
      same_block_as_previous[k] = layout.block_of(static_cast<std::int64_t>(k)) == layout.block_of(static_cast<std::int64_t>(k) - 1);
    }
    return same_block_as_previous;
  };
  DealtLaunch dealt;
  std::map<std::pair<std::vector<bool>, std::vector<std::uint32_t>>, std::uint32_t> package_ids;
  std::map<std::int64_t, std::map<std::size_t, std::vector<bool>>> partitions;  // by package and warp count
  std::map<std::vector<std::uint32_t>, std::uint32_t> run_ids;                 // packages, then 1 if full
  const std::int64_t sms = std::min(gpu.sm_count, launch.blocks);
  std::vector<std::vector<std::uint32_t>> packages(static_cast<std::size_t>(plan.core_packages_per_sm));
  std::vector<std::vector<std::uint32_t>> previous;  // most runs repeat the one before
  std::uint32_t previous_run = 0;
  dealt.sm_runs.resize(static_cast<std::size_t>(sms));
  for (std::int64_t sm = 0; sm < sms; ++sm) {
    const std::int64_t blocks_here = (launch.blocks - sm + gpu.sm_count - 1) / gpu.sm_count;
    for (std::int64_t first = 0; first < blocks_here; first += plan.active_blocks_per_sm) {
      for (auto& p : packages) p.clear();
      const std::int64_t last = std::min(blocks_here, first + plan.active_blocks_per_sm);
      std::size_t dealt_warps = 0;
      for (std::int64_t j = first; j < last; ++j) {
        const std::int64_t block = j * gpu.sm_count + sm;
        for (std::int64_t w = 0; w < plan.warps_per_block; ++w) {
          packages[dealt_warps++ % packages.size()].push_back(program_of(block, w));
        }
      }
      const bool full = last - first == plan.active_blocks_per_sm;
      if (previous.empty() || packages != previous || dealt.run_full[previous_run] != full) {
        std::vector<std::uint32_t> run;
        for (std::size_t p = 0; p < packages.size(); ++p) {
          if (packages[p].empty()) continue;
          const auto index = static_cast<std::int64_t>(p);
          auto [known, added] = partitions[index].try_emplace(packages[p].size());
          if (added) known->second = block_partition(index, packages[p].size());
          const auto [it, is_new] =
              package_ids.try_emplace({known->second, packages[p]}, static_cast<std::uint32_t>(dealt.package_programs.size()));
          if (is_new) {
            dealt.package_programs.push_back(packages[p]);
            dealt.package_index.push_back(index);
          }
          run.push_back(it->second);
        }
        run.push_back(full ? 1 : 0);
        const auto [r, run_is_new] = run_ids.try_emplace(run, static_cast<std::uint32_t>(dealt.run_packages.size()));
        if (run_is_new) {
          run.pop_back();
          dealt.run_packages.push_back(std::move(run));
          dealt.run_full.push_back(full);
        }
        previous = packages;
        previous_run = r->second;
      }
      auto& runs = dealt.sm_runs[static_cast<std::size_t>(sm)];
      if (!runs.empty() && runs.back().first == previous_run) {
        ++runs.back().second;
      } else {
        runs.emplace_back(previous_run, 1);
      }
    }
  }
  return dealt;
}

// Simulates the packages marked in `wanted` and not yet in `times` (-1), in parallel: each is
// independent.
void simulate_packages(const DealtLaunch& dealt, const std::vector<char>& wanted, const MixedCoreTime& core_time,
                       std::vector<isa::Millicycles>& times) {
  times.resize(dealt.package_programs.size(), -1);
  std::vector<std::size_t> todo;
  for (std::size_t p = 0; p < wanted.size(); ++p) {
    if (wanted[p] && times[p] < 0) todo.push_back(p);
  }
  tbb::parallel_for(std::size_t{0}, todo.size(), [&](std::size_t k) {
    const std::size_t p = todo[k];
    times[p] = core_time(dealt.package_programs[p], dealt.package_index[p]);
  });
}

isa::Millicycles run_time(const DealtLaunch& dealt, const std::vector<isa::Millicycles>& package_times, std::size_t run) {
  isa::Millicycles longest = 0;
  for (const std::uint32_t p : dealt.run_packages[run]) longest = std::max(longest, package_times[p]);
  return longest;
}

// The slowest SM's total when each run costs `cost(run)`.
template <typename Cost>
Wide slowest_sm(const DealtLaunch& dealt, Cost&& cost) {
  Wide slowest = 0;
  for (const auto& runs : dealt.sm_runs) {
    Wide total = 0;
    for (const auto& [run, count] : runs) total += static_cast<Wide>(count) * cost(run);
    slowest = std::max(slowest, total);
  }
  return slowest;
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) { return std::min(kOpsCeiling, a + std::min(b, kOpsCeiling)); }

// The runs drawn for a sampled timing, per stratum (full runs, then remaining runs): distinct
// run ids.
struct Draws {
  std::array<std::vector<std::uint32_t>, 2> of;
};

// A sampled launch's time in cycles: the estimate and its 95% interval.
struct Estimate {
  double cycles = 0, low = 0, high = 0;
};

// What a stratum's runs not drawn are taken to cost, from n drawn distinct runs of the N there
// are: their mean m and variance v, the share of v the mean's own error adds per run squared
// ((1 - n / N) / n, without replacement), and Student's t for n - 1 degrees of freedom at
// 1 - 2.5% / SMs: each end must hold for whichever SM is the slowest, and the slowest is the one
// whose runs not drawn happened to cost most (a union bound over the SMs).
struct Imputation {
  double mean = 0, variance = 0, mean_share = 0, t = 0;
};

Imputation impute_from(const std::vector<double>& times, std::size_t distinct, std::int64_t sms) {
  Imputation i;
  if (times.empty()) return i;
  const isa::SampleMoments m = isa::sample_moments(times);
  const auto n = static_cast<double>(times.size());
  i.mean = m.mean;
  i.variance = m.deviation * m.deviation;
  i.mean_share = std::max(0.0, 1 - n / static_cast<double>(distinct)) / n;
  if (times.size() >= 2) i.t = isa::student_t_quantile(1 - 0.025 / static_cast<double>(sms), n - 1);
  return i;
}

// Drawn runs cost their own time; every other run the mean of the drawn runs of its stratum
// (full or remaining). An SM whose runs not drawn number U, c_k of each distinct run k, is then
// off by sum_k c_k (t_k - mu) - U (m - mu): variance v (sum_k c_k^2 + U^2 mean_share). The launch
// lasts as long as its slowest SM: the estimate is the largest SM estimate, the interval from the
// largest lower to the largest upper end.
Estimate estimate(const DealtLaunch& dealt, const std::vector<isa::Millicycles>& run_times, const Draws& draws,
                  const std::vector<char>& drawn) {
  const auto sms = static_cast<std::int64_t>(dealt.sm_runs.size());
  std::array<Imputation, 2> imputed;
  for (std::size_t s = 0; s < 2; ++s) {
    std::vector<double> times;
    for (const std::uint32_t run : draws.of[s]) times.push_back(static_cast<double>(run_times[run]));
    const auto distinct = static_cast<std::size_t>(std::count(dealt.run_full.begin(), dealt.run_full.end(), s == 0));
    imputed[s] = impute_from(times, distinct, sms);
  }
  Estimate e;
  std::unordered_map<std::uint32_t, double> count_here;  // the SM's distinct runs and how often each runs
  for (const auto& runs : dealt.sm_runs) {
    count_here.clear();
    for (const auto& [run, count] : runs) count_here[run] += static_cast<double>(count);
    std::array<double, 2> unseen{}, squares{};  // U and sum c_k^2 per stratum
    Wide known = 0;
    for (const auto& [run, count] : count_here) {
      if (drawn[run]) {
        known += static_cast<Wide>(std::llround(count)) * run_times[run];
      } else {
        const std::size_t s = dealt.run_full[run] ? 0 : 1;
        unseen[s] += count;
        squares[s] += count * count;
      }
    }
    double total = to_cycles(known), half = 0;
    for (std::size_t s = 0; s < 2; ++s) {
      const Imputation& i = imputed[s];
      const double sd = std::sqrt(i.variance * (squares[s] + unseen[s] * unseen[s] * i.mean_share));
      total += unseen[s] * i.mean / static_cast<double>(isa::kMillicyclesPerCycle);
      half += i.t * sd / static_cast<double>(isa::kMillicyclesPerCycle);
    }
    e.cycles = std::max(e.cycles, total);
    e.low = std::max(e.low, total - half);
    e.high = std::max(e.high, total + half);
  }
  return e;
}

// Whether the drawn full runs say that SMs' runs differ (one-way analysis of variance over the
// SMs with at least two drawn runs, at 1%): then the launch's mean would misprice an SM's runs
// not drawn, and every run is simulated instead.
bool sms_differ(const DealtLaunch& dealt, const std::vector<isa::Millicycles>& run_times, const std::vector<char>& drawn) {
  std::vector<std::vector<double>> groups;
  std::vector<char> seen(dealt.run_packages.size(), 0);
  for (const auto& runs : dealt.sm_runs) {
    std::vector<double> times;
    for (const auto& [run, count] : runs) {
      if (!drawn[run] || !dealt.run_full[run] || seen[run]) continue;
      seen[run] = 1;
      times.push_back(static_cast<double>(run_times[run]));
    }
    for (const auto& [run, count] : runs) seen[run] = 0;
    if (times.size() >= 2) groups.push_back(std::move(times));
  }
  double all = 0, n = 0;
  for (const auto& g : groups) {
    for (const double t : g) all += t;
    n += static_cast<double>(g.size());
  }
  const auto k = static_cast<double>(groups.size());
  if (k < 2 || n - k < 1) return false;
  all /= n;
  double between = 0, within = 0;
  for (const auto& g : groups) {
    const isa::SampleMoments m = isa::sample_moments(g);
    between += static_cast<double>(g.size()) * (m.mean - all) * (m.mean - all);
    within += static_cast<double>(g.size() - 1) * m.deviation * m.deviation;
  }
  if (within == 0) return between > 0;
  return (between / (k - 1)) / (within / (n - k)) > isa::fisher_f_quantile(0.99, k - 1, n - k);
}

// Draws distinct runs at random without repeats (full and remaining runs apart) until the
// packages they need pass the budget, at least kMinDraws of each stratum: every distinct run is
// as likely to be drawn, so the drawn runs' mean is an unbiased estimate of the others'. Marks
// the packages the draws need in `wanted`.
Draws draw_runs(const DealtLaunch& dealt, const std::vector<std::int64_t>& package_ops, const RunSampling& sampling,
                std::vector<char>& wanted) {
  std::mt19937_64 random(sampling.seed);
  Draws draws;
  std::int64_t spent = 0;
  for (std::size_t s = 0; s < 2; ++s) {
    std::vector<std::uint32_t> ids;
    for (std::size_t r = 0; r < dealt.run_packages.size(); ++r) {
      if (dealt.run_full[r] == (s == 0)) ids.push_back(static_cast<std::uint32_t>(r));
    }
    std::shuffle(ids.begin(), ids.end(), random);
    for (std::size_t n = 0; n < ids.size() && static_cast<std::int64_t>(n) < kMaxDraws; ++n) {
      if (static_cast<std::int64_t>(n) >= kMinDraws && (s == 1 || spent >= sampling.budget)) break;
      draws.of[s].push_back(ids[n]);
      for (const std::uint32_t p : dealt.run_packages[ids[n]]) {
        if (!wanted[p]) spent = saturating_add(spent, package_ops[p]);
        wanted[p] = 1;
      }
    }
  }
  return draws;
}

}  // namespace

GridTiming time_grid_mixed(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                           std::optional<std::uint32_t> uniform, const ProgramOfWarp& program_of,
                           const MixedCoreTime& core_time, const RunSampling& sampling) {
  const GridPlan plan = plan_grid(gpu, launch);
  if (uniform) {
    return time_grid(gpu, launch, tp_us, [&](std::int64_t count) {
      const std::vector<std::uint32_t> same(static_cast<std::size_t>(count), *uniform);
      return core_time(same, 0);
    });
  }
  const DealtLaunch dealt = deal(gpu, launch, plan, program_of);
  GridTiming timing;
  timing.plan = plan;
  const std::size_t runs = dealt.run_packages.size();
  const std::size_t packages = dealt.package_programs.size();
  std::int64_t projected = 0;
  std::vector<std::int64_t> package_ops(packages, 0);
  if (sampling.budget > 0) {
    for (std::size_t p = 0; p < packages; ++p) {
      for (const std::uint32_t id : dealt.package_programs[p]) package_ops[p] = saturating_add(package_ops[p], sampling.ops_of(id));
      projected = saturating_add(projected, package_ops[p]);
    }
  }
  std::vector<char> wanted(packages, 0);
  Draws draws;
  if (sampling.budget > 0 && projected > sampling.budget) draws = draw_runs(dealt, package_ops, sampling, wanted);
  const auto simulated = static_cast<std::size_t>(std::count(wanted.begin(), wanted.end(), 1));
  std::vector<isa::Millicycles> package_times;
  std::vector<isa::Millicycles> run_times(runs, 0);
  std::vector<char> drawn(runs, 0);
  // Times the runs marked in `drawn` and keeps the longest full and remaining run.
  const auto time_runs = [&] {
    simulate_packages(dealt, wanted, core_time, package_times);
    for (std::size_t r = 0; r < runs; ++r) {
      if (!drawn[r]) continue;
      run_times[r] = run_time(dealt, package_times, r);
      isa::Millicycles& longest = dealt.run_full[r] ? timing.full_run_cycles : timing.remaining_run_cycles;
      longest = std::max(longest, run_times[r]);
    }
  };
  const auto every_run = [&] {
    std::fill(wanted.begin(), wanted.end(), 1);
    std::fill(drawn.begin(), drawn.end(), 1);
    time_runs();
    timing.cycles = to_cycles(slowest_sm(dealt, [&](std::uint32_t r) { return run_times[r]; }));
    set_time(gpu, tp_us, timing);
    return timing;
  };
  // A sample that needs half the packages or more saves too little for its uncertainty.
  if (simulated == 0 || 2 * simulated >= packages) return every_run();
  for (const auto& stratum : draws.of) {
    for (const std::uint32_t r : stratum) drawn[r] = 1;
  }
  time_runs();
  if (sms_differ(dealt, run_times, drawn)) return every_run();
  const Estimate e = estimate(dealt, run_times, draws, drawn);
  timing.cycles = e.cycles;
  set_time(gpu, tp_us, timing);
  timing.low_us = tp_us + std::max(0.0, e.low) / gpu.clock_mhz;
  timing.high_us = tp_us + e.high / gpu.clock_mhz;
  RunSample sample;
  sample.runs = static_cast<std::int64_t>(runs);
  sample.sampled_runs = std::count(drawn.begin(), drawn.end(), 1);
  sample.packages = static_cast<std::int64_t>(packages);
  sample.simulated_packages = static_cast<std::int64_t>(simulated);
  sample.projected_ops = projected;
  sample.budget = sampling.budget;
  sample.seed = sampling.seed;
  timing.run_sample = sample;
  return timing;
}

}  // namespace warpsim::sim::grid

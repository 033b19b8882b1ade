// The lowering cache (sim/workload/lowering_cache.hpp): its key is what the lowering reads, an
// entry is lowered once and re-timed by each caller, and it keeps no more than its budget.
#include "warpsim/workload/lowering_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"
#include "support/sanitizer_sample.hpp"

namespace warpsim::sim::workload {
namespace {

const std::string kMtxMulVec = std::string(WARPSIM_SOURCE_DIR) + "/workloads/mtx_mul_vec/mtx_mul_vec.ptx";

ptx::LoweringOptions launch_of(std::int64_t n) {
  ptx::LoweringOptions options;
  options.grid = {(n + 63) / 64, 1, 1};
  options.block = {64, 1, 1};
  options.parameters = {{"0", std::to_string(n)}};
  return options;
}

TEST(LoweringCache, KeyIsWhatTheLoweringReads) {
  const PtxSource source{nullptr, "k.ptx\n10\n123"};
  const ptx::LoweringOptions base = launch_of(128);
  const std::string key = lowering_key(source, base);

  ptx::LoweringOptions unread = base;  // cycles are re-timed by callers; the rest does not change the result
  unread.load_cycles = 1000;
  unread.store_cycles = 2000;
  unread.threads = 3;
  unread.progress = [](std::int64_t, std::int64_t) {};
  const std::atomic<bool> flag{false};
  unread.cancel = &flag;
  EXPECT_EQ(lowering_key(source, unread), key);

  const std::vector<std::function<void(ptx::LoweringOptions&)>> read = {
      [](auto& o) { o.kernel = "mtx_mul_vec"; },
      [](auto& o) { o.grid.x = 3; },
      [](auto& o) { o.grid.y = 2; },
      [](auto& o) { o.grid.z = 2; },
      [](auto& o) { o.block.x = 32; },
      [](auto& o) { o.block.y = 2; },
      [](auto& o) { o.block.z = 2; },
      [](auto& o) { o.parameters[0].second = "129"; },
      [](auto& o) { o.parameters[0].first = "_Z11mtx_mul_veciPfS_S__param_0"; },
      [](auto& o) { o.parameters.emplace_back("1", "5"); },
      [](auto& o) { o.emulator.unknown_loop_trips = 2; },
      [](auto& o) { o.emulator.unknown_branch = ptx::UnknownBranchPolicy::taken; },
      [](auto& o) { o.emulator.max_steps_per_warp = 1000; },
      [](auto& o) { o.emulate_all = true; },
      [](auto& o) { o.sample_reuse = false; },
      [](auto& o) { o.merge_shared_loads = false; },
  };
  for (std::size_t i = 0; i < read.size(); ++i) {
    ptx::LoweringOptions changed = base;
    read[i](changed);
    EXPECT_NE(lowering_key(source, changed), key) << "change " << i;
  }
  EXPECT_NE(lowering_key(PtxSource{nullptr, "k.ptx\n10\n124"}, base), key);
  // Fields cannot run into each other.
  ptx::LoweringOptions a = base, b = base;
  a.parameters = {{"N", "1=2"}};
  b.parameters = {{"N=1", "2"}};
  EXPECT_NE(lowering_key(source, a), lowering_key(source, b));
}

TEST(LoweringCache, LowersOnceWithTheDefaultCycles) {
  LoweringCache cache;
  const PtxSource source = load_ptx_source(kMtxMulVec);
  ptx::LoweringOptions options = launch_of(128);
  const auto first = cache.lower(source, options);
  options.load_cycles = options.store_cycles = 5000;
  const auto second = cache.lower(load_ptx_source(kMtxMulVec), options);  // the same text, loaded again
  EXPECT_EQ(first, second);
  const LoweringCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.lowerings, 1);
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.kept, 1);
  EXPECT_EQ(stats.bytes, lowered_bytes(first->kernel));
  for (const isa::Op& op : first->kernel.programs.at(0).program.ops()) {
    if (isa::is_memory(op.kind)) {
      EXPECT_EQ(op.duration, ptx::kDefaultMemoryCycles);
    }
  }
}

TEST(LoweringCache, KeepsWhatFitsItsBudget) {
  const PtxSource source = load_ptx_source(kMtxMulVec);
  LoweringCache none(0);
  none.lower(source, launch_of(64));
  none.lower(source, launch_of(64));
  EXPECT_EQ(none.stats().lowerings, 2);
  EXPECT_EQ(none.stats().kept, 0);

  const std::int64_t one = lowered_bytes(LoweringCache().lower(source, launch_of(64))->kernel);
  LoweringCache small(one);
  small.lower(source, launch_of(64));
  small.lower(source, launch_of(128));  // does not fit: lowered, not kept
  small.lower(source, launch_of(64));   // the first stays
  EXPECT_EQ(small.stats().lowerings, 2);
  EXPECT_EQ(small.stats().hits, 1);
  EXPECT_EQ(small.stats().kept, 1);
  EXPECT_LE(small.stats().bytes, one);
}

TEST(LoweringCache, ThreadsAskingAtOnceGetOneEntry) {
  LoweringCache cache;
  const PtxSource source = load_ptx_source(kMtxMulVec);
  std::vector<std::shared_ptr<const LoweringCache::Lowered>> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] { results[i] = cache.lower(source, launch_of(256)); });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& result : results) EXPECT_EQ(result, results[0]);
  EXPECT_GE(cache.stats().lowerings, 1);
  EXPECT_EQ(cache.stats().kept, 1);
}

// The cache's programs carry the default cycles; a model's own cycles and d1/d2 replace them.
TEST(LoweringCache, ModelsRetimeTheSharedPrograms) {
  const gpus::Profile gpu = gpus::load_profile("rtx2080");
  const auto lowerings = std::make_shared<LoweringCache>();
  const auto model = [&](isa::Millicycles load) {
    ptx::LoweringOptions options;
    options.load_cycles = load;
    return PtxWorkloadModel("", load_ptx_source(kMtxMulVec), options, LaunchPolicy{"N", "", "64"}, {{"N", "0"}}, lowerings);
  };
  ModelOverrides overrides;
  overrides.tp_us = 5;
  overrides.tm = isa::cycles_from_double(20);
  overrides.model = Model::paper;  // d1 and d2 are the paper's durations of global accesses
  CoreTimeCache core_times;
  const Point point{{"N", 256}};
  const double plain = model(ptx::kDefaultMemoryCycles).predict(gpu, point, overrides, core_times).time_us;
  const double own = model(isa::cycles_from_double(200)).predict(gpu, point, overrides, core_times).time_us;
  ModelOverrides with_d1 = overrides;
  with_d1.memory_durations = {isa::cycles_from_double(200)};
  const double overridden = model(ptx::kDefaultMemoryCycles).predict(gpu, point, with_d1, core_times).time_us;
  EXPECT_GT(own, plain);
  EXPECT_EQ(own, overridden);
  EXPECT_EQ(lowerings->stats().lowerings, 1);
}

// A lowering's grid timings are kept for the points that share it (LoweredTimings): answers
// through one shared cache equal answers from a fresh cache for each, across register counts
// (occupancy), GPUs, t_p and models.
TEST(LoweringCache, SharedTimingsAnswerAsAFreshTiming) {
  const auto shared = std::make_shared<LoweringCache>();
  const auto predict = [&](const std::shared_ptr<LoweringCache>& lowerings, const gpus::Profile& gpu, std::int64_t regs,
                           double tp, Model timing_model) {
    PtxWorkloadModel model("", load_ptx_source(kMtxMulVec), ptx::LoweringOptions{}, LaunchPolicy{"N", "", "256"},
                           {{"N", "0"}}, lowerings, RegisterChoice{.given = regs});
    ModelOverrides overrides;
    overrides.tp_us = tp;
    overrides.model = timing_model;
    if (timing_model == Model::paper) overrides.tm = isa::cycles_from_double(20);  // no default in the paper's model
    CoreTimeCache core_times;
    return model.predict(gpu, Point{{"N", 1 << 16}}, overrides, core_times).per_launch;
  };
  const gpus::Profile a100 = gpus::load_profile("a100");
  EXPECT_NE(predict(std::make_shared<LoweringCache>(), a100, 32, 2, Model::memory).cycles,
            predict(std::make_shared<LoweringCache>(), a100, 96, 2, Model::memory).cycles)
      << "the register counts below must change the occupancy";
  std::int64_t index = 0;  // in the sanitizer build a sample of the cases (support/sanitizer_sample.hpp)
  for (const char* id : {"a100", "h100", "gtx980"}) {
    const gpus::Profile gpu = gpus::load_profile(id);
    for (const std::int64_t regs : {32, 33, 96, 32}) {
      for (const double tp : {2.0, 3.0}) {
        for (const Model m : {Model::memory, Model::paper}) {
          if (!testing_support::sampled(index++)) continue;
          const grid::GridTiming fresh = predict(std::make_shared<LoweringCache>(), gpu, regs, tp, m);
          const grid::GridTiming kept = predict(shared, gpu, regs, tp, m);
          EXPECT_EQ(kept.cycles, fresh.cycles) << id << " regs " << regs << " tp " << tp;
          EXPECT_EQ(kept.time_us, fresh.time_us) << id << " regs " << regs << " tp " << tp;
          EXPECT_EQ(kept.plan.active_blocks_per_sm, fresh.plan.active_blocks_per_sm) << id << " regs " << regs;
        }
      }
    }
  }
  EXPECT_EQ(shared->stats().lowerings, 1);
  shared->clear();  // cold again: the next prediction lowers anew
  EXPECT_EQ(shared->stats().kept, 0);
  EXPECT_EQ(shared->stats().bytes, 0);
  predict(shared, gpus::load_profile("a100"), 32, 2, Model::memory);
  EXPECT_EQ(shared->stats().lowerings, 2);
}

}  // namespace
}  // namespace warpsim::sim::workload

#include "sim/driver/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <vector>

#include "isa/input_error.hpp"

namespace warpsim::sim::driver {
namespace {

// The points in suite order, as (GPU, workload, index within the workload's axes).
class PointIndex {
 public:
  explicit PointIndex(const Suite& suite) {
    for (const gpus::Profile& gpu : suite.gpus) {
      for (const SuiteWorkload& workload : suite.workloads) {
        blocks_.push_back({total_, &gpu, &workload});
        total_ += workload.point_count();
      }
    }
  }
  std::int64_t total() const { return total_; }

  // The point's row (prediction still empty) and the workload it belongs to.
  std::pair<SweepRow, const SuiteWorkload*> row(std::int64_t index) const {
    const auto after = std::upper_bound(blocks_.begin(), blocks_.end(), index,
                                        [](std::int64_t i, const Block& b) { return i < b.start; });
    const Block& block = *(after - 1);
    SweepRow row;
    row.gpu = block.gpu;
    row.workload = block.workload->model.get();
    row.point = block.workload->point(index - block.start);
    return {std::move(row), block.workload};
  }

 private:
  struct Block {  // one GPU x workload: its points are start .. start + point_count - 1
    std::int64_t start;
    const gpus::Profile* gpu;
    const SuiteWorkload* workload;
  };
  std::vector<Block> blocks_;
  std::int64_t total_ = 0;
};

struct Chunk {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::vector<SweepRow> rows;
  std::exception_ptr failure;  // from the first point of the chunk that failed
};
// No exception may leave a filter: oneTBB leaks the items in flight when a pipeline is
// cancelled. A failure is carried to the last stage, which stops the input and drops the
// chunks still in flight; run_sweep rethrows it once the pipeline has drained.
using ChunkPtr = std::shared_ptr<Chunk>;

// Keeps the first warning point of each workload (rows arrive in suite order).
void note_warnings(SweepStats& stats, const SweepRow& row) {
  if (row.prediction.warnings.empty()) return;
  for (const SweepStats::Warnings& seen : stats.warnings) {
    if (seen.workload == row.workload) return;
  }
  stats.warnings.push_back({row.workload, row.point, row.prediction.warnings});
}

}  // namespace

SweepStats run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit, const SweepOptions& options) {
  const PointIndex index(suite);
  workload::CoreTimeCache cache;
  SweepStats stats;
  std::int64_t next = 0;
  std::exception_ptr failure;         // written by the last, serial stage only
  std::atomic<bool> failed = false;  // read by the other stages, to stop early
  tbb::task_arena arena(options.jobs > 0 ? options.jobs : tbb::task_arena::automatic);
  // Chunks amortise the pipeline's overhead over cheap points, but a small sweep of costly
  // points (PTX lowered per point) needs several chunks per thread to balance the load.
  const std::int64_t chunk_size =
      std::clamp<std::int64_t>(index.total() / (8 * arena.max_concurrency()), 1, std::max<std::int64_t>(1, options.chunk));
  arena.execute([&] {
    tbb::parallel_pipeline(
        static_cast<std::size_t>(4 * arena.max_concurrency()),
        tbb::make_filter<void, ChunkPtr>(tbb::filter_mode::serial_in_order,
                                       [&](tbb::flow_control& control) -> ChunkPtr {
                                         const bool interrupted = options.stop && options.stop->load();
                                         if (next >= index.total() || interrupted || failed.load()) {
                                           stats.stopped = interrupted && next < index.total();
                                           control.stop();
                                           return nullptr;
                                         }
                                         auto chunk = std::make_shared<Chunk>(Chunk{next, std::min(index.total(), next + chunk_size), {}, {}});
                                         next = chunk->end;
                                         return chunk;
                                       }) &
            tbb::make_filter<ChunkPtr, ChunkPtr>(tbb::filter_mode::parallel,
                                             [&](ChunkPtr chunk) {
                                               chunk->rows.reserve(static_cast<std::size_t>(chunk->end - chunk->begin));
                                               // The points of one GPU x workload share what prepare() works out.
                                               std::unique_ptr<workload::PreparedModel> prepared;
                                               std::pair<const gpus::Profile*, const SuiteWorkload*> prepared_for{};
                                               for (std::int64_t i = chunk->begin; i < chunk->end; ++i) {
                                                 if (failed.load()) break;
                                                 if (options.stop && options.stop->load()) break;  // Ctrl-C: within a point
                                                 try {
                                                   auto [row, workload] = index.row(i);
                                                   try {
                                                     if (prepared_for != std::pair(row.gpu, workload)) {
                                                       prepared = row.workload->prepare(*row.gpu, workload->overrides, cache);
                                                       prepared_for = {row.gpu, workload};
                                                     }
                                                     row.prediction = prepared->predict(row.point);
                                                   } catch (const InputError& e) {
                                                     throw InputError(SourceLocation{suite.source},
                                                                      row.gpu->id + " " + row.workload->name() + " " +
                                                                          workload::describe_point(row.point) + ": " + e.what());
                                                   }
                                                   chunk->rows.push_back(std::move(row));
                                                 } catch (...) {
                                                   chunk->failure = std::current_exception();
                                                   break;
                                                 }
                                               }
                                               return chunk;
                                             }) &
            tbb::make_filter<ChunkPtr, void>(tbb::filter_mode::serial_in_order, [&](const ChunkPtr& chunk) {
              if (failure) return;  // a chunk before this one failed
              try {
                for (const SweepRow& row : chunk->rows) {
                  note_warnings(stats, row);
                  emit(row);
                  ++stats.points;
                }
                if (chunk->failure) std::rethrow_exception(chunk->failure);
                if (options.progress) options.progress(stats.points, index.total());
              } catch (...) {
                failure = std::current_exception();
                failed = true;
              }
            }));
  });
  if (failure) std::rethrow_exception(failure);
  stats.cache_hits = cache.hits();
  stats.cache_misses = cache.misses();
  return stats;
}

}  // namespace warpsim::sim::driver

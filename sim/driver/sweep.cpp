#include "warpsim/driver/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <map>
#include <tbb/concurrent_queue.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <vector>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::driver {
namespace {

// The points in suite order, as (GPU, workload, index within the workload's axes).
class SuitePoints final : public SweepPoints {
 public:
  explicit SuitePoints(const Suite& suite) : source_(suite.source) {
    for (const gpus::Profile& gpu : suite.gpus) {
      for (const SuiteWorkload& workload : suite.workloads) {
        blocks_.push_back({total_, &gpu, &workload});
        total_ += workload.point_count();
      }
    }
  }
  std::int64_t total() const override { return total_; }
  SourceLocation location(std::int64_t) const override { return {source_}; }

  const SuiteWorkload& fill(std::int64_t index, SweepRow& row) const override {
    const auto after = std::upper_bound(blocks_.begin(), blocks_.end(), index,
                                        [](std::int64_t i, const Block& b) { return i < b.start; });
    const Block& block = *(after - 1);
    row.gpu = block.gpu;
    row.workload = block.workload->model.get();
    block.workload->point(index - block.start, row.point);
    return *block.workload;
  }

 private:
  struct Block {  // one GPU x workload: its points are start .. start + point_count - 1
    std::int64_t start;
    const gpus::Profile* gpu;
    const SuiteWorkload* workload;
  };
  std::string source_;
  std::vector<Block> blocks_;
  std::int64_t total_ = 0;
};

// Chunks are recycled once delivered, so their rows' storage (points, predictions) is reused.
struct Chunk {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::vector<SweepRow> rows;  // the first `used` are this chunk's
  std::size_t used = 0;
  std::exception_ptr failure;  // from the first point of the chunk that failed
};
// No exception may leave a filter: oneTBB leaks the items in flight when a pipeline is
// cancelled. A failure is carried to the last stage, which stops the input and drops the
// chunks still in flight; run_sweep rethrows it once the pipeline has drained.
using ChunkPtr = std::shared_ptr<Chunk>;

// Each thread's models prepared for a GPU x workload, kept for the whole sweep.
using PreparedModels =
    std::map<std::pair<const gpus::Profile*, const SuiteWorkload*>, std::unique_ptr<workload::PreparedModel>>;

workload::PreparedModel& prepared(PreparedModels& models, const gpus::Profile& gpu, const SuiteWorkload& workload,
                                  workload::CoreTimeCache& cache) {
  std::unique_ptr<workload::PreparedModel>& model = models[{&gpu, &workload}];
  if (!model) model = workload.model->prepare(gpu, workload.overrides, cache);
  return *model;
}

// Keeps the first warning point of each workload (rows arrive in suite order).
void note_warnings(SweepStats& stats, const SweepRow& row) {
  if (row.prediction.warnings.empty()) return;
  for (const SweepStats::Warnings& seen : stats.warnings) {
    if (seen.workload == row.workload) return;
  }
  stats.warnings.push_back({row.workload, row.point, row.prediction.warnings});
}

}  // namespace

std::vector<std::string> warning_lines(const SweepStats& stats) {
  std::vector<std::string> lines;
  for (const SweepStats::Warnings& seen : stats.warnings) {  // once per workload, not per point
    for (const std::string& message : seen.lines) lines.push_back(seen.workload->name() + " " + workload::describe_point(seen.point) + ": " + message);
  }
  return lines;
}

std::unique_ptr<SweepPoints> suite_points(const Suite& suite) { return std::make_unique<SuitePoints>(suite); }

SweepStats run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit, const SweepOptions& options) {
  return run_sweep(SuitePoints(suite), emit, options);
}

SweepStats run_sweep(const SweepPoints& index, const std::function<void(const SweepRow&)>& emit,
                     const SweepOptions& options) {
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
  tbb::concurrent_queue<ChunkPtr> spare_chunks;
  tbb::enumerable_thread_specific<PreparedModels> prepared_by_thread;
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
                                         ChunkPtr chunk;
                                         if (!spare_chunks.try_pop(chunk)) chunk = std::make_shared<Chunk>();
                                         chunk->begin = next;
                                         chunk->end = next = std::min(index.total(), next + chunk_size);
                                         chunk->used = 0;
                                         chunk->failure = nullptr;
                                         return chunk;
                                       }) &
            tbb::make_filter<ChunkPtr, ChunkPtr>(tbb::filter_mode::parallel,
                                             [&](ChunkPtr chunk) {
                                               chunk->rows.resize(std::max(chunk->rows.size(), static_cast<std::size_t>(chunk->end - chunk->begin)));
                                               PreparedModels& models = prepared_by_thread.local();
                                               // Consecutive points mostly share their GPU x workload.
                                               std::pair<const gpus::Profile*, const SuiteWorkload*> last_block{};
                                               workload::PreparedModel* last_model = nullptr;
                                               for (std::int64_t i = chunk->begin; i < chunk->end; ++i) {
                                                 if (failed.load()) break;
                                                 if (options.stop && options.stop->load()) break;  // Ctrl-C: within a point
                                                 SweepRow& row = chunk->rows[chunk->used];
                                                 try {
                                                   const SuiteWorkload& workload = index.fill(i, row);
                                                   try {
                                                     if (last_block != std::pair(row.gpu, &workload)) {
                                                       last_model = &prepared(models, *row.gpu, workload, cache);
                                                       last_block = {row.gpu, &workload};
                                                     }
                                                     last_model->predict(row.point, row.prediction);
                                                   } catch (const InputError& e) {
                                                     const std::string point = workload::describe_point(row.point);
                                                     // An expression of the suite keeps its line and column.
                                                     const SourceLocation where = index.location(i);
                                                     const bool in_source = e.location().file == where.file && e.location().line > 0;
                                                     throw InputError(in_source ? e.location() : where,
                                                                      row.gpu->id + " " + row.workload->name() +
                                                                          (point.empty() ? "" : " " + point) + ": " + e.what());
                                                   }
                                                   ++chunk->used;
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
                for (std::size_t k = 0; k < chunk->used; ++k) {
                  note_warnings(stats, chunk->rows[k]);
                  emit(chunk->rows[k]);
                  // A recycled chunk would otherwise pin this point's lowered kernel and re-timed
                  // programs until its row is reused: memory grew with every distinct launch.
                  chunk->rows[k].prediction.ptx.reset();
                  ++stats.points;
                }
                if (chunk->failure) std::rethrow_exception(chunk->failure);
                if (options.progress) options.progress(stats.points, index.total());
              } catch (...) {
                failure = std::current_exception();
                failed = true;
              }
              spare_chunks.push(chunk);
            }));
  });
  prepared_by_thread.clear();  // their T_c memos report their hits to the cache
  if (failure) std::rethrow_exception(failure);
  stats.cache_hits = cache.hits();
  stats.cache_misses = cache.misses();
  return stats;
}

}  // namespace warpsim::sim::driver

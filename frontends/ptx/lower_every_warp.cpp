// The reference lowering (--emulate-all): every warp of the launch emulated on its own, every
// loop iteration included, in chunks of blocks on all cores.
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "warpsim/ptx/lowering_streams.hpp"

namespace warpsim::ptx {
namespace {

constexpr std::int64_t kBlocksPerChunk = 16;
constexpr std::int64_t kChunksPerRound = 64;  // progress and Ctrl-C are looked at between rounds

struct ChunkResult {
  WarpRuns warps;  // per warp of the chunk
  std::exception_ptr error;
  std::int64_t failed_warp = 0;  // counted from the chunk's first warp
};

}  // namespace

void lower_every_warp(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                      const LoweringOptions& options, StreamTable& table, LoweredKernel& result) {
  const std::int64_t warps_per_block = (options.block.count() + 31) / 32;
  const std::int64_t blocks = options.grid.count();
  const std::int64_t chunk_count = (blocks + kBlocksPerChunk - 1) / kBlocksPerChunk;
  EmulatorOptions emulator_options = options.emulator;
  emulator_options.cancel = options.cancel;
  emulator_options.report_place = options.report_place;
  tbb::enumerable_thread_specific<WarpEmulator> emulators(decoded, entry, options.grid, options.block, values, emulator_options);
  tbb::enumerable_thread_specific<TraceFolder> folders;
  std::vector<std::uint32_t> per_warp;
  per_warp.reserve(static_cast<std::size_t>(blocks * warps_per_block));
  for (std::int64_t first = 0; first < chunk_count; first += kChunksPerRound) {
    if (options.cancel != nullptr && options.cancel->load()) {
      const std::int64_t block = first * kBlocksPerChunk;  // the next to emulate, block-major
      throw Interrupted{place_before(decoded, entry, block % options.grid.x, block / options.grid.x % options.grid.y,
                                     block / (options.grid.x * options.grid.y), 0, block, blocks)};
    }
    const std::int64_t end = std::min(chunk_count, first + kChunksPerRound);
    std::vector<ChunkResult> round(static_cast<std::size_t>(end - first));
    tbb::parallel_for(first, end, [&](std::int64_t c) {
      WarpEmulator& emulator = emulators.local();
      TraceFolder& folder = folders.local();
      ChunkResult& out = round[static_cast<std::size_t>(c - first)];
      try {
        for (std::int64_t b = c * kBlocksPerChunk; b < std::min(blocks, (c + 1) * kBlocksPerChunk); ++b) {
          const Dim3 index{b % options.grid.x, (b / options.grid.x) % options.grid.y, b / (options.grid.x * options.grid.y)};
          // Also between blocks: a round of short warps (whose emulator never reaches its own
          // look at the flag) can take many seconds.
          if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
            throw Interrupted{place_before(decoded, entry, index.x, index.y, index.z, 0, b, blocks)};
          }
          out.warps.run_block(emulator, folder, index, warps_per_block);
        }
      } catch (...) {
        out.failed_warp = static_cast<std::int64_t>(out.warps.steps.size());  // the warp that threw pushed nothing
        out.error = std::current_exception();
        folder.finish();
      }
    });
    // Merged in warp order, so the programs do not depend on the scheduling.
    for (std::int64_t c = first; c < end; ++c) {
      ChunkResult& chunk = round[static_cast<std::size_t>(c - first)];
      const std::int64_t chunk_warp = c * kBlocksPerChunk * warps_per_block;
      WarpRuns& runs = chunk.warps;
      for (std::size_t i = 0; i < runs.streams.size(); ++i) {
        const std::int64_t warp = chunk_warp + static_cast<std::int64_t>(i);
        per_warp.push_back(table.add(std::move(runs.streams[i]), warp, 1));
        table.account(warp, 1, runs.steps[i], runs.unknown[i], runs.generic[i]);
        result.stepped_instructions += runs.steps[i];  // no closed forms here
      }
      if (chunk.error) {
        table.fail(chunk_warp + chunk.failed_warp, chunk.error);
        return;
      }
    }
    if (options.progress) options.progress(end * kBlocksPerChunk, chunk_count * kBlocksPerChunk);
  }
  result.emulated_classes = static_cast<std::int64_t>(per_warp.size());
  result.warp_programs = WarpProgramMap({options.grid.x, options.grid.y, options.grid.z}, warps_per_block, std::move(per_warp));
}

}  // namespace warpsim::ptx

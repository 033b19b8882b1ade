// The sampled lowering (docs/ptx.md, "Sampling"): where every block of a launch follows its own
// path (lanes branching on values they compute, as a random generator's skip-ahead does), the
// exact lowering emulates every warp. Past the work budget, a seeded sample of blocks is emulated
// exactly instead, and every block of the launch runs the programs of a sampled block (a
// pseudo-random one, the same for all its warps, so a block's warps stay together). The timing
// (time_lowered_kernel) gives the mean over the sampled blocks with its 95% interval.
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <unordered_set>

#include "warpsim/isa/splitmix.hpp"
#include "warpsim/ptx/lowering_streams.hpp"

namespace warpsim::ptx {
namespace {

struct SampledBlock {
  WarpRuns warps;  // per warp of the block
  std::exception_ptr error;
};

// Which sampled block (index into the sample) block `block` runs like: a hash of the block, so
// that the blocks of one SM or one wave do not fall on the same sampled block in a pattern.
std::size_t stand_in(std::int64_t block, std::uint64_t seed, std::size_t sampled) {
  return static_cast<std::size_t>(isa::splitmix64(static_cast<std::uint64_t>(block) ^ isa::splitmix64(seed)) % sampled);
}

// The number of blocks to emulate: what the budget buys at the cost per block seen, within the bounds.
std::int64_t sample_size(std::int64_t projected, std::int64_t budget, std::int64_t blocks) {
  const double per_block = static_cast<double>(projected) / static_cast<double>(blocks);
  const double affordable = per_block > 0 ? static_cast<double>(budget) / per_block : static_cast<double>(kMaxSampledBlocks);
  const auto size = static_cast<std::int64_t>(std::clamp(affordable, static_cast<double>(kMinSampledBlocks),
                                                         static_cast<double>(kMaxSampledBlocks)));
  return std::min(size, blocks);
}

}  // namespace

void lower_sampled(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                   const LoweringOptions& options, std::int64_t projected, StreamTable& table, LoweredKernel& result) {
  const std::int64_t warps_per_block = (options.block.count() + 31) / 32;
  const std::int64_t blocks = options.grid.count();
  // Blocks drawn uniformly without replacement, in draw order (the seed decides them all).
  Sampling sampling;
  sampling.launch_blocks = blocks;
  sampling.projected_instructions = projected;
  sampling.budget = options.sample_budget;
  sampling.seed = options.sample_seed;
  const std::int64_t size = sample_size(projected, options.sample_budget, blocks);
  std::mt19937_64 random(options.sample_seed);
  std::uniform_int_distribution<std::int64_t> any_block(0, blocks - 1);
  std::unordered_set<std::int64_t> drawn;
  while (static_cast<std::int64_t>(sampling.blocks.size()) < size) {
    const std::int64_t b = any_block(random);
    if (drawn.insert(b).second) sampling.blocks.push_back(b);
  }

  EmulatorOptions emulator_options = options.emulator;
  emulator_options.cancel = options.cancel;
  emulator_options.report_place = options.report_place;
  tbb::enumerable_thread_specific<WarpEmulator> emulators(decoded, entry, options.grid, options.block, values, emulator_options);
  tbb::enumerable_thread_specific<TraceFolder> folders;
  std::vector<SampledBlock> sampled(sampling.blocks.size());
  tbb::parallel_for(std::size_t{0}, sampled.size(), [&](std::size_t i) {
    WarpEmulator& emulator = emulators.local();
    TraceFolder& folder = folders.local();
    SampledBlock& out = sampled[i];
    const std::int64_t b = sampling.blocks[i];
    const Dim3 index{b % options.grid.x, (b / options.grid.x) % options.grid.y, b / (options.grid.x * options.grid.y)};
    try {
      if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
        throw Interrupted{place_before(decoded, entry, index.x, index.y, index.z, 0, static_cast<std::int64_t>(i),
                                       static_cast<std::int64_t>(sampled.size()))};
      }
      out.warps.run_block(emulator, folder, index, warps_per_block);
    } catch (...) {
      out.error = std::current_exception();
      folder.finish();
    }
  });

  // How many blocks each sampled block stands for, and the map from every warp to its program.
  // A sampled block runs its own programs.
  std::vector<std::int64_t> represented(sampled.size(), 0);
  std::vector<std::size_t> stand_ins(static_cast<std::size_t>(blocks));
  for (std::int64_t b = 0; b < blocks; ++b) stand_ins[static_cast<std::size_t>(b)] = stand_in(b, options.sample_seed, sampled.size());
  for (std::size_t j = 0; j < sampled.size(); ++j) stand_ins[static_cast<std::size_t>(sampling.blocks[j])] = j;
  for (const std::size_t j : stand_ins) ++represented[j];
  std::vector<std::vector<std::uint32_t>>& ids = sampling.programs;
  ids.resize(sampled.size());
  for (std::size_t j = 0; j < sampled.size(); ++j) {
    SampledBlock& block = sampled[j];
    const std::int64_t first_warp = sampling.blocks[j] * warps_per_block;
    WarpRuns& runs = block.warps;
    if (block.error) {
      table.fail(first_warp + static_cast<std::int64_t>(runs.steps.size()), block.error);
      continue;
    }
    for (std::size_t w = 0; w < runs.streams.size(); ++w) {
      const std::int64_t warp = first_warp + static_cast<std::int64_t>(w);
      table.account(warp, represented[j], runs.steps[w], runs.unknown[w], runs.generic[w]);
      result.stepped_instructions += runs.steps[w];  // concrete runs: no closed forms
      ids[j].push_back(table.add(std::move(runs.streams[w]), warp, represented[j]));
    }
  }
  table.rethrow_error();
  std::vector<std::uint32_t> per_warp;
  per_warp.reserve(static_cast<std::size_t>(blocks * warps_per_block));
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::vector<std::uint32_t>& programs = ids[stand_ins[static_cast<std::size_t>(b)]];
    per_warp.insert(per_warp.end(), programs.begin(), programs.end());
  }
  sampling.reason = "each block followed a path of its own; emulating every warp would take about " + std::to_string(projected) +
                    " warp-instructions, over the budget of " + std::to_string(options.sample_budget) + " (--exact emulates every warp)";
  result.emulated_classes = static_cast<std::int64_t>(sampled.size()) * warps_per_block;
  result.warp_programs = WarpProgramMap({options.grid.x, options.grid.y, options.grid.z}, warps_per_block, std::move(per_warp));
  result.sampling = std::move(sampling);
}

}  // namespace warpsim::ptx

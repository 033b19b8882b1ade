// The fast lowering: warps in classes (docs/ptx.md). For each warp of a block, the whole grid
// starts as one box of blocks emulated at once (WarpEmulator::run_class); each emulation either
// proves that every block left in its box issues its stream, or narrows the box and leaves the
// cut-off parts to be emulated in turn. Cost grows with the number of distinct behaviours.
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "warpsim/ptx/lowering_streams.hpp"
#include "warpsim/isa/input_error.hpp"

#include <limits>

namespace warpsim::ptx {
namespace {

constexpr std::size_t kClassesPerRound = 256;  // progress and Ctrl-C are looked at between rounds

struct PendingClass {
  std::int64_t warp = 0;
  WarpProgramMap::NodeId node = 0;
};

struct ClassResult {
  std::vector<ClassSplit> splits;
  bool restart = false;
  ClassSplit restart_split;
  std::vector<TraceItem> stream;
  std::int64_t steps = 0;
  std::int64_t closed_form = 0;  // of steps: added by closed-form loops, not executed
  UnknownBranchReport unknown;
  GenericAsGlobalReport generic;
  std::exception_ptr error;
};

// The global index (block-major) of warp `warp` of the box's first block.
std::int64_t first_warp_of(const BlockBox& box, std::int64_t warp, const Dim3& grid, std::int64_t warps_per_block) {
  const std::int64_t block = box.dims[0].start + grid.x * (box.dims[1].start + grid.y * box.dims[2].start);
  return block * warps_per_block + warp;
}

// Whether to stop and sample: not exact, classes no larger than a warp or two on average (no
// grouping: each block its own path), at least an eighth of the budget spent already (a few
// costly first blocks must not condemn a launch whose other blocks are cheap: Rodinia's myocyte
// `kernel` lowers exactly in 0.04 s, and was sampled without this), and the work so far,
// extrapolated to every warp, past the budget. Decided after at least kMinSampledBlocks classes,
// from the same counts whatever the thread count, so the choice is deterministic.
bool should_sample(const LoweringOptions& options, std::int64_t done, std::int64_t covered, std::int64_t spent,
                   std::int64_t launch_warps, std::int64_t& projected) {
  if (options.exact || options.emulate_all || done < kMinSampledBlocks || covered <= 0) return false;
  if (covered > 2 * done || spent < options.sample_budget / 8) return false;
  const double estimate = static_cast<double>(spent) / static_cast<double>(covered) * static_cast<double>(launch_warps);
  projected = estimate > 9e18 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(estimate);
  return projected > options.sample_budget && covered < launch_warps;
}

}  // namespace

bool lower_by_class(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                    const LoweringOptions& options, StreamTable& table, LoweredKernel& result, std::int64_t& projected) {
  const std::int64_t warps_per_block = (options.block.count() + 31) / 32;
  WarpProgramMap map({options.grid.x, options.grid.y, options.grid.z}, warps_per_block);
  EmulatorOptions emulator_options = options.emulator;
  emulator_options.cancel = options.cancel;
  emulator_options.report_place = options.report_place;
  tbb::enumerable_thread_specific<WarpEmulator> emulators(decoded, entry, options.grid, options.block, values, emulator_options);
  tbb::enumerable_thread_specific<TraceFolder> folders;
  std::vector<PendingClass> pending;
  for (std::int64_t w = warps_per_block; w-- > 0;) pending.push_back(PendingClass{w, map.root(w)});
  std::int64_t done = 0;
  // For sampling: the warp-instructions emulated (restarted classes too) and the warps covered;
  // for LoweredKernel::stepped_instructions, those not added by closed forms.
  std::int64_t spent = 0, covered = 0, stepped = 0;
  const std::int64_t launch_warps = options.grid.count() * warps_per_block;
  while (!pending.empty()) {
    if (options.cancel != nullptr && options.cancel->load()) {
      const BlockBox& next = map.box(pending.back().node);
      throw Interrupted{place_before(decoded, entry, next.dims[0].start, next.dims[1].start, next.dims[2].start,
                                     pending.back().warp, done, done + static_cast<std::int64_t>(pending.size()))};
    }
    // The most recently cut-off classes first (depth first), so the queue stays short.
    // Small rounds first, so that a launch to be sampled is told after little work.
    const std::size_t take = std::min(pending.size(), done < 4 * kMinSampledBlocks ? std::size_t{kMinSampledBlocks} : kClassesPerRound);
    std::vector<PendingClass> round(pending.end() - static_cast<std::ptrdiff_t>(take), pending.end());
    pending.resize(pending.size() - take);
    std::vector<ClassResult> results(round.size());
    tbb::parallel_for(std::size_t{0}, round.size(), [&](std::size_t i) {
      WarpEmulator& emulator = emulators.local();
      TraceFolder& folder = folders.local();
      ClassResult& out = results[i];
      emulator.take_unknown_branches();
      emulator.take_generic_as_global();
      emulator.take_closed_form_steps();
      try {
        out.steps = emulator.run_class(map.box(round[i].node), round[i].warp, folder, out.splits);
        out.closed_form = emulator.take_closed_form_steps();
        out.stream = folder.finish();
      } catch (const RestartClass& restart) {
        out.restart = true;
        out.restart_split = restart.split;
        folder.finish();
      } catch (...) {
        out.error = std::current_exception();
        folder.finish();
      }
      out.unknown = emulator.take_unknown_branches();
      out.generic = emulator.take_generic_as_global();
    });
    // Merged in a fixed order, so the result does not depend on the scheduling.
    std::vector<PendingClass> cut_off;
    for (std::size_t i = 0; i < round.size(); ++i) {
      ClassResult& r = results[i];
      WarpProgramMap::NodeId node = round[i].node;
      const std::int64_t warp = round[i].warp;
      for (const ClassSplit& split : r.splits) {
        const std::vector<WarpProgramMap::NodeId> children = map.split(node, split.kind, split.dim, split.parameter);
        for (std::size_t c = children.size(); c-- > 1;) cut_off.push_back(PendingClass{warp, children[c]});
        node = children[0];
      }
      const BlockBox& box = map.box(node);
      const std::int64_t first = first_warp_of(box, warp, options.grid, warps_per_block);
      if (r.error) {
        table.fail(first, r.error);
        continue;
      }
      if (r.restart) {
        const std::vector<WarpProgramMap::NodeId> children =
            map.split(node, r.restart_split.kind, r.restart_split.dim, r.restart_split.parameter);
        for (std::size_t c = children.size(); c-- > 0;) cut_off.push_back(PendingClass{warp, children[c]});
        continue;
      }
      ++done;
      covered += box.blocks();
      table.account(first, box.blocks(), r.steps, r.unknown, r.generic);
      map.set_program(node, table.add(std::move(r.stream), first, box.blocks()));
    }
    for (const ClassResult& r : results) {
      spent += r.steps;
      stepped += r.steps - r.closed_form;
    }
    pending.insert(pending.end(), cut_off.rbegin(), cut_off.rend());
    if (should_sample(options, done, covered, spent, launch_warps, projected)) return false;
    if (done + static_cast<std::int64_t>(pending.size()) > kMaxClasses) {
      throw InputError("the launch splits into more than 2^24 classes of blocks that behave differently; warpsim "
                       "does not lower it (see docs/ptx.md, \"Warps in classes\")");
    }
    if (options.progress) options.progress(done, done + static_cast<std::int64_t>(pending.size()));
  }
  result.emulated_classes = done;
  result.stepped_instructions = stepped;
  result.warp_programs = std::move(map);
  return true;
}

}  // namespace warpsim::ptx

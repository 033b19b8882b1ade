// What both lowering paths (per warp, per class) share: the distinct instruction streams found,
// with how many warps run each and the first of them, and what the emulations reported.
#pragma once

#include <cstdint>
#include <exception>
#include <unordered_map>
#include <vector>

#include "warpsim/ptx/emulator.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx/trace_folder.hpp"

namespace warpsim::ptx {

// What one calc op of a program holds (isa::Program::add_calc): each count of its mix (issue, a
// pipe's work or chain) up to isa::kMaxMixCount, and a duration up to 10^9 cycles, which is its
// PTX instructions (plus 9 for a period's first op).
struct CalcOpLimits {
  std::int64_t counts = isa::kMaxMixCount;
  std::int64_t instructions = isa::kMaxDuration / isa::kMillicyclesPerCycle - kCalcPeriodExtraCycles;
};

// Appends the calc run `item` (a TraceItem::Kind::calc) to `program` as one op, with its note.
// A run that one op cannot hold (a long loop without memory access folds into one run) is written
// as `calc R; repeat k-1 { calc P }`, k the fewest ops of at most half the limits: P has each count
// over k, rounded down, and R the rest and the period's 9 cycles (so R fits too). The counts and
// durations add up to the run's, and where one term decides a calc's time (the memory model's
// duration; the pipes model's chain, issue or a pipe's work) the time is the unsplit op's. Each
// op's note keeps the run's lines (explain spreads an op's time over them in proportion). Throws
// InputError, at the run's first line, for a run too long to time even so (about 2^58).
void add_calc_run(const TraceItem& item, isa::Program& program, std::vector<OpNote>& notes, const CalcOpLimits& limits = {});

class StreamTable {
 public:
  // The id of `stream` (moved in when new); `warps` more warps run it, the first being `first_warp`.
  std::uint32_t add(std::vector<TraceItem>&& stream, std::int64_t first_warp, std::int64_t warps);
  // What `warps` warps, the first being `first_warp`, each issuing `steps` instructions, reported.
  void account(std::int64_t first_warp, std::int64_t warps, std::int64_t steps, const UnknownBranchReport& unknown,
               const GenericAsGlobalReport& generic);
  // Keeps the error of the earliest warp.
  void fail(std::int64_t first_warp, std::exception_ptr error);
  void rethrow_error() const;

  // Programs in order of their first warp, and the new id of each stream. Consumes the streams
  // (each is freed once its program is built): the table takes no more after it.
  std::vector<std::uint32_t> finish(const LoweringOptions& options, const std::string& name, const std::string& file,
                                    LoweredKernel& into);

 private:
  std::vector<std::vector<TraceItem>> streams_;
  std::vector<std::int64_t> first_warp_, warps_;
  std::unordered_map<std::size_t, std::vector<std::uint32_t>> by_hash_;
  std::int64_t instructions_ = 0;
  // The reports of all warps; the first occurrence is the earliest warp's.
  struct Merged {
    OccurrenceReport report;
    std::int64_t first_warp = -1;
    void add(std::int64_t first_warp, std::int64_t warps, const OccurrenceReport& r);
  };
  Merged unknown_, generic_;
  std::exception_ptr error_;
  std::int64_t error_first_warp_ = -1;
};

// What the warps of blocks run one by one (every warp, or a sample) reported, warp by warp.
struct WarpRuns {
  std::vector<std::vector<TraceItem>> streams;
  std::vector<std::int64_t> steps;
  std::vector<UnknownBranchReport> unknown;
  std::vector<GenericAsGlobalReport> generic;
  // Emulates warps 0 .. warps-1 of block `block`, appending each one's stream and reports.
  void run_block(WarpEmulator& emulator, TraceFolder& folder, const Dim3& block, std::int64_t warps);
};

// Cuts the whole launch's work into the classes of the fast path or one per warp; both give the
// same streams (docs/ptx.md).
void lower_every_warp(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                      const LoweringOptions& options, StreamTable& table, LoweredKernel& result);
// Returns false, having kept nothing, where the launch should be sampled instead (the classes
// are single blocks and the projected work passes options.sample_budget; never when
// options.exact): `projected` then holds the projection.
bool lower_by_class(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                    const LoweringOptions& options, StreamTable& table, LoweredKernel& result, std::int64_t& projected);
// Emulates a seeded sample of blocks (lower_sampled.cpp) and gives every block a sampled block's
// programs; sets result.sampling.
void lower_sampled(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                   const LoweringOptions& options, std::int64_t projected, StreamTable& table, LoweredKernel& result);

}  // namespace warpsim::ptx

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

  // Programs in order of their first warp, and the new id of each stream.
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

// Cuts the whole launch's work into the classes of the fast path or one per warp; both give the
// same streams (docs/ptx.md).
void lower_every_warp(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                      const LoweringOptions& options, StreamTable& table, LoweredKernel& result);
void lower_by_class(const DecodedModule& decoded, std::uint32_t entry, const std::vector<std::optional<std::uint64_t>>& values,
                    const LoweringOptions& options, StreamTable& table, LoweredKernel& result);

}  // namespace warpsim::ptx

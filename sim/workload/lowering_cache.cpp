#include "warpsim/workload/lowering_cache.hpp"

#include <string_view>

#include "warpsim/ptx/lowering_warnings.hpp"

namespace warpsim::sim::workload {

const std::shared_ptr<LoweringCache>& LoweringCache::process_wide() {
  static const auto cache = std::make_shared<LoweringCache>();
  return cache;
}

std::string lowering_key(const PtxSource& source, const ptx::LoweringOptions& options) {
  // The emulator options through a structured binding, which names every field or does not
  // compile: a new option breaks the build here until it is keyed or excluded below (a size check
  // would miss one that fits in padding). Four are deliberately not keyed: `cancel` only stops
  // the lowering, `report_place` only reports, and `reuse` and `inputs` are the lowering's own
  // (from LoweringOptions::sample_reuse and LoweringOptions::inputs, keyed below).
  const auto& [unknown_loop_trips, unknown_branch, max_steps_per_warp, max_trace_items, cancel, report_place, reuse, inputs] =
      options.emulator;
  static_cast<void>(cancel), static_cast<void>(report_place), static_cast<void>(reuse), static_cast<void>(inputs);
  std::string key;
  const auto text = [&](std::string_view s) { key.append(std::to_string(s.size())).append(":").append(s); };
  const auto number = [&](std::int64_t n) { key.append(std::to_string(n)).append(","); };
  text(source.identity);
  text(options.kernel);
  for (const ptx::Dim3& d : {options.grid, options.block}) {
    number(d.x);
    number(d.y);
    number(d.z);
  }
  number(static_cast<std::int64_t>(options.parameters.size()));
  for (const auto& [name, value] : options.parameters) {
    text(name);
    text(value);
  }
  number(static_cast<std::int64_t>(options.inputs.size()));
  for (const auto& [name, contents] : options.inputs) {
    text(name);
    text(contents.identity());
  }
  number(unknown_loop_trips);
  number(static_cast<std::int64_t>(unknown_branch));
  number(max_steps_per_warp);
  number(max_trace_items);
  number(options.emulate_all ? 1 : 0);
  number(options.exact ? 1 : 0);
  number(options.sample_budget);
  number(static_cast<std::int64_t>(options.sample_seed));
  number(options.sample_reuse ? 1 : 0);
  number(options.merge_shared_loads ? 1 : 0);
  text(options.sass ? options.sass_identity : std::string());
  number(options.sass ? options.sass_compute_capability : 0);
  return key;
}

std::int64_t lowered_bytes(const ptx::LoweredKernel& kernel) {
  std::int64_t bytes = sizeof(ptx::LoweredKernel);
  for (const ptx::WarpProgram& p : kernel.programs) {
    bytes += static_cast<std::int64_t>(sizeof(ptx::WarpProgram) + p.program.ops().size() * sizeof(isa::Op) +
                                       p.notes.size() * sizeof(ptx::OpNote));
    for (const ptx::OpNote& note : p.notes) bytes += static_cast<std::int64_t>(note.source.size() * sizeof(ptx::LineCount));
  }
  return bytes + kernel.warp_programs.bytes();
}

std::shared_ptr<const LoweringCache::Lowered> LoweringCache::lower(const PtxSource& source,
                                                                   const ptx::LoweringOptions& options) {
  std::string key = lowering_key(source, options);
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = entries_.find(key); it != entries_.end()) {
      ++stats_.hits;
      return it->second;
    }
  }
  ptx::LoweringOptions canonical = options;
  canonical.load_cycles = ptx::kDefaultMemoryCycles;
  canonical.store_cycles = ptx::kDefaultMemoryCycles;
  ptx::LoweredKernel kernel = ptx::lower_kernel(*source.module, canonical);
  std::vector<std::string> warnings = ptx::warning_lines(kernel, source.module->file, options.emulator);
  auto lowered = std::make_shared<const Lowered>(Lowered{std::move(kernel), std::move(warnings), std::make_shared<LoweredTimings>()});
  const std::int64_t bytes = lowered_bytes(lowered->kernel);

  const std::lock_guard lock(mutex_);
  ++stats_.lowerings;
  if (const auto it = entries_.find(key); it != entries_.end()) return it->second;  // lowered twice at once
  // Entries stay while they fit and a lowering that does not fit is not kept: a calibration's
  // trials and a sweep's GPUs revisit the points in the same order each time, and evicting the
  // oldest would miss on every point once they outgrow the budget, where this hits on the kept.
  if (stats_.bytes + bytes <= budget_bytes_) {
    entries_.emplace(std::move(key), lowered);
    ++stats_.kept;
    stats_.bytes += bytes;
  }
  return lowered;
}

std::optional<grid::GridTiming> LoweredTimings::find(const std::string& key) const {
  const std::lock_guard lock(mutex_);
  const auto it = timings_.find(key);
  return it == timings_.end() ? std::nullopt : std::optional(it->second);
}

void LoweredTimings::insert(std::string key, const grid::GridTiming& timing) {
  const std::lock_guard lock(mutex_);
  if (timings_.size() < kMax) timings_.emplace(std::move(key), timing);
}

void LoweringCache::clear() {
  const std::lock_guard lock(mutex_);
  entries_.clear();
  stats_.kept = 0;
  stats_.bytes = 0;
}

LoweringCache::Stats LoweringCache::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace warpsim::sim::workload

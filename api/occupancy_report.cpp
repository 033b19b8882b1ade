// warpsim occupancy's JSON and text.
#include "cuda_input.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {
namespace {

nlohmann::ordered_json limit_json(const std::optional<std::int64_t>& limit) {
  return limit ? nlohmann::ordered_json(*limit) : nlohmann::ordered_json(nullptr);
}

std::string limit_text(const std::optional<std::int64_t>& limit) {
  return limit ? std::to_string(*limit) : std::string("no limit");
}

}  // namespace

nlohmann::ordered_json to_json(const OccupancyResult& r) {
  nlohmann::ordered_json out;
  out["gpu"] = r.gpu;
  out["compute_capability"] = r.compute_capability;
  out["threads_per_block"] = r.threads_per_block;
  out["registers_per_thread"] = r.registers_per_thread;
  out["registers_source"] = r.registers_source;
  out["static_smem_bytes"] = r.static_smem_bytes;
  out["static_smem_source"] = r.static_smem_source;
  out["dynamic_smem_bytes"] = r.dynamic_smem_bytes;
  out["active_blocks_per_sm"] = r.active_blocks_per_sm;
  out["limited_by"] = r.limited_by;
  out["limiting_factors"] = r.limiting_factors;
  out["by_warps"] = r.by_warps;
  out["by_blocks"] = r.by_blocks;
  out["by_registers"] = limit_json(r.by_registers);
  out["by_shared_memory"] = limit_json(r.by_shared_memory);
  out["warps_per_block"] = r.warps_per_block;
  out["registers_per_block"] = r.registers_per_block;
  out["shared_memory_per_block"] = r.shared_memory_per_block;
  out["shared_memory_per_sm"] = r.shared_memory_per_sm;
  out["active_warps_per_sm"] = r.active_warps_per_sm;
  out["max_warps_per_sm"] = r.max_warps_per_sm;
  out["occupancy"] = sim::report::number_json(r.occupancy);
  if (r.compiled) out["compiled"] = api::compiled_json(*r.compiled);
  return out;
}

std::string to_text(const OccupancyResult& r) {
  std::string factors;
  for (const std::string& factor : r.limiting_factors) factors += (factors.empty() ? "" : ", ") + factor;
  const auto n = [](std::int64_t value) { return std::to_string(value); };
  return r.gpu + " (CC " + r.compute_capability + "): " + n(r.threads_per_block) + " threads x " +
         n(r.registers_per_thread) + " registers (" + r.registers_source + "), shared memory " +
         n(r.static_smem_bytes) + " static (" + r.static_smem_source + ") + " + n(r.dynamic_smem_bytes) +
         " dynamic bytes\n" +
         "active_blocks_per_sm = " + n(r.active_blocks_per_sm) + ", limited by " + factors + "\n" +
         "  by warps:         " + n(r.by_warps) + " (" + n(r.warps_per_block) + " warps per block of " +
         n(r.max_warps_per_sm) + ")\n" +
         "  by blocks:        " + n(r.by_blocks) + "\n" +
         "  by registers:     " + limit_text(r.by_registers) + " (" + n(r.registers_per_block) + " registers per block)\n" +
         "  by shared memory: " + limit_text(r.by_shared_memory) + " (" + n(r.shared_memory_per_block) +
         " bytes per block of " + n(r.shared_memory_per_sm) + " per SM)\n" +
         "active warps per SM = " + n(r.active_warps_per_sm) + " of " + n(r.max_warps_per_sm) + ", occupancy " +
         sim::report::shortest(r.occupancy) + "\n" + (r.compiled ? api::compiled_text(*r.compiled) : std::string());
}

}  // namespace warpsim

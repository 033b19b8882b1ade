#include "warpsim/occupancy/architecture.hpp"

#include <array>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::occupancy {
namespace {

// Shared-memory configurations per SM, KiB (cuda_occupancy.h, cudaOccAlignUpShmemSizeVoltaPlus;
// CUDA C++ Programming Guide, 'Shared Memory' of CC 7.x, 8.x and 9.0: the supported carve-outs).
// CC 10.0 (B200) has Hopper's configurations, CC 12.0 (RTX 50) GA10x's: cudaOccAlignUpShmemSizeVoltaPlus
// of CUDA 13.0, cases 10 and 12.
constexpr std::array<std::int64_t, 6> kVolta = {0, 8, 16, 32, 64, 96};
constexpr std::array<std::int64_t, 2> kTuring = {32, 64};
constexpr std::array<std::int64_t, 8> kGA100 = {0, 8, 16, 32, 64, 100, 132, 164};
constexpr std::array<std::int64_t, 6> kGA10x = {0, 8, 16, 32, 64, 100};
constexpr std::array<std::int64_t, 10> kHopper = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
// Fermi rounds these register counts per warp to 128 instead of 64 (cuda_occupancy.h of CUDA
// 7.x-8.0, cudaOccRegAllocationGranularity, case 2).
constexpr std::array<std::int64_t, 8> kFermiCoarse = {21, 22, 29, 30, 37, 38, 45, 46};
constexpr std::span<const std::int64_t> kNone{};

constexpr std::int64_t K = 1024;

Architecture row(int major, int minor, std::int64_t unit, std::int64_t partitions, std::int64_t granularity,
                 std::int64_t reserved, std::span<const std::int64_t> carveouts, std::int64_t blocks,
                 std::int64_t threads, std::int64_t registers, std::int64_t registers_per_block,
                 std::int64_t registers_per_thread, std::int64_t smem_kib, std::int64_t smem_block_kib) {
  Architecture a;
  a.major = major;
  a.minor = minor;
  a.register_allocation_unit = unit;
  a.register_sub_partitions = partitions;
  a.also_check_sub_partitions = (major == 6 && minor == 0) ? 4 : 0;
  a.shared_memory_granularity = granularity;
  a.reserved_shared_memory_per_block = reserved;
  a.carveouts_kib = carveouts;
  a.coarse_register_counts = major == 2 ? std::span<const std::int64_t>(kFermiCoarse) : kNone;
  a.max_blocks_per_sm = blocks;
  a.max_threads_per_sm = threads;
  a.registers_per_sm = registers;
  a.max_registers_per_block = registers_per_block;
  a.max_registers_per_thread = registers_per_thread;
  a.shared_memory_per_sm_kib = smem_kib;
  a.max_shared_memory_per_block_kib = smem_block_kib;
  return a;
}

// Columns: CC; register unit, sub-partitions, shared-memory granularity, reserved bytes per block,
// carve-outs (cuda_occupancy.h); then the Programming Guide's per-CC figures: resident blocks and
// threads per SM, registers per SM, per block and per thread, shared memory per SM and per block (KiB).
const std::array<Architecture, 22> kTable = {
    row(2, 0, 64, 2, 128, 0, kNone, 8, 1536, 32 * K, 32 * K, 63, 48, 48),
    row(2, 1, 64, 2, 128, 0, kNone, 8, 1536, 32 * K, 32 * K, 63, 48, 48),
    row(3, 0, 256, 4, 256, 0, kNone, 16, 2048, 64 * K, 64 * K, 63, 48, 48),
    row(3, 2, 256, 4, 256, 0, kNone, 16, 2048, 64 * K, 32 * K, 255, 48, 48),
    row(3, 5, 256, 4, 256, 0, kNone, 16, 2048, 64 * K, 64 * K, 255, 48, 48),
    row(3, 7, 256, 4, 256, 0, kNone, 16, 2048, 128 * K, 64 * K, 255, 112, 48),
    row(5, 0, 256, 4, 256, 0, kNone, 32, 2048, 64 * K, 64 * K, 255, 64, 48),
    row(5, 2, 256, 4, 256, 0, kNone, 32, 2048, 64 * K, 64 * K, 255, 96, 48),
    row(5, 3, 256, 4, 256, 0, kNone, 32, 2048, 64 * K, 32 * K, 255, 64, 48),
    row(6, 0, 256, 2, 256, 0, kNone, 32, 2048, 64 * K, 64 * K, 255, 64, 48),
    row(6, 1, 256, 4, 256, 0, kNone, 32, 2048, 64 * K, 64 * K, 255, 96, 48),
    row(6, 2, 256, 4, 256, 0, kNone, 32, 2048, 64 * K, 32 * K, 255, 64, 48),
    row(7, 0, 256, 4, 256, 0, kVolta, 32, 2048, 64 * K, 64 * K, 255, 96, 96),
    row(7, 2, 256, 4, 256, 0, kVolta, 32, 2048, 64 * K, 64 * K, 255, 96, 96),
    row(7, 5, 256, 4, 256, 0, kTuring, 16, 1024, 64 * K, 64 * K, 255, 64, 64),
    row(8, 0, 256, 4, 128, 1024, kGA100, 32, 2048, 64 * K, 64 * K, 255, 164, 163),
    row(8, 6, 256, 4, 128, 1024, kGA10x, 16, 1536, 64 * K, 64 * K, 255, 100, 99),
    row(8, 7, 256, 4, 128, 1024, kGA100, 16, 1536, 64 * K, 64 * K, 255, 164, 163),
    row(8, 9, 256, 4, 128, 1024, kGA10x, 24, 1536, 64 * K, 64 * K, 255, 100, 99),
    row(9, 0, 256, 4, 128, 1024, kHopper, 32, 2048, 64 * K, 64 * K, 255, 228, 227),
    // Blackwell: cuda_occupancy.h of CUDA 13.0 (cases 10 and 12: the same register unit, sub-partitions,
    // granularity and reservation as CC 9.0; 32 resident blocks on 10.0, 24 on 12.x).
    row(10, 0, 256, 4, 128, 1024, kHopper, 32, 2048, 64 * K, 64 * K, 255, 228, 227),
    row(12, 0, 256, 4, 128, 1024, kGA10x, 24, 1536, 64 * K, 64 * K, 255, 100, 99),
};

}  // namespace

std::int64_t Architecture::registers_per_warp(std::int64_t registers_per_thread, std::int64_t warp_size) const {
  std::int64_t unit = register_allocation_unit;
  for (const std::int64_t coarse : coarse_register_counts) {
    if (coarse == registers_per_thread) unit *= 2;
  }
  const std::int64_t registers = registers_per_thread * warp_size;
  return (registers + unit - 1) / unit * unit;
}

std::span<const Architecture> architectures() { return kTable; }

const Architecture& architecture(std::string_view compute_capability, const std::string& context) {
  std::string supported;
  for (const Architecture& a : kTable) {
    if (a.compute_capability() == compute_capability) return a;
    supported += (supported.empty() ? "" : ", ") + a.compute_capability();
  }
  throw InputError(context + ": compute capability " + quote_for_message(compute_capability) +
                   " has no occupancy rules (known: " + supported + ")");
}

}  // namespace warpsim::sim::occupancy

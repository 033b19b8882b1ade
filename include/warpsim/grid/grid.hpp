// Algorithm 1 with the errata of MODEL.md section 3: the whole grid from core-package times.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/time.hpp"
#include "warpsim/grid/launch.hpp"

namespace warpsim::sim::grid {

// The quantities of Algorithm 1 that do not depend on the kernel program.
struct GridPlan {
  std::int64_t blocks_per_sm = 0;                     // N_sb = ceil(N_b / N_sm)
  std::int64_t warps_per_block = 0;                   // N_wb = ceil(N_t / 32)
  std::int64_t core_packages_per_sm = 0;              // N_cp = N_c/sm / 32
  std::int64_t active_blocks_per_sm = 0;              // N_ab
  std::int64_t warps_per_core_package = 0;            // ceil(N_ab * N_wb / N_cp)
  std::int64_t full_runs = 0;                         // N_r = floor(N_sb / N_ab)
  std::int64_t remaining_blocks = 0;                  // R = N_sb mod N_ab
  std::int64_t remaining_warps_per_core_package = 0;  // ceil(R * N_wb / N_cp), 0 when R = 0
  std::int64_t remaining_runs = 0;                    // 1 if R > 0 else 0
};

// Validates the launch (InputError) and computes the plan.
GridPlan plan_grid(const gpus::Profile& gpu, const Launch& launch);
// The same, written into `into`: a struct returned through memory and then copied stalls the
// copy's wide reads on its narrow writes, which a sweep would pay at every point.
void plan_grid(const gpus::Profile& gpu, const Launch& launch, GridPlan& into);

// Sampling the runs of a launch whose warps run different programs (docs/model.md, "Warps with
// different programs"): when simulating each distinct core package would pass `budget` simulated
// warp-ops (each warp's dynamic op count, summed over the distinct packages), a seeded sample of
// the distinct runs is simulated, drawn without repeats; every run not drawn takes the mean of the
// drawn runs (full and remaining runs apart), and the time comes with a 95% interval from the
// drawn runs' spread (docs/ptx.md, "Sampling the runs"). Every run is simulated when the sample
// would need half the packages or the SMs' drawn runs differ. Budget 0: every run exactly.
struct RunSampling {
  std::int64_t budget = 0;
  std::uint64_t seed = 1;
  std::function<std::int64_t(std::uint32_t program)> ops_of;  // a program's dynamic op count
};
// What a sampled timing did.
struct RunSample {
  std::int64_t runs = 0;                // distinct runs of the launch (programs and their packages)
  std::int64_t sampled_runs = 0;        // distinct runs drawn and simulated
  std::int64_t packages = 0;            // distinct core packages of the launch
  std::int64_t simulated_packages = 0;  // of them, simulated
  std::int64_t projected_ops = 0;       // simulating every distinct package (saturates at 2^61)
  std::int64_t budget = 0;
  std::uint64_t seed = 0;
};

struct GridTiming {
  GridPlan plan;
  isa::Millicycles full_run_cycles = 0;       // t = T_c(warps_per_core_package)
  isa::Millicycles remaining_run_cycles = 0;  // tbar, 0 when there is no remaining run
  double cycles = 0;   // N_r * t + Nbar_r * tbar, in cycles
  double tp_us = 0;
  double time_us = 0;  // T_k = t_p + cycles / F
  // A sampled launch (ptx::Sampling): the 95% interval of time_us; both 0 when exact. In one
  // wave the upper end is raised by unseen_block_ratio (workload::unseen_block_ratio; 1: not).
  double low_us = 0, high_us = 0;
  double unseen_block_ratio = 1;
  std::optional<RunSample> run_sample;  // set when a sample of the launch's runs was simulated
};

// T_c for a number of warps on one core package.
using CoreTime = std::function<isa::Millicycles(std::int64_t warps)>;

GridTiming time_grid(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                     const CoreTime& core_time);

// T_k from a timing's plan and run times: fills cycles, tp_us and time_us.
void total_time(const gpus::Profile& gpu, double tp_us, GridTiming& timing);

// time_grid written into `into`, with any callable for T_c: a sweep writes straight into its
// row, and its T_c memo is inlined.
template <typename CoreTimeOf>
void time_grid(const gpus::Profile& gpu, const Launch& launch, double tp_us, CoreTimeOf&& core_time,
               GridTiming& into) {
  plan_grid(gpu, launch, into.plan);
  into.full_run_cycles = core_time(into.plan.warps_per_core_package);
  into.remaining_run_cycles = into.plan.remaining_runs > 0 ? core_time(into.plan.remaining_warps_per_core_package) : 0;
  total_time(gpu, tp_us, into);
}

// T_c of core package `package` of an SM, whose warps run the given programs (ids), in
// round-robin order (the package tells which of its warps share a block: core::BarrierLayout).
using MixedCoreTime = std::function<isa::Millicycles(std::span<const std::uint32_t> warp_programs, std::int64_t package)>;

// The program id of warp `warp` (within its block) of block `block` (linear, x fastest).
using ProgramOfWarp = std::function<std::uint32_t(std::int64_t block, std::int64_t warp)>;

// Algorithm 1 for a launch whose warps run different programs (PTX lowering): `uniform` is set
// when every warp runs that program, else `program_of` says which. When every warp runs the same program this is
// time_grid exactly. Otherwise each SM is simulated (docs/model.md, "Warps with different
// programs"): block b runs on SM b mod N_sm, an SM's blocks run N_ab at a time, a run's warps are
// dealt round-robin to the N_cp core packages, a run lasts as long as its slowest core package,
// and T_k = t_p + (the slowest SM's total) / F. Equal core packages are simulated once.
// full_run_cycles and remaining_run_cycles then hold the longest full and remaining run.
// Distinct core packages are simulated in parallel (core_time is called from several threads);
// with `sampling`'s budget passed, a sample of the runs stands for the rest (RunSampling).
GridTiming time_grid_mixed(const gpus::Profile& gpu, const Launch& launch, double tp_us,
                           std::optional<std::uint32_t> uniform, const ProgramOfWarp& program_of,
                           const MixedCoreTime& core_time, const RunSampling& sampling = {});

}  // namespace warpsim::sim::grid

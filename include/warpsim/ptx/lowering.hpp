// PTX to kernel programs: emulates every warp of a launch, folds each warp's instruction stream
// into calc periods, memory instructions and loops (trace_folder.hpp), and keeps one program
// per distinct stream with the number of warps that run it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/ptx/assumptions.hpp"
#include "warpsim/ptx_syntax/ast.hpp"
#include "warpsim/ptx/emulator.hpp"
#include "warpsim/ptx/kernel_params.hpp"
#include "warpsim/ptx/sass_costs.hpp"
#include "warpsim/ptx/trace_folder.hpp"
#include "warpsim/ptx/warp_program_map.hpp"
#include "warpsim/isa/program.hpp"

namespace warpsim::ptx {

// The paper's calc-period rule: a period of n instructions without a global access lasts
// (n - 1) + 10 cycles. The lowering splits a period at its non-global accesses and barriers: each
// instruction lasts 1 cycle and the period's first item carries the 9 more (trace_folder.hpp).
inline constexpr std::int64_t kCalcPeriodExtraCycles = 9;
inline isa::Millicycles calc_period_duration(std::int64_t instructions) {
  return (instructions + kCalcPeriodExtraCycles) * isa::kMillicyclesPerCycle;
}
// A shared, local, const or texture access, or a barrier: one instruction of its calc period.
inline constexpr isa::Millicycles kInPeriodInstructionCycles = isa::kMillicyclesPerCycle;

// The default duration of a global load or store: the value the paper calibrated for its PTX
// case study (mtx_mul_vec, section 5.3). Override with --load-cycles / --store-cycles.
inline constexpr isa::Millicycles kDefaultMemoryCycles = 60'000;

// `--emulate-all` refuses more warps than this: emulating each would take minutes.
inline constexpr std::int64_t kMaxEmulatedWarps = std::int64_t{1} << 22;
// Launches up to CUDA's grid limit are taken, as long as their warps fit a 64-bit count.
inline constexpr std::int64_t kMaxLaunchWarps = std::int64_t{1} << 62;
// The fast lowering gives up (an error) beyond this many classes of blocks.
inline constexpr std::int64_t kMaxClasses = std::int64_t{1} << 24;
// Sampling (docs/ptx.md, "Sampling"): the warp-instructions an exact lowering may emulate when its
// warps do not share classes (each block its own path, as where lanes branch on values they
// compute); past it a sample of blocks is emulated. About 1-5 s of emulation on one core.
inline constexpr std::int64_t kDefaultSampleBudget = std::int64_t{1} << 23;
inline constexpr std::int64_t kMinSampledBlocks = 16;
inline constexpr std::int64_t kMaxSampledBlocks = 256;

// What the program does not say, per op of WarpProgram::program, for the reports of `lower` and
// `simulate` (no timing model reads it: the ops carry what they time).
struct OpNote {
  std::int64_t instructions = 0;  // calc: PTX instructions (0 for the `calc 9` that opens a period)
  bool opens_period = false;      // calc: the first item of a paper calc period (its duration adds 9 cycles)
  std::int32_t transactions = 0;  // load/store: sectors, or shared ways, or const addresses (Access), -1 unknown
  bool broadcast = false;         // load/store: Access::broadcast
  std::vector<LineCount> source;  // the PTX lines of its instructions (an op of a loop: its first iteration's)
  std::int32_t ideal = 0;         // load/store: Access::ideal (coalesced sectors, conflict-free passes; 0 unknown)
  std::int32_t same_address = 0;  // atomics, shared ones too: the most lanes on one address (Access::same_address)
};

struct WarpProgram {
  isa::Program program;
  std::vector<OpNote> notes;  // parallel to program.ops()
  std::int64_t warps = 0;
  std::int64_t first_warp = 0;  // global index (block-major) of the first warp running it
};

struct LoweringOptions {
  std::string kernel;  // entry name, mangled or short; empty: the only entry
  Dim3 grid;
  Dim3 block;
  ParameterEntries parameters;
  InputEntries inputs;  // what pointer parameters' buffers hold (--input); the rest stay unknown
  EmulatorOptions emulator;
  isa::Millicycles load_cycles = kDefaultMemoryCycles;
  isa::Millicycles store_cycles = kDefaultMemoryCycles;
  int threads = 0;  // worker threads for emulating warps (oneTBB); 0: all cores. The result is the same.
  // Emulate every warp and every loop iteration (today's reference path) instead of classes of
  // blocks and loops in closed form. The result is the same; this is the check.
  bool emulate_all = false;
  // Sampling (docs/ptx.md): `exact` emulates every class whatever the work; otherwise a launch
  // whose classes are single blocks and whose projected work passes `sample_budget`
  // warp-instructions is lowered from a seeded sample of its blocks (LoweredKernel::sampling).
  bool exact = false;
  std::int64_t sample_budget = kDefaultSampleBudget;
  std::uint64_t sample_seed = 1;
  // Sample how accesses re-read data (reuse_sampler.hpp) for the memory-aware model's cache
  // estimate; off, no access carries reuse.
  bool sample_reuse = true;
  // Merge adjacent aligned shared loads as ptxas does (shared_load_merging.hpp); off, the
  // shared loads stay as the PTX writes them.
  bool merge_shared_loads = true;
  // The kernel's SASS (nvdisasm of ptxas's cubin for the line-marked PTX, line_markers.hpp), and
  // the compute capability whose opcode table prices it (75 for sm_75): when set, each executed
  // PTX instruction costs what ptxas made of it (sass_costs.hpp); unset, the expansion table's
  // SASS in PTX order.
  std::shared_ptr<const sass::Listing> sass;
  int sass_compute_capability = 0;
  std::string sass_identity;  // what identifies `sass` (its content hash and architecture): the cache key's
  // Called now and then from the lowering's own thread with the work done and the work known so
  // far (in warp classes or blocks); for a progress line.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  // Called every 2^16 warp instructions of a warp, from the thread emulating it: where it is.
  std::function<void(const EmulationPlace&)> report_place;
  // When set and true, the lowering stops with an Interrupted exception (emulator.hpp).
  const std::atomic<bool>* cancel = nullptr;
};


// How a sampled lowering chose its blocks, and how uncertain the time it gives is.
struct Sampling {
  std::vector<std::int64_t> blocks;       // the blocks emulated (linear, x fastest), in draw order
  std::int64_t launch_blocks = 0;
  std::int64_t projected_instructions = 0;  // what the exact lowering projected when it stopped
  std::int64_t budget = 0;
  std::uint64_t seed = 0;
  std::string reason;                     // one line: why the launch was sampled
  // Per sampled block, the program of each of its warps: the timing times the launch as if every
  // block were this one, once per sampled block, and states the mean with its 95% interval.
  std::vector<std::vector<std::uint32_t>> programs;
};

struct LoweredKernel {
  std::string ptx_name;  // "_Z11mtx_mul_veciPfS_S_"
  std::string name;      // "mtx_mul_vec"
  Dim3 grid;
  Dim3 block;
  std::vector<WarpProgram> programs;         // in order of first appearance
  WarpProgramMap warp_programs;              // which program each warp runs (index into programs)
  std::int64_t emulated_classes = 0;         // warp emulations the lowering ran (classes, or warps)
  std::vector<Warning> warnings;
  UnknownBranchReport unknown_branches;
  GenericAsGlobalReport generic_as_global;
  std::vector<Assumption> assumptions;     // what the emulation assumed (assumptions.hpp)
  std::int64_t emulated_instructions = 0;  // warp instructions, all warps (loops multiplied out)
  // The warp instructions the emulator executed one at a time, over all its emulations (a class
  // once): its work. The rest of emulated_instructions came from classes, closed-form loops or
  // the sample's stand-ins.
  std::int64_t stepped_instructions = 0;
  BoundParameters parameters;              // the --param values as bound, for reports
  std::int64_t static_shared_bytes = 0;    // the entry's .shared variables (occupancy)
  std::optional<SassCoverage> sass;        // what the SASS stream priced, when LoweringOptions::sass was set
  std::optional<Sampling> sampling;        // set when a sample of blocks stood for the launch
  // How its timing may sample the launch's runs (grid::RunSampling, docs/ptx.md "Sampling"):
  // LoweringOptions' sample_budget (0 under `exact`: every run simulated) and sample_seed.
  std::int64_t run_sample_budget = 0;
  std::uint64_t run_sample_seed = 1;
};

// The entry named `name` (mangled or short), or the only one when `name` is empty. Throws
// InputError listing the entries otherwise.
std::uint32_t select_kernel(const Module& module, const std::string& name);

// Throws InputError for a bad launch, unbound parameters, or a warp that runs away.
LoweredKernel lower_kernel(const Module& module, const LoweringOptions& options);


}  // namespace warpsim::ptx

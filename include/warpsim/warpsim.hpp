// warpsim's C++ API: what the warpsim commands do, as functions over plain structs
// (docs/library.md). Link warpsim::warpsim (find_package(warpsim)).
//
// Every function throws warpsim::Error for bad input (a missing file, malformed PTX, an unknown
// GPU, a parameter out of range): error.location() has the file, line and column where known,
// and error.describe() the one-line message the CLI prints. The JSON of to_json() is what the
// matching command writes with --format json, key for key. A run stopped through Control::cancel
// throws warpsim::Cancelled.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/model.hpp"  // Model: memory-aware (default), or the paper's Algorithms 1-3 exactly

namespace warpsim {

using Error = InputError;  // the one exception type: message and SourceLocation (file, line, column)

// What a run stopped through Control::cancel throws (nothing was produced). A PTX lowering
// stopped while emulating says where: the instruction (location) and the warp and loop (activity,
// as Control::activity words it); elsewhere both are empty.
struct Cancelled : std::exception {
  SourceLocation location;
  std::string activity;
  const char* what() const noexcept override { return "warpsim: the run was cancelled"; }
};

// Kernel parameters as NAME=VALUE pairs, in order: a .kp `repeat NAME` count; for PTX a
// parameter by position ("0"), PTX name or C++ name, VALUE decimal or 0x hex.
using Parameters = std::vector<std::pair<std::string, std::string>>;

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
};

// How a long run reports progress and is stopped (both optional).
struct Control {
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  const std::atomic<bool>* cancel = nullptr;  // when set and true the run stops (Cancelled, or a stopped sweep)
  // A PTX lowering's emulation, now and then from its worker threads: where a warp is, e.g. "warp 3
  // of block (4,0,0), in the loop at line 120 (iteration 93102), at line 131".
  std::function<void(const std::string& activity)> activity;
};

// Options of the PTX frontend (docs/ptx.md).
struct PtxOptions {
  std::string kernel;                      // the .entry, mangled or short; empty: the only one
  std::int64_t unknown_trips = 1;          // a loop whose exit depends on loaded data leaves at this test
  bool unknown_branch_taken = false;       // other branches on loaded data: jump instead of falling through
  std::optional<std::int64_t> max_steps;   // emulated instructions per warp (default 2^28)
  bool emulate_all = false;                // the reference path: every warp and iteration (same result)
  // Sampling (docs/ptx.md): where each block follows its own path and emulating them all would
  // pass sample_budget warp-instructions, a seeded sample of blocks stands for the launch.
  bool exact = false;                      // never sample
  std::optional<std::int64_t> sample_budget;  // default 2^23
  std::optional<std::int64_t> sample_seed;    // default 1
  std::optional<double> load_cycles;       // duration of a global load (default 60)
  std::optional<double> store_cycles;      // and of a store (default 60)
  // What pointer parameters' buffers hold, by name or position (--input PARAM=SPEC): zeros,
  // const:V, uniform:LOW:HIGH or file:PATH (docs/ptx.md, "Input contents"); others stay unknown.
  Parameters inputs;
};

// A .cu kernel as nvcc compiled it to PTX (where nvcc runs: $WARPSIM_NVCC, else nvcc on PATH).
struct CompiledSource {
  std::string command;  // "nvcc -ptx -lineinfo -arch=sm_90 [flags] ./k.cu -o CACHE/nvcc/HASH.ptx"
  bool cached = false;  // the PTX of an earlier identical compilation, nvcc not run
  std::string arch;     // "sm_90"
  std::string note;     // when another architecture stood in for the GPU's (nvcc 13 starts at sm_75)
};

// What the reports of lower, predict, app, calibrate and evaluate are rendered from (the run's
// own data, held by the result and read only by the to_* functions below).
namespace detail {
struct LowerReport;
struct PredictReport;
struct AppReport;
struct CalibrateReport;
struct EvaluateReport;
}  // namespace detail

// Views of one core package's run, rendered when asked for.
struct Views {
  std::string timeline_svg;  // per-warp timeline (SVG); empty unless asked for
  std::string trace_json;    // Chrome trace / Perfetto events; empty unless asked for
};

// ---- warpsim core: T_c of one core package (Algorithm 2) ----
struct CoreRequest {
  std::string program;                     // a .kp file, or a built-in kernel program: dwt_matrix, dwt_lattice
  std::int64_t warps = 1;                  // N_w
  std::optional<double> tm;                // cycles; default the program's `tm`, then the GPU's (memory model)
  Parameters params;
  std::optional<std::string> gpu;          // prices annotated accesses (memory model)
  std::optional<std::int64_t> block_warps; // warps per block, for barriers (default: all)
  // nullopt: kDefaultModel (pipes) with a gpu; without one the memory model (pipes prices
  // instructions per GPU), which times a program without annotations as Algorithm 2 does.
  std::optional<Model> model;
  std::optional<std::int64_t> max_instructions;
  bool timeline = false, trace = false;    // render Views
};
struct CoreResult {
  std::string kernel;
  std::int64_t warps = 0;
  double tm = 0;      // cycles
  double cycles = 0;  // T_c
  Views views;
};
CoreResult run_core(const CoreRequest& request);
nlohmann::ordered_json to_json(const CoreResult& result);
std::string to_text(const CoreResult& result);

// ---- warpsim simulate: T_k of a kernel on a GPU for a launch (Algorithm 1) ----
struct SimulateRequest {
  std::string program;  // a .kp program, a .ptx kernel, a .cu (nvcc -ptx for the GPU), or a built-in kernel program: dwt_matrix, dwt_lattice
  std::string gpu;      // profile id or path to a .toml
  Dim3 grid;            // blocks
  Dim3 block;           // threads per block
  std::optional<double> tp_us;  // default: the profile's [calibration.<kernel>]
  std::optional<double> tm;     // cycles; default: the calibration, then the program's `tm`
  Parameters params;
  Model model = kDefaultModel;
  std::optional<std::int64_t> max_instructions;
  PtxOptions ptx;
  std::optional<std::int64_t> registers;  // PTX, memory model: registers per thread (default: ptxas -v, else 32)
  std::string ptxas = "ptxas";            // the ptxas to run for registers and the SASS, or "none"
  std::string nvdisasm = "nvdisasm";      // the nvdisasm that lists the SASS (the pipes model's stream), or "none": PTX order
  bool use_cache = true;                  // false (--no-cache): run ptxas (and nvcc) again, not the cached answer
  std::string nvcc_flags;                 // a .cu kernel: nvcc's extra flags, split as a shell would ("-DN=4 -I inc")
  std::int64_t dynamic_shared_bytes = 0;  // PTX, memory model: the launch's dynamic shared memory per block (occupancy)
  bool timeline = false, trace = false;
  bool explain = false;                   // SimulateResult::explanation (the pipes model only)
  Control control;                        // the PTX lowering's progress and Ctrl-C
};
// Algorithm 1's plan of the launch (MODEL.md section 5).
struct GridPlan {
  std::int64_t blocks_per_sm = 0, warps_per_block = 0, core_packages_per_sm = 0, active_blocks_per_sm = 0;
  std::int64_t warps_per_core_package = 0, full_runs = 0, remaining_blocks = 0, remaining_warps_per_core_package = 0;
};
// What a PTX kernel's lowering found and assumed.
struct Assumption {
  std::string kind, message, file;
  int line = 0, column = 0;
  std::int64_t count = 0;
};
// Which instruction stream the pipes model timed (docs/sass.md): the SASS ptxas emits, or the PTX
// in PTX order when the tools are missing or fail.
struct InstructionStream {
  std::string timed;                    // "sass" or "ptx"
  std::string arch;                     // the SASS's architecture, "sm_80" ("" for ptx)
  std::string ptxas_version, nvdisasm_version;  // "13.0.88", "13.5.37" ("" when unknown)
  std::string note;                     // why PTX order, or which architecture stands in; "" otherwise
  std::int64_t sass_instructions = 0;   // of the functions priced, padding left out
  std::int64_t without_line = 0;        // SASS naming no PTX line (charged to the instruction before)
  std::int64_t blocks = 0, unmapped_blocks = 0, unrolled_blocks = 0;  // PTX basic blocks: all, priced by the PTX table, copied by ptxas
  std::int64_t loads = 0;               // loads whose use distance the SASS scoreboards give
};
// A launch lowered from a sample of its blocks (docs/ptx.md, "Sampling"): which, why, and the
// 95% interval of the time the sample gives.
struct SampledLaunch {
  std::vector<std::int64_t> blocks;  // the blocks emulated (linear index, x fastest), in draw order
  std::int64_t launch_blocks = 0;
  std::string reason;
  std::int64_t projected_instructions = 0, budget = 0, seed = 0;
  double time_us_low = 0, time_us_high = 0;  // per launch
  // Above 1: the launch runs in one wave and the upper end allows for blocks costlier than any
  // sampled, by this factor (docs/ptx.md, "Sampling").
  double unseen_block_ratio = 1;
};
// A launch whose distinct runs were too many to simulate within the budget (docs/ptx.md,
// "Sampling"): a seeded sample of its runs was simulated, the rest took the sample's mean.
struct SampledRuns {
  std::int64_t runs = 0, sampled_runs = 0;              // distinct runs; of them drawn and simulated
  std::int64_t packages = 0, simulated_packages = 0;   // distinct core packages; of them simulated
  std::int64_t projected_ops = 0, budget = 0, seed = 0;  // simulating every distinct package would take
  double time_us_low = 0, time_us_high = 0;              // per launch, 95%
};
struct PtxReport {
  std::optional<std::int64_t> registers_per_thread;  // memory model: for occupancy
  std::string registers_source;                       // "--regs", "ptxas -v (sm_75)", "default", ...
  std::int64_t static_shared_bytes = 0;
  std::int64_t warp_programs = 0, unknown_branches = 0, emulated_instructions = 0, emulated_classes = 0;
  nlohmann::ordered_json parameters;  // PTX name -> the value given, "pointer", or null (unknown)
  std::string parameters_line;        // the same as text: "parameters: 0 = 64, 1 = pointer"
  std::vector<Assumption> assumptions;
  std::optional<InstructionStream> stream;  // the pipes model only
  std::optional<SampledLaunch> sampled;     // set when a sample of blocks stood for the launch
  std::optional<SampledRuns> sampled_runs;  // set when a sample of runs stood for the rest
};
// What limits a prediction under the pipes model (docs/model.md, "What limits it"): how busy each
// resource of the core package shown (core package 0 of SM 0's first run) was over its T_c, and
// the binding limit of the launch.
struct Limits {
  double package_cycles = 0;  // T_c of that core package
  // Busy time over T_c, in [0, 1]: "issue", each pipe that worked ("fp32", ...), "memory" (the
  // memory front end: LSU/MIO passes), "shared" (its shared-memory part), "dram" (the package's
  // share of DRAM bandwidth). In this order.
  std::vector<std::pair<std::string, double>> utilisation;
  double launch_overhead_share = 0;  // t_p over T_k
  double tail_share = 0;             // the remaining run's cycles over T_k's cycles
  std::string limiter;               // "fp64 pipe", "issue", "memory front end", "DRAM bandwidth",
                                     // "latency", "tail wave", "launch overhead"
  std::string reason;                // one line: the figure that names it
};

// What `warpsim occupancy` reports (its request and function are below); `explain` reports it too.
struct OccupancyResult {
  std::string gpu, compute_capability;
  std::int64_t threads_per_block = 0, registers_per_thread = 0;
  std::string registers_source;    // "--regs", "ptxas -v (sm_80)", "default", ...
  std::int64_t static_smem_bytes = 0;
  std::string static_smem_source;  // "none", "ptx" or "--smem"
  std::int64_t dynamic_smem_bytes = 0;
  std::int64_t active_blocks_per_sm = 0;
  std::string limited_by;                     // warps, blocks, registers or shared_memory
  std::vector<std::string> limiting_factors;  // every limit that gives active_blocks_per_sm
  std::int64_t by_warps = 0, by_blocks = 0;
  std::optional<std::int64_t> by_registers, by_shared_memory;  // nullopt: no limit
  std::int64_t warps_per_block = 0, registers_per_block = 0, shared_memory_per_block = 0, shared_memory_per_sm = 0;
  std::int64_t active_warps_per_sm = 0, max_warps_per_sm = 0;
  double occupancy = 0;               // active over maximum warps
  std::vector<std::string> warnings;  // why registers took the default, one line each
  std::optional<CompiledSource> compiled;  // for a .cu kernel
};

// Why a prediction takes that long (`warpsim explain`, `simulate --explain`; docs/explain.md): the
// pipes model's core package 0 of SM 0's first run, simulated once more instruction by instruction.
struct ExplainResource {
  std::string name;  // "issue", "fp32", ..., "memory" (front end), "shared", "dram"
  double busy = 0;   // share of the core package's T_c, in [0, 1]
  std::string peak;  // its peak on this GPU, in words: "2 results/clock/SM"
};
struct WaitShare {
  std::string cause;     // selected, dependency, pipe_busy, memory, barrier, not_selected
  double share = 0;      // of the warps' time (all causes add up to 1)
  double cycles_per_warp = 0;
};
struct HotLine {
  std::string file;  // the .ptx or .kp file, or the CUDA source a `.loc` names
  int line = 0;
  double share = 0;        // of the warps' time
  double warp_cycles = 0;  // summed over the core package's warps
  std::string text;        // the line itself, where the file can be read
};
// One SASS instruction's share of the warps' time (explain under the SASS stream): its PTX line's
// time split evenly over the SASS instructions ptxas made of that line.
struct HotSass {
  std::string function;  // the section's symbol
  std::int64_t offset = 0;  // byte offset in the function
  std::string text;      // "@P0 FFMA R29, R29, R27, R28"
  int ptx_line = 0;
  double share = 0, warp_cycles = 0;
  int stall = 0;               // the control bits' stall count
  std::string waits_on, sets;  // scoreboards: "SB0 SB2" waited on before issuing; "SB1" released by its result
};
struct OccupancyCurve {
  std::string axis;  // "block_size" (threads), "registers" (per thread), "shared_memory" (bytes per block)
  std::vector<std::pair<std::int64_t, double>> points;  // (value, active warps over the maximum)
  std::int64_t kernel_value = 0;                         // the kernel's own point on that axis
};
struct Roofline {
  double warp_instructions = 0;  // issued by core package 0's warps
  double dram_bytes = 0;         // their DRAM traffic (the package's DRAM time at its share of bandwidth)
  double global_bytes = 0;       // their global/local sectors (L1 to L2), 32 bytes each
  double intensity = 0;          // warp-instructions per DRAM byte (0: no DRAM traffic)
  double achieved_gips = 0;      // 10^9 warp-instructions a second over the GPU's busy SMs
  double peak_gips = 0;          // issue roof: one a clock per warp scheduler
  double dram_gbs = 0;           // bandwidth roof
  double ridge = 0;              // intensity where the roofs meet
  std::string bound;             // "memory" or "compute": which side of the ridge the kernel is
};
// What to change (explain's guided advice; docs/explain.md, "Findings"): one cause, where it is,
// the numbers that show it, and the speed-up of the same launch re-simulated with that cause
// removed (never a rule of thumb). Findings under 1.05x are not reported.
struct Finding {
  // bank_conflicts, uncoalesced, atomic_contention, local_memory, fp64, branch_divergence,
  // occupancy_registers, occupancy_shared_memory, occupancy_block_size, tail_effect, too_few_warps
  std::string kind;
  std::string message;                 // one sentence in the engineer's words
  std::string file;                    // the PTX (or .kp) file; empty with line 0: the launch as a whole
  int line = 0;
  std::string source_file;             // the CUDA line the PTX's `.loc` names (nvcc -lineinfo); empty without
  int source_line = 0;
  std::string source_text;             // that line, where the file can be read
  std::vector<std::string> sass;       // the SASS instructions ptxas made of the PTX line (the SASS stream)
  std::vector<std::pair<std::string, double>> evidence;  // named figures, in order
  std::string change;                  // what the re-simulation changed
  double time_us = 0;                  // the launch re-simulated with the change
  double speedup = 0;                  // the prediction's time over time_us
};
struct Explanation {
  std::vector<Finding> findings;       // most speed-up first
  std::vector<ExplainResource> speed_of_light;
  std::string limiter, reason;  // as Limits
  std::string sentence;         // one sentence of why, with the binding resource's peak
  std::vector<WaitShare> waits;
  std::vector<HotLine> ptx_lines;     // every line with time, most time first
  std::vector<HotLine> source_lines;  // the CUDA lines of `.loc` (nvcc -lineinfo); empty without
  std::vector<HotSass> sass_lines;    // under the SASS stream: its instructions with time, most first
  double package_cycles = 0;
  std::int64_t warps = 0;  // on the core package
  OccupancyResult occupancy;
  std::vector<OccupancyCurve> occupancy_curves;  // block_size, registers, shared_memory
  Roofline roofline;
};

struct SimulateResult {
  std::string gpu, kernel;
  double time_us = 0;  // T_k
  double cycles = 0;
  double tp_us = 0, tm = 0, clock_mhz = 0;
  std::int64_t blocks = 0, threads = 0;  // the launch: blocks and threads per block
  GridPlan plan;
  double full_run_cycles = 0, remaining_run_cycles = 0;
  Model model = kDefaultModel;
  std::optional<PtxReport> ptx;       // for a .ptx (or .cu) kernel
  std::optional<CompiledSource> compiled;  // for a .cu kernel
  std::vector<std::string> warnings;  // the lowering's, one line each
  Views views;
  std::optional<Limits> limits;       // under the pipes model
  std::optional<Explanation> explanation;  // when asked for (SimulateRequest::explain)
};
SimulateResult simulate(const SimulateRequest& request);
nlohmann::ordered_json to_json(const SimulateResult& result);
std::string to_text(const SimulateResult& result);
// With an explanation: a self-contained HTML report (its charts inline), and its charts alone.
std::string to_html(const SimulateResult& result);
std::string occupancy_svg(const Explanation& explanation, const OccupancyCurve& curve);
std::string roofline_svg(const Explanation& explanation);

// ---- warpsim explain AFTER --baseline BEFORE: two kernels (or two versions of one) on the same
// launch and GPU, side by side (docs/explain.md, "Before and after") ----
struct BaselineRequest {
  SimulateRequest after;   // the kernel as changed (explain's PROGRAM); explained
  SimulateRequest before;  // the baseline: the same launch, GPU and options, another program or --kernel
};
struct ResourceChange {
  std::string resource;           // speed of light's: "issue", "fp32", ..., "dram"
  double before = 0, after = 0;   // busy shares of T_c (0: not used by that kernel)
};
struct LineChange {
  std::string before_place, after_place;  // "file:line" (the CUDA line, else the PTX line); empty: not in that kernel
  std::string text;                       // the line's code, which matched it
  double before_us = 0, after_us = 0;     // its share of the warps' time times the kernel's time
};
struct BaselineComparison {
  SimulateResult before, after;  // both explained
  double speedup = 0;            // before's time over after's (above 1: the change made it faster)
  std::vector<ResourceChange> resources;  // in speed-of-light order
  std::vector<LineChange> lines;          // lines matched by their code, most moved (in us) first
  std::string moved_most;                 // one sentence: the time, and what moved most
};
// Throws as simulate does, and InputError when the two launches differ (explain both apart).
BaselineComparison compare_with_baseline(const BaselineRequest& request);
nlohmann::ordered_json to_json(const BaselineComparison& comparison);  // {"before", "after": simulate's JSON, ...}
std::string to_text(const BaselineComparison& comparison);
std::string to_html(const BaselineComparison& comparison);           // the comparison, then the after kernel's report

// ---- warpsim simulate --set: what if a figure of the GPU or of the kernel were another ----
// Each change is "FIGURE=VALUE": FIGURE a GPU profile figure by its TOML key (clock_mhz, sm_count,
// memory_bandwidth_gbs, ...; aliases sms and dram_bandwidth_gbs) or a kernel figure (registers:
// per thread, PTX under the memory-aware models; shared: the launch's dynamic shared memory in
// bytes, PTX); VALUE a number (the new value), xK (K times the baseline's) or P% (P percent of it).
struct WhatIfRequest {
  SimulateRequest simulation;        // the baseline run
  std::vector<std::string> changes;  // "FIGURE=VALUE", applied in order
};
struct FigureChange {
  std::string figure, given;        // "sm_count", "50%"
  double baseline = 0, value = 0;   // the figure in the baseline run, and in the what-if run
};
struct WhatIfResult {
  SimulateResult baseline, changed;  // both runs in full
  std::vector<FigureChange> changes;
  double speedup = 0;                // baseline time over the what-if time (above 1: the change is faster)
};
// Throws Error for a malformed change (an unknown figure lists the known ones) before anything runs.
WhatIfResult what_if(const WhatIfRequest& request);
std::vector<std::string> what_if_figures();  // every FIGURE name, the kernel's first
// {"gpu", "kernel", "changes": [{"figure", "given", "baseline", "value"}], "baseline_time_us",
// "what_if_time_us", "speedup", "baseline": {simulate's JSON}, "what_if": {simulate's JSON}}
nlohmann::ordered_json to_json(const WhatIfResult& result);
std::string to_text(const WhatIfResult& result);

// ---- warpsim simulate --gpu a,b,...: one kernel on several GPUs side by side ----
struct GpuTime {
  std::string gpu;
  double time_us = 0, cycles = 0;
  double speedup = 0;     // the first GPU's time over this one's (above 1: faster than the first)
  std::string limiter;    // --model pipes: what limits it (Limits::limiter); empty under the other models
  SimulateResult result;  // the whole run
};
struct GpuComparison {
  std::string kernel;
  Model model = kDefaultModel;
  std::vector<GpuTime> gpus;  // in the order asked
};
// "a100,h100,rtx2080" (ids or profile paths, each once), or "all": every built-in profile, by id.
std::vector<std::string> parse_gpu_list(const std::string& text);
// Whether a --gpu value is a list (a comma, or "all") rather than one GPU.
bool is_gpu_list(const std::string& text);
// The request (its gpu unused) simulated on each GPU; the first error stops it.
GpuComparison compare_gpus(const SimulateRequest& request, const std::vector<std::string>& gpus);
// {"kernel", "model", "gpus": [{"gpu", "time_us", "cycles", "speedup", "limiter" (null when none)}]}
nlohmann::ordered_json to_json(const GpuComparison& comparison);
std::string to_text(const GpuComparison& comparison);  // a table, times rounded to nanoseconds
std::string to_csv(const GpuComparison& comparison);   // gpu,kernel,model,time_us,cycles,speedup,limiter at full precision
std::string to_svg(const GpuComparison& comparison);   // a bar chart of time per GPU

// ---- warpsim lower: PTX to per-warp kernel programs ----
struct LowerRequest {
  std::string ptx;  // a .ptx file, or a .cu (compiled for sm_75, the oldest architecture nvcc 13 knows)
  Dim3 grid, block;
  Parameters params;
  PtxOptions options;
  Control control;
  std::string nvcc_flags;  // a .cu kernel: nvcc's extra flags
  bool use_cache = true;   // false: run nvcc (and ptxas) again
  // A GPU (profile id or file): the programs carry the SASS of its architecture, as the pipes
  // model's simulate times them (docs/sass.md); empty: the PTX's own counts in PTX order.
  std::string gpu;
  std::string ptxas = "ptxas", nvdisasm = "nvdisasm";  // with `gpu`: the tools, or "none"
};
struct LowerResult {
  std::string kernel;                 // the .entry lowered (short name)
  std::optional<CompiledSource> compiled;  // for a .cu kernel
  std::int64_t warp_programs = 0;     // distinct per-warp programs
  std::vector<std::string> warnings;  // one line each
  std::shared_ptr<const detail::LowerReport> report;
};
LowerResult lower(const LowerRequest& request);
nlohmann::ordered_json to_json(const LowerResult& result);  // `warpsim lower --format json`
std::string to_kp(const LowerResult& result);               // `warpsim lower`: the annotated .kp text

// ---- warpsim launch: the paper's launch heuristic (Algorithm 3) ----
struct LaunchPlan {
  std::string gpu;
  std::int64_t total_threads = 0;
  std::int64_t blocks = 0;
  std::int64_t threads = 0;  // per block
  int rule = 0;              // which of Algorithm 3's rules chose it
};
LaunchPlan plan_launch(const std::string& gpu, std::int64_t total_threads);
nlohmann::ordered_json to_json(const LaunchPlan& plan);
std::string to_text(const LaunchPlan& plan);

// ---- warpsim launch --search: the block size of least predicted time ----
// Every multiple of the GPU's warp size up to its max_threads_per_block is a candidate: a 1-D
// launch of ceil(N / T) blocks of T threads, simulated as `simulate` does. A size whose launch
// cannot run (its grid above 2^31-1 blocks; under the memory-aware model an occupancy of no block
// per SM, from the kernel's registers and shared memory) is listed with the reason and no time.
// The kernel a search without a program times: the paper's matrix DWT (workloads/dwt/matrix.kp,
// built in), K = 8 unless params give K.
inline constexpr const char* kDefaultSearchProgram = "dwt_matrix";
inline constexpr std::int64_t kDefaultSearchFilterLength = 8;
struct BlockSearchRequest {
  std::int64_t total_threads = 0;  // N
  // The kernel (empty program: kDefaultSearchProgram), GPU and options of every simulation: program, gpu, tp_us, tm, params, model,
  // max_instructions, ptx, registers, ptxas. Its grid and block are the candidates'; its
  // timeline, trace and control are not used.
  SimulateRequest simulation;
  Control control;  // progress: block sizes simulated of all; cancel stops the run (Cancelled)
};
struct BlockCandidate {
  std::int64_t threads = 0;  // per block
  std::int64_t blocks = 0;
  std::optional<double> time_us;  // T_k; nullopt when the launch cannot run (`reason`)
  double cycles = 0;
  std::int64_t active_blocks_per_sm = 0, active_warps_per_sm = 0;  // Algorithm 1's N_ab, and its warps
  std::string reason;  // why the launch cannot run
  bool best = false;
};
struct BlockSizeSearch {
  std::string gpu, kernel;
  std::int64_t total_threads = 0;
  Model model = kDefaultModel;
  std::optional<std::int64_t> registers_per_thread;  // PTX, memory model: what occupancy used
  std::string registers_source;
  std::int64_t static_shared_bytes = 0;
  std::vector<BlockCandidate> candidates;  // by block size, ascending
  std::size_t best = 0;                    // the fastest candidate; of equal times the smallest block
  LaunchPlan algorithm3_plan;              // Algorithm 3's choice for N threads, for comparison,
  BlockCandidate algorithm3;               // and its launch simulated the same way
  std::vector<std::string> warnings;       // the lowerings', each once
};
// Throws Error for bad input, as simulate does, and when no candidate can run (the smallest one's reason).
BlockSizeSearch search_block_size(const BlockSearchRequest& request);
nlohmann::ordered_json to_json(const BlockSizeSearch& search);
std::string to_text(const BlockSizeSearch& search);
std::string to_csv(const BlockSizeSearch& search);  // one row per candidate, full precision

// ---- warpsim predict: one point of a built-in DWT workload ----
struct PredictRequest {
  std::string workload;  // dwt_matrix, dwt_lattice, dwt2d_matrix, dwt2d_lattice
  std::string gpu;
  std::int64_t K = 0, N = 0;
  std::optional<double> tp_us, tm;
  Model model = kDefaultModel;
};
// The sweep row of the point.
struct PredictResult {
  double time_us = 0;  // every launch's T_k
  std::int64_t blocks = 0, threads = 0, launches = 0;  // each launch, by Algorithm 3
  std::shared_ptr<const detail::PredictReport> report;
};
PredictResult predict(const PredictRequest& request);
nlohmann::ordered_json to_json(const PredictResult& result);  // `warpsim predict --format json`
std::string to_text(const PredictResult& result);             // its text table

// ---- warpsim sweep: every point of a suite, or the rows of a point list ----
enum class Format { text, csv, json };
struct SweepRequest {
  std::string suite;   // a suite .toml, or
  std::string points;  // a point list .csv (exactly one of the two)
  int jobs = 0;        // worker threads; 0: every core. The output is the same for any value.
  std::optional<Model> model;  // every workload under this model; unset: each one's `model`, else memory
  Control control;
};
struct SweepSummary {
  std::int64_t points = 0;  // delivered
  std::int64_t total = 0;
  bool stopped = false;     // Control::cancel was set before every point was delivered
  std::vector<std::string> warnings;  // "WORKLOAD POINT: MESSAGE", once per workload
};
// Streams the output in `format` to `write` as points finish, in order (constant memory for CSV
// and JSON); the pieces together are what `warpsim sweep --format F` writes. When stopped, the
// closing piece is not written.
SweepSummary sweep(const SweepRequest& request, Format format, const std::function<void(const std::string&)>& write);
// The whole output at once; throws Cancelled when cancelled.
std::string sweep(const SweepRequest& request, Format format);

// ---- warpsim app: a whole application on 1..M GPUs (docs/apps.md, seeds 000 and 003) ----
struct AppRequest {
  std::string app;  // an app .toml
  int jobs = 0;     // worker threads for the kernel steps; 0: every core. The output is the same for any value.
  std::optional<Model> model;  // every kernel step under this model; unset: each step's `model`, else memory
  Control control;
};
struct AppRowTime {
  std::string gpu;
  std::int64_t gpus = 1;  // M
  double total_us = 0, speedup = 0;
};
struct AppResult {
  std::vector<AppRowTime> rows;       // GPU, then M, then the axes (the reports have each step and axis)
  std::vector<std::string> warnings;  // "WORKLOAD POINT: MESSAGE", once per kernel step
  std::shared_ptr<const detail::AppReport> report;
};
AppResult run_app(const AppRequest& request);
nlohmann::ordered_json to_json(const AppResult& result);  // `warpsim app --format json`: {"app", "rows": [...]}
std::string to_csv(const AppResult& result);              // full precision
std::string to_text(const AppResult& result);             // rounded
std::string to_svg(const AppResult& result);              // `--chart`: time and speed-up against M

// ---- warpsim calibrate: fit t_p, t_m and durations to measured times ----
struct CalibrateRequest {
  std::string measured;  // a measurements CSV, with `workload`; or
  std::string points;    // a point list with time_us (then `workload` optionally picks the kernel)
  std::string gpu;
  std::string workload;  // built-in name, .kp or .ptx
  std::string fit;       // "tm,tp,d1": what to fit (empty: the default)
  std::string bounds;    // "tm=0:100,..."
  std::optional<double> tp_us, tm;
  std::optional<std::string> threads, grid, block;  // .kp/.ptx launch: numbers or axes, as in suites
  std::string kernel;    // .ptx entry
  std::vector<std::pair<std::string, std::string>> parameter_axes;  // AXIS -> parameter position or name
  std::string label;     // the workload's name in the CSV
  std::string section;   // the profile section to write
  std::int64_t max_evaluations = 3000;
  Model model = kDefaultModel;  // the timing model of every trial
};
enum class CalibrationFormat { toml, json, text };
struct CalibrateResult {
  std::string section;  // the profile section written: [calibration.<section>]
  double mean_error_before = 0, mean_error_after = 0;  // E (eq. 15) at the starting and at the fitted values
  std::shared_ptr<const detail::CalibrateReport> report;
};
CalibrateResult calibrate(const CalibrateRequest& request);
nlohmann::ordered_json to_json(const CalibrateResult& result);  // `--format json`
std::string to_toml(const CalibrateResult& result);  // the [calibration.<kernel>] section with its comments
std::string to_text(const CalibrateResult& result);

// ---- warpsim evaluate: accuracy of predictions against measurements (eq. 15-22) ----
struct EvaluateRequest {
  std::string predicted;  // a sweep CSV
  std::string measured;   // a measurements CSV
  std::vector<std::string> keys;  // empty: the parameter columns both files have
  std::string x = "N";
  std::optional<std::pair<std::string, std::string>> ratio;  // workloads A/B; default: the two, when two
  bool allow_missing = false;
};
struct EvaluateResult {
  std::int64_t experiments = 0, points = 0;  // joined: the experiments and their points
  std::shared_ptr<const detail::EvaluateReport> report;
};
EvaluateResult evaluate(const EvaluateRequest& request);
nlohmann::ordered_json to_json(const EvaluateResult& result);
std::string to_csv(const EvaluateResult& result);
std::string to_text(const EvaluateResult& result);
// The charts of `--charts DIR`: (file name, SVG) for every experiment and ratio, names unique.
std::vector<std::pair<std::string, std::string>> to_svg_charts(const EvaluateResult& result);

// ---- warpsim occupancy: active blocks per SM and what limits them ----
struct OccupancyRequest {
  std::string gpu;                                // profile id or path to a .toml
  Dim3 block;                                     // threads per block
  std::optional<std::int64_t> registers;          // per thread; default: ptxas -v on `ptx`, else 32 with a warning
  std::optional<std::int64_t> static_smem_bytes;  // default: the `ptx` kernel's .shared, else 0
  std::int64_t dynamic_smem_bytes = 0;            // the launch's
  std::string ptx;                                // the kernel's PTX, or a .cu (nvcc -ptx for the GPU) (optional)
  std::string nvcc_flags;                         // a .cu kernel: nvcc's extra flags
  std::string kernel;                             // with `ptx`: the entry (empty: the only one)
  std::string ptxas = "ptxas";                    // the ptxas to run for registers, or "none"
  bool use_cache = true;                          // false (--no-cache): run ptxas again
  // When set, each warning goes here as it arises (before an error the launch then gives),
  // instead of into OccupancyResult::warnings.
  std::function<void(const std::string&)> warn;
};
OccupancyResult occupancy(const OccupancyRequest& request);
nlohmann::ordered_json to_json(const OccupancyResult& result);
std::string to_text(const OccupancyResult& result);

// ---- warpsim gpus: the GPU profiles ----
struct GpuCalibration {
  double tp_us = 0, tm = 0;  // t_p in microseconds, t_m in cycles
};
struct HostFigures {  // a profile's [host]: each figure where it gives one
  std::optional<double> host_link_gbs, host_link_latency_us;
  std::optional<bool> shared_link;
  std::optional<double> network_gbs, network_latency_us;
  std::string source;
};
struct GpuProfile {
  std::string id, name, architecture, compute_capability, memory_type;
  double clock_mhz = 0;
  std::int64_t sm_count = 0, cores_per_sm = 0, core_packages_per_sm = 0, max_blocks_per_sm = 0, max_warps_per_sm = 0,
               max_threads_per_block = 0, warp_size = 0;
  std::map<std::string, double> figures;                 // the optional figures, by TOML key
  std::map<std::string, std::string> sources;            // figure key -> where it came from
  std::map<std::string, GpuCalibration> calibrations;    // kernel -> [calibration.<kernel>]
  std::optional<HostFigures> host;
};
GpuProfile gpu_profile(const std::string& id_or_path);  // `warpsim gpus ID`
std::vector<GpuProfile> gpu_profiles();                 // `warpsim gpus`: the built-in ones, by id
nlohmann::ordered_json to_json(const GpuProfile& gpu);
std::string to_text(const GpuProfile& gpu);  // each figure with its source
nlohmann::ordered_json to_json(const std::vector<GpuProfile>& gpus);
std::string to_text(const std::vector<GpuProfile>& gpus);  // one row per GPU

// ---- warpsim plot: sweep results as a line chart ----
struct PlotRequest {
  std::string results;               // a CSV with a header, e.g. a sweep's
  std::string x = "N", y = "time_us";  // the columns on the axes
  std::string by = "gpu,workload";   // comma-separated columns whose values name a series
  std::vector<std::string> where;    // "COLUMN=VALUE": keep only matching rows
  std::optional<std::string> title;  // default: "Y vs X"
  bool linear_x = false, linear_y = false;  // default logarithmic
};
struct ChartSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
  std::optional<std::size_t> colour, dash;  // with two or more `by` columns: by the first, and by the rest
};
struct Chart {
  std::string title, subtitle, x_label, y_label;
  bool log_x = true, log_y = true;
  std::vector<ChartSeries> series;  // in order of appearance
};
Chart plot(const PlotRequest& request);
std::string to_svg(const Chart& chart);

// ---- warpsim import: a profiler's kernel times as a measurements row ----
struct ImportRequest {
  std::string profile;  // the profiler's CSV output
  std::string from;     // nvprof or nsys
  std::string gpu, workload;
  Parameters params;    // key columns, e.g. K=8
  std::string kernel;   // the kernel whose name contains this (needed when there are several)
  std::int64_t launches = 1;  // time_us = launches x the per-launch time
};
struct Measurement {  // a row of the measurements CSV (docs/formats.md)
  std::string gpu, workload;
  Parameters parameters;
  double time_us = 0;
  std::int64_t samples = 0;
  std::optional<double> launch_us;  // cudaLaunchKernel's, when the profile lists it
};
struct ImportResult {
  Measurement row;
  std::string kernel;           // the profiler's name of the kernel
  bool median = false;          // per_launch_us is the median (else the average)
  double per_launch_us = 0;
};
ImportResult import_profile(const ImportRequest& request);
nlohmann::ordered_json to_json(const ImportResult& result);  // the row's fields, then kernel, median, per_launch_us
std::string to_csv(const ImportResult& result);  // the header and the row
// The CSV `path` with the row added; its header must be the row's.
std::string append_csv(const std::string& path, const ImportResult& result);
std::string to_text(const ImportResult& result);  // "'KERNEL': median X us per launch over N launches"

// ---- option values as the commands spell them ----
// Each throws Error naming `what` (the flag) when the text is not such a value.
// parse_model (memory or paper): warpsim/isa/model.hpp
Dim3 parse_dim3(const std::string& text, const std::string& what);   // B or X,Y,Z, positive
double parse_cycles(const std::string& text, const std::string& what);  // exact, at most three decimals
std::int64_t parse_count(const std::string& text, const std::string& what);  // a non-negative whole number
// .kp loop counts: whole non-negative values, each name once.
std::map<std::string, std::int64_t> parse_counts(const Parameters& params);
std::vector<std::string> parse_names(const std::string& text, const std::string& what);  // NAME,NAME,...: none empty

// ---- warpsim sweep --mpi: a sweep shared between the ranks of an MPI job (docs/cluster.md) ----
// MPI runs from construction to destruction, once per process. Only a build with
// -DWARPSIM_MPI=ON has it; elsewhere the constructor throws Error.
class MpiJob {
 public:
  MpiJob();
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  int rank() const;
  // Every rank calls it with the same request and predicts its share of the points; rank 0
  // gets every piece in `write`, in order (the output of one process), and the whole sweep's
  // summary. When any rank cannot read the input, every rank throws.
  SweepSummary sweep(const SweepRequest& request, Format format, const std::function<void(const std::string&)>& write) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpsim

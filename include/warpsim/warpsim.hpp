// warpsim's C++ API: what the warpsim commands do, as functions over plain structs
// (docs/library.md). Link warpsim::warpsim (find_package(warpsim)).
//
// Every function throws warpsim::Error for bad input (a missing file, malformed PTX, an unknown
// GPU, a parameter out of range): error.location() has the file, line and column where known,
// and error.describe() the one-line message the CLI prints. The JSON of to_json() is what the
// matching command writes with --format json, key for key.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/model.hpp"  // Model: memory-aware (default), or the paper's Algorithms 1-3 exactly

namespace warpsim {

using Error = InputError;  // the one exception type: message and SourceLocation (file, line, column)


// Kernel parameters as NAME=VALUE pairs, in order: a .kp `repeat NAME` count; for PTX a
// parameter by position ("0"), PTX name or C++ name, VALUE decimal or 0x hex.
using Parameters = std::vector<std::pair<std::string, std::string>>;

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
};

// How a long run reports progress and is stopped (both optional).
struct Control {
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  const std::atomic<bool>* cancel = nullptr;  // when set and true the run stops (ptx::Interrupted, or a stopped sweep)
};

// Options of the PTX frontend (docs/ptx.md).
struct PtxOptions {
  std::string kernel;                      // the .entry, mangled or short; empty: the only one
  std::int64_t unknown_trips = 1;          // a loop whose exit depends on loaded data leaves at this test
  bool unknown_branch_taken = false;       // other branches on loaded data: jump instead of falling through
  std::optional<std::int64_t> max_steps;   // emulated instructions per warp (default 2^28)
  bool emulate_all = false;                // the reference path: every warp and iteration (same result)
  std::optional<double> load_cycles;       // duration of a global load (default 60)
  std::optional<double> store_cycles;      // and of a store (default 60)
};

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
  Model model = Model::memory;
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
  std::string program;  // a .kp program or a .ptx kernel, or a built-in kernel program: dwt_matrix, dwt_lattice
  std::string gpu;      // profile id or path to a .toml
  Dim3 grid;            // blocks
  Dim3 block;           // threads per block
  std::optional<double> tp_us;  // default: the profile's [calibration.<kernel>]
  std::optional<double> tm;     // cycles; default: the calibration, then the program's `tm`
  Parameters params;
  Model model = Model::memory;
  std::optional<std::int64_t> max_instructions;
  PtxOptions ptx;
  std::optional<std::int64_t> registers;  // PTX, memory model: registers per thread (default: ptxas -v, else 32)
  std::string ptxas = "ptxas";            // the ptxas to run for registers, or "none"
  bool use_cache = true;                  // false (--no-cache): run ptxas again, not its cached answer
  bool timeline = false, trace = false;
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
struct PtxReport {
  std::optional<std::int64_t> registers_per_thread;  // memory model: for occupancy
  std::string registers_source;                       // "--regs", "ptxas -v (sm_75)", "default", ...
  std::int64_t static_shared_bytes = 0;
  std::int64_t warp_programs = 0, unknown_branches = 0, emulated_instructions = 0, emulated_classes = 0;
  nlohmann::ordered_json parameters;  // PTX name -> the value given, "pointer", or null (unknown)
  std::string parameters_line;        // the same as text: "parameters: 0 = 64, 1 = pointer"
  std::vector<Assumption> assumptions;
};
struct SimulateResult {
  std::string gpu, kernel;
  double time_us = 0;  // T_k
  double cycles = 0;
  double tp_us = 0, tm = 0, clock_mhz = 0;
  std::int64_t blocks = 0, threads = 0;  // the launch: blocks and threads per block
  GridPlan plan;
  double full_run_cycles = 0, remaining_run_cycles = 0;
  Model model = Model::memory;
  std::optional<PtxReport> ptx;       // for a .ptx kernel
  std::vector<std::string> warnings;  // the lowering's, one line each
  Views views;
};
SimulateResult simulate(const SimulateRequest& request);
nlohmann::ordered_json to_json(const SimulateResult& result);
std::string to_text(const SimulateResult& result);

// ---- warpsim lower: PTX to per-warp kernel programs ----
struct LowerRequest {
  std::string ptx;  // a .ptx file
  Dim3 grid, block;
  Parameters params;
  PtxOptions options;
  Control control;
};
struct LowerResult {
  nlohmann::ordered_json json;        // `warpsim lower --format json`
  std::string kp;                     // `warpsim lower` (annotated .kp text)
  std::vector<std::string> warnings;  // one line each
};
LowerResult lower(const LowerRequest& request);

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
  Control control;  // progress: block sizes simulated of all; cancel stops the run (ptx::Interrupted)
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
  Model model = Model::memory;
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
  Model model = Model::memory;
};
// The sweep row of the point: its JSON (`warpsim predict --format json`) and its text table.
struct PredictResult {
  nlohmann::ordered_json json;
  std::string text;
};
PredictResult predict(const PredictRequest& request);

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
// The whole output at once; throws Error when cancelled.
std::string sweep(const SweepRequest& request, Format format);

// ---- warpsim app: a whole application on 1..M GPUs (docs/apps.md, seeds 000 and 003) ----
struct AppRequest {
  std::string app;  // an app .toml
  int jobs = 0;     // worker threads for the kernel steps; 0: every core. The output is the same for any value.
  std::optional<Model> model;  // every kernel step under this model; unset: each step's `model`, else memory
  bool chart = false;  // render chart_svg
  Control control;
};
struct AppResult {
  nlohmann::ordered_json json;  // `warpsim app --format json`: {"app", "rows": [...]}
  std::string csv;              // full precision
  std::string text;             // rounded
  std::string chart_svg;        // `--chart`: time and speed-up against M (when asked for)
  std::vector<std::string> warnings;  // "WORKLOAD POINT: MESSAGE", once per kernel step
};
AppResult run_app(const AppRequest& request);

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
  Model model = Model::memory;  // the timing model of every trial
};
enum class CalibrationFormat { toml, json, text };
struct CalibrateResult {
  nlohmann::ordered_json json;  // `--format json`
  std::string toml;             // the [calibration.<kernel>] section with its comments
  std::string text;
};
CalibrateResult calibrate(const CalibrateRequest& request);

// ---- warpsim evaluate: accuracy of predictions against measurements (eq. 15-22) ----
struct EvaluateRequest {
  std::string predicted;  // a sweep CSV
  std::string measured;   // a measurements CSV
  std::vector<std::string> keys;  // empty: the parameter columns both files have
  std::string x = "N";
  std::optional<std::pair<std::string, std::string>> ratio;  // workloads A/B; default: the two, when two
  bool allow_missing = false;
  bool charts = false;  // render the SVG charts
};
struct EvaluateResult {
  nlohmann::ordered_json json;
  std::string csv;
  std::string text;
  std::vector<std::pair<std::string, std::string>> charts;  // (file name, SVG), names unique
};
EvaluateResult evaluate(const EvaluateRequest& request);

// ---- the output format of a command ----
// --format when given; else from the -o file's extension (`by_extension`: {".csv", "csv"}, ...);
// else `fallback`, or with `extension_required` an error for an -o file of another extension.
// Checked against `allowed`. Throws Error otherwise.
struct FormatRule {
  std::vector<std::pair<std::string, std::string>> by_extension;
  std::string fallback;
  std::vector<std::string> allowed;
  bool extension_required = false;
};
std::string choose_format(const std::optional<std::string>& format, const std::string& out, const FormatRule& rule);

}  // namespace warpsim

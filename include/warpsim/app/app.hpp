// Whole applications (docs/apps.md, seeds 000 and 003): an app file lists the steps of one run
// (host<->device copies, kernels, collectives between GPUs, CPU time) and the GPU counts M and
// axes to predict it at. This is its parsed form; app_run.hpp predicts it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/driver/suite.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/gpus/system_figures.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/workload/point_expression.hpp"

namespace warpsim::sim::app {

// The variable every app expression may read besides the axes: the number of GPUs.
inline constexpr std::string_view kGpuCount = "M";
inline constexpr std::int64_t kMaxGpuCount = 1 << 20;
// Rows (GPUs x counts x axis points) an app may have: they are held in memory with their steps.
inline constexpr std::int64_t kMaxAppRows = 1'000'000;

enum class StepKind { h2d, d2h, kernel, broadcast, scatter, gather, allreduce, alltoall, cpu };
// "h2d", "kernel", ...: the `kind` of outputs.
std::string_view kind_name(StepKind kind);

struct Step {
  StepKind kind = StepKind::cpu;
  std::string label;  // the step's `name`, else its kind or workload, unique within the app
  SourceLocation at;  // the [[step]] table
  // Bytes of a copy or collective, or a CPU step's microseconds when given as an expression.
  std::optional<workload::PointExpression> amount;
  std::optional<double> cpu_us;  // a CPU step's microseconds given as a number
  std::optional<workload::PointExpression> repeat;  // how many times the step runs (default once)
  // `overlap = true`: runs at the same time as the step before it (another CUDA stream or copy
  // engine), beyond seed 003's no-overlap sum: a run of such steps costs its longest member.
  bool overlaps_previous = false;
  // Kernel steps: the workload, and each of its axes as an expression over the app's axes and M.
  driver::SuiteWorkload kernel;
  std::vector<std::pair<std::string, workload::PointExpression>> bindings;
};

struct App {
  std::string source;
  std::string name;  // `name`, else the file's stem
  std::string description;
  std::vector<gpus::Profile> gpus;      // `gpu`: one profile or a list to compare
  gpus::SystemFigures system;           // [system]; each GPU's [host] fills what it leaves out
  std::vector<std::int64_t> gpu_counts; // [system] gpus = [...]: the values of M
  std::vector<driver::Axis> axes;       // [axes]
  std::vector<Step> steps;

  // The figures a GPU's rows use: the app's [system] over the profile's [host].
  gpus::SystemFigures figures(const gpus::Profile& gpu) const { return gpu.host.overridden_by(system); }
  std::int64_t row_count() const;  // GPUs x counts x axis points, saturating
};

// Throws InputError at the file's line and column for unknown keys, bad values, expressions
// over unknown axes, steps whose figures no table gives, and more than kMaxAppRows rows.
App parse_app(std::string_view toml_text, const std::string& source);
App load_app(const std::string& path);

}  // namespace warpsim::sim::app

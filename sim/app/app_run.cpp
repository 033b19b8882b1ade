#include "warpsim/app/app_run.hpp"

#include <algorithm>
#include <limits>

#include "warpsim/workload/timing_model.hpp"

namespace warpsim::sim::app {
namespace {

// Rows are numbered GPU, then M, then axis point (last fastest), over `counts`: the app's M
// values and, when they lack it, M = 1 for the speed-up's baseline.
struct RowSpace {
  const App& app;
  std::vector<std::int64_t> counts;
  std::int64_t points;

  std::int64_t total() const { return static_cast<std::int64_t>(app.gpus.size() * counts.size()) * points; }
  const gpus::Profile& gpu(std::int64_t row) const { return app.gpus[static_cast<std::size_t>(row / points / static_cast<std::int64_t>(counts.size()))]; }
  std::int64_t count(std::int64_t row) const { return counts[static_cast<std::size_t>(row / points % static_cast<std::int64_t>(counts.size()))]; }
  // What the row's expressions read: M, then the axes.
  void point(std::int64_t row, workload::Point& into) const {
    workload::Point axes;
    driver::axis_point(app.axes, row % points, axes);
    into.clear();
    into.emplace_back(std::string(kGpuCount), count(row));
    into.insert(into.end(), axes.begin(), axes.end());
  }
};

// "rtx2080 M=4 N=1024", for messages.
std::string describe_row(const gpus::Profile& gpu, const workload::Point& point) { return gpu.id + " " + workload::describe_point(point); }

// Every kernel step at every row, for the sweep engine (parallel, cached, in order).
class KernelPoints final : public driver::SweepPoints {
 public:
  KernelPoints(const RowSpace& rows, std::vector<const Step*> kernels) : rows_(rows), kernels_(std::move(kernels)) {}
  std::int64_t total() const override { return rows_.total() * static_cast<std::int64_t>(kernels_.size()); }
  SourceLocation location(std::int64_t index) const override { return step(index).at; }

  const driver::SuiteWorkload& fill(std::int64_t index, driver::SweepRow& row) const override {
    const Step& kernel = step(index);
    const std::int64_t row_index = index / static_cast<std::int64_t>(kernels_.size());
    workload::Point app_point;
    rows_.point(row_index, app_point);
    row.gpu = &rows_.gpu(row_index);
    row.workload = kernel.kernel.model.get();
    row.point.resize(kernel.bindings.size());
    for (std::size_t i = 0; i < kernel.bindings.size(); ++i) {
      const auto& [axis, expression] = kernel.bindings[i];
      try {
        row.point[i] = {axis, expression.evaluate(app_point)};
      } catch (const InputError& e) {
        throw InputError(e.location(), describe_row(*row.gpu, app_point) + ": " + e.what());
      }
    }
    return kernel.kernel;
  }

 private:
  const Step& step(std::int64_t index) const { return *kernels_[static_cast<std::size_t>(index % static_cast<std::int64_t>(kernels_.size()))]; }

  const RowSpace& rows_;
  std::vector<const Step*> kernels_;
};

// A step's expression at a row; negative values are errors at the expression.
std::int64_t evaluate(const workload::PointExpression& expression, const gpus::Profile& gpu, const workload::Point& point,
                      const std::string& what) {
  std::int64_t value = 0;
  try {
    value = expression.evaluate(point);
  } catch (const InputError& e) {
    throw InputError(e.location(), describe_row(gpu, point) + ": " + e.what());
  }
  if (value < 0) {
    throw InputError(expression.location(), describe_row(gpu, point) + ": " + what + " " + quote_for_message(expression.text()) +
                                                " is " + std::to_string(value) + ", below 0");
  }
  return value;
}

// A kernel step's prediction: its time, with the t_p of its first launch.
struct KernelTime {
  double time_us = 0;
  double tp_us = 0;
};

StepTime step_time(const Step& step, const KernelTime& kernel, const gpus::Profile& gpu, const gpus::SystemFigures& figures,
                   const workload::Point& point) {
  StepTime time;
  if (step.repeat) time.repeat = evaluate(*step.repeat, gpu, point, "repeat");
  const std::int64_t gpu_count = point.front().second;
  double once = 0;
  switch (step.kind) {
    case StepKind::kernel:  // repeated in one stream: each repeat after the first follows a launch
      time.time_us = workload::back_to_back_us(gpu, step.kernel.overrides.model, time.repeat, kernel.time_us, kernel.tp_us);
      return time;
    case StepKind::cpu: once = step.cpu_us ? *step.cpu_us : static_cast<double>(evaluate(*step.amount, gpu, point, "cpu_us")); break;
    case StepKind::h2d:
    case StepKind::d2h:
      time.bytes = evaluate(*step.amount, gpu, point, "bytes");
      once = copy_time_us(static_cast<double>(*time.bytes), gpu_count, figures);
      break;
    default:
      time.bytes = evaluate(*step.amount, gpu, point, std::string(kind_name(step.kind)) + " bytes");
      once = collective_time_us(step.kind, static_cast<double>(*time.bytes), gpu_count, figures);
  }
  time.time_us = once * static_cast<double>(time.repeat);
  return time;
}

}  // namespace

std::int64_t tree_rounds(std::int64_t gpu_count) {
  std::int64_t rounds = 0;
  while ((std::int64_t{1} << rounds) < gpu_count) ++rounds;
  return rounds;
}

double copy_time_us(double bytes, std::int64_t gpu_count, const gpus::SystemFigures& figures) {
  const double m = static_cast<double>(gpu_count);
  const double bw = figures.shared_link.value_or(false) ? *figures.host_link_gbs / m : *figures.host_link_gbs;
  return figures.host_link_latency_us.value_or(0) + (bytes / m) / (bw * 1e3);
}

double collective_time_us(StepKind kind, double bytes, std::int64_t gpu_count, const gpus::SystemFigures& figures) {
  const double m = static_cast<double>(gpu_count);
  const double latency = figures.network_latency_us.value_or(0);
  const double bw = *figures.network_gbs * 1e3;  // bytes per microsecond
  const double rounds = static_cast<double>(tree_rounds(gpu_count));
  switch (kind) {
    case StepKind::broadcast: return rounds * (latency + bytes / bw);
    case StepKind::allreduce: return 2 * rounds * (latency + bytes / bw);  // a tree reduce, then a tree broadcast
    case StepKind::scatter:  // the root sends M-1 shares in turn
    case StepKind::gather: return (m - 1) * (latency + (bytes / m) / bw);  // the root receives M-1 shares in turn
    case StepKind::alltoall: return (m - 1) * (latency + (bytes / m / m) / bw);  // M-1 rounds of pairwise exchange
    default: return 0;
  }
}

AppRun run_app(const App& app, const driver::SweepOptions& options) {
  RowSpace rows{app, app.gpu_counts, driver::axis_point_count(app.axes)};
  const bool baseline_listed = std::find(rows.counts.begin(), rows.counts.end(), 1) != rows.counts.end();
  if (!baseline_listed) rows.counts.push_back(1);
  std::vector<const Step*> kernels;
  for (const Step& step : app.steps) {
    if (step.kind == StepKind::kernel) kernels.push_back(&step);
  }

  AppRun run;
  std::vector<KernelTime> kernel_us;
  if (!kernels.empty()) {
    kernel_us.reserve(static_cast<std::size_t>(rows.total()) * kernels.size());
    const driver::SweepStats stats = driver::run_sweep(
        KernelPoints(rows, kernels),
        [&](const driver::SweepRow& row) { kernel_us.push_back({row.prediction.time_us, row.prediction.calibration.tp_us}); }, options);
    if (stats.stopped) throw InputError("interrupted");
    run.warnings = driver::warning_lines(stats);
  }

  std::vector<AppRow> all(static_cast<std::size_t>(rows.total()));
  workload::Point point;
  for (std::int64_t r = 0; r < rows.total(); ++r) {
    AppRow& row = all[static_cast<std::size_t>(r)];
    row.gpu = &rows.gpu(r);
    row.gpu_count = rows.count(r);
    rows.point(r, point);
    row.axes.assign(point.begin() + 1, point.end());
    const gpus::SystemFigures figures = app.figures(*row.gpu);
    std::size_t kernel = 0;
    double group_us = 0;  // the longest step of the current run of overlapping steps
    for (const Step& step : app.steps) {
      const bool is_kernel = step.kind == StepKind::kernel;
      const KernelTime us = is_kernel ? kernel_us[static_cast<std::size_t>(r) * kernels.size() + kernel++] : KernelTime{};
      row.steps.push_back(step_time(step, us, *row.gpu, figures, point));
      if (!step.overlaps_previous) {
        row.total_us += group_us;
        group_us = 0;
      }
      group_us = std::max(group_us, row.steps.back().time_us);
    }
    row.total_us += group_us;
  }
  const auto baseline_count = static_cast<std::int64_t>(std::find(rows.counts.begin(), rows.counts.end(), 1) - rows.counts.begin());
  const auto counts = static_cast<std::int64_t>(rows.counts.size());
  for (std::int64_t r = 0; r < rows.total(); ++r) {
    const std::int64_t gpu = r / rows.points / counts, axes = r % rows.points;
    const double baseline = all[static_cast<std::size_t>((gpu * counts + baseline_count) * rows.points + axes)].total_us;
    AppRow& row = all[static_cast<std::size_t>(r)];
    // Nothing done either way has no speed-up (0 / 0 would print as -nan).
    row.speedup = baseline == 0 && row.total_us == 0 ? std::numeric_limits<double>::quiet_NaN() : baseline / row.total_us;
  }
  for (std::int64_t r = 0; r < rows.total(); ++r) {
    const bool added_baseline = !baseline_listed && r / rows.points % counts == baseline_count;
    if (!added_baseline) run.rows.push_back(std::move(all[static_cast<std::size_t>(r)]));
  }
  return run;
}

}  // namespace warpsim::sim::app

// Measured kernel times from profiler output, for `warpsim import`: nvprof's CSV summary
// (`nvprof --csv --print-gpu-summary`, with its "API calls" rows when present) or trace
// (`--print-gpu-trace`), and nsys's kernel summary (`nsys stats --report cuda_gpu_kern_sum
// --format csv`, formerly gpukernsum), turned into a row of the measurements CSV
// (docs/formats.md, "Measurements").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpsim::sim::evaluate {

enum class Profiler { nvprof, nsys };

// "nvprof" or "nsys"; anything else is an InputError naming --from.
Profiler parse_profiler(const std::string& name);

struct KernelTime {
  std::string kernel;               // the name as the profiler wrote it
  double time_us = 0;               // per launch: the median where the file has one, else the average
  bool median = false;              // whether time_us is a median
  long long samples = 0;            // launches it summarises
  std::optional<double> launch_us;  // cudaLaunchKernel's median (else average) time, when listed
};

// Finds the profiler's tables in `text` (skipping nvprof's `==` lines, nsys's progress lines and
// other reports), honours units (nvprof's units row; nsys's "(ns)" headers) and picks the kernel
// whose name contains `kernel` (empty: the only kernel). Throws InputError with file and line for
// a malformed or mismatched file, no kernel, several matching kernels.
KernelTime read_profile(const std::string& text, const std::string& source, Profiler from, const std::string& kernel);

// One row of the measurements CSV: gpu,workload,<parameters>,time_us,samples[,launch_us].
struct MeasurementRow {
  std::string gpu;
  std::string workload;
  std::vector<std::pair<std::string, std::string>> parameters;  // e.g. (K, 8), (N, 1024)
  double time_us = 0;
  long long samples = 0;
  std::optional<double> launch_us;
};

// The header line and the data line, each ending in '\n'; numbers at full precision. Throws
// InputError for a parameter name that is not a plain name or is a column of its own (gpu,
// time_us, ...), or a value with a comma, quote or line break.
std::string measurement_header(const MeasurementRow& row);
std::string measurement_line(const MeasurementRow& row);

}  // namespace warpsim::sim::evaluate

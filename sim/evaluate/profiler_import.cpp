#include "warpsim/evaluate/profiler_import.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/evaluate/profiler_tables.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::sim::evaluate {
namespace {

enum class RowKind { kernel, api, other };

RowKind kind_of(const ProfilerTable& table, std::size_t row, int name) {
  if (const int type = table.find("Type"); type >= 0) {  // nvprof's summary
    const std::string& t = table.csv.rows[row][type];
    if (t == "API calls") return RowKind::api;
    if (t != "GPU activities") return RowKind::other;
  } else if (table.find("Num Calls") >= 0) {  // nsys's cuda_api_sum
    return RowKind::api;
  }
  // Memory copies and sets are not kernels: "[CUDA memcpy HtoD]", "[CUDA memset]".
  return table.csv.rows[row][name].rfind("[CUDA", 0) == 0 ? RowKind::other : RowKind::kernel;
}

// The per-launch statistic of a summary table: the median column when there is one, else the average.
int statistic_column(const ProfilerTable& table, bool& median) {
  const int med = std::max(table.find("Med"), table.find("Median"));
  median = med >= 0;
  if (median) return med;
  if (const int avg = table.find("Avg"); avg >= 0) return avg;
  if (const int average = table.find("Average"); average >= 0) return average;
  throw InputError(SourceLocation{table.csv.source, table.header_line, 0}, "the table has no median or average column");
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void check_flavour(const ProfilerTable& table, Profiler from) {
  const bool nvprof_shaped = !table.units.empty();
  if (nvprof_shaped == (from == Profiler::nvprof)) return;
  throw InputError(SourceLocation{table.csv.source, table.header_line, 0},
                   nvprof_shaped ? "this table has a units row, as nvprof writes: use --from nvprof"
                                 : "this table has no units row after its header, as nvprof always writes "
                                   "(is it nsys output? use --from nsys)");
}

void check_value(const std::string& what, const std::string& value) {
  if (value.empty() || value.find_first_of(",\"\r\n") != std::string::npos) {
    throw InputError(what + " " + quote_for_message(value) + ": expected a non-empty value without commas, quotes or line breaks");
  }
}

void check_parameter(const std::string& name, const std::string& value) {
  static const std::set<std::string> reserved = {"gpu", "workload", "time_us", "samples", "launch_us"};
  const bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                     std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!plain || reserved.count(name)) {
    throw InputError("--param " + quote_for_message(name) + ": expected a plain name other than gpu, workload, time_us, samples, launch_us");
  }
  check_value("--param " + name, value);
}

}  // namespace

Profiler parse_profiler(const std::string& name) {
  if (name == "nvprof") return Profiler::nvprof;
  if (name == "nsys") return Profiler::nsys;
  throw InputError("--from " + quote_for_message(name) + ": expected nvprof or nsys");
}

KernelTime read_profile(const std::string& text, const std::string& source, Profiler from, const std::string& kernel) {
  const std::vector<ProfilerTable> tables = find_profiler_tables(text, source);
  if (tables.empty()) {
    throw InputError(SourceLocation{source}, std::string("no ") + (from == Profiler::nvprof ? "nvprof" : "nsys") +
                                                 " table (a header row with a \"Name\" column and a time column)");
  }
  const std::string default_unit = from == Profiler::nsys ? "ns" : "";  // old nsys "Average": nanoseconds
  KernelTime out;
  std::set<std::string> names, matching;
  std::vector<double> durations;  // trace rows of the chosen kernel, microseconds
  int summary_rows = 0;
  for (const ProfilerTable& table : tables) {
    check_flavour(table, from);
    const int name = table.find("Name");
    for (std::size_t r = 0; r < table.csv.rows.size(); ++r) {
      const std::string& row_name = table.csv.rows[r][name];
      const RowKind kind = kind_of(table, r, name);
      const bool launch = row_name.rfind("cudaLaunchKernel", 0) == 0 || row_name == "cudaLaunch" ||
                          row_name.rfind("cuLaunchKernel", 0) == 0;  // nsys may add a suffix: cudaLaunchKernel_v7000
      if (kind == RowKind::api && launch && !out.launch_us) {
        bool median = false;
        const int column = statistic_column(table, median);
        out.launch_us = table.microseconds(r, column, default_unit);
      }
      if (kind != RowKind::kernel) continue;
      names.insert(row_name);
      if (row_name.find(kernel) == std::string::npos) continue;
      matching.insert(row_name);
      if (matching.size() > 1) continue;  // reported below, with every match
      if (const int duration = table.find("Duration"); duration >= 0) {  // a trace: one row per launch
        durations.push_back(table.microseconds(r, duration, default_unit));
        continue;
      }
      if (++summary_rows > 1) {
        throw InputError(SourceLocation{source, table.csv.lines[r], 0},
                         "a second summary row for kernel " + quote_for_message(row_name));
      }
      const int column = statistic_column(table, out.median);
      out.time_us = table.microseconds(r, column, default_unit);
      const int count = std::max({table.find("Instances"), table.find("Calls"), table.find("Count")});
      const double samples = count >= 0 ? table.number(r, count) : 0;
      if (samples > 1e15) {
        throw InputError(SourceLocation{source, table.csv.lines[r], 0}, table.csv.header[count] + " is not a plausible count");
      }
      out.samples = static_cast<long long>(samples);
    }
  }
  std::string list;
  for (const std::string& n : (matching.empty() ? names : matching)) list += (list.empty() ? "" : ", ") + quote_for_message(n);
  if (names.empty()) throw InputError(SourceLocation{source}, "no kernel in the profile");
  if (matching.empty()) throw InputError(SourceLocation{source}, "no kernel name contains " + quote_for_message(kernel) + " (kernels: " + list + ")");
  if (matching.size() > 1) {
    throw InputError(SourceLocation{source}, (kernel.empty() ? "several kernels; choose one with --kernel NAME: "
                                                             : "several kernels contain " + quote_for_message(kernel) + ": ") + list);
  }
  out.kernel = *matching.begin();
  if (!durations.empty()) {
    out.time_us = median_of(durations);
    out.median = true;
    out.samples = static_cast<long long>(durations.size());
  }
  if (!(out.time_us > 0) || !std::isfinite(out.time_us)) {
    throw InputError(SourceLocation{source}, "kernel " + quote_for_message(out.kernel) + " has time " + report::shortest(out.time_us) + " us");
  }
  return out;
}

std::string measurement_header(const MeasurementRow& row) {
  std::string out = "gpu,workload";
  for (const auto& [name, value] : row.parameters) {
    check_parameter(name, value);
    out += "," + name;
  }
  return out + ",time_us,samples" + (row.launch_us ? ",launch_us" : "") + "\n";
}

std::string measurement_line(const MeasurementRow& row) {
  check_value("--gpu", row.gpu);
  check_value("--workload", row.workload);
  std::string out = row.gpu + "," + row.workload;
  for (const auto& [name, value] : row.parameters) {
    check_parameter(name, value);
    out += "," + value;
  }
  out += "," + report::shortest(row.time_us) + "," + std::to_string(row.samples);
  if (row.launch_us) out += "," + report::shortest(*row.launch_us);
  return out + "\n";
}

}  // namespace warpsim::sim::evaluate

#include "warpsim/point_list/point_list.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/isa/text_list.hpp"
#include "warpsim/report/csv_table.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim::sim::driver {
namespace {

// The point's axis for parameter NAME. A PTX position ("3") would read as a number in the
// workload's parameter expressions, so it becomes an axis name of its own.
std::string axis_of(const std::string& name) {
  const bool position = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
  return position ? "position_" + name : name;
}

constexpr std::string_view kParamPrefix = "param:";
constexpr std::string_view kInputPrefix = "input:";  // a PTX kernel's buffer contents (--input)

std::optional<std::int64_t> whole_number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "256", "256x256" or "16x16x1" as a launch policy's "256", "256,256" or "16,16,1".
std::optional<std::string> launch_shape(const std::string& text) {
  std::string shape;
  std::size_t parts = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = std::min(text.find('x', start), text.size());
    const std::string_view part = std::string_view(text).substr(start, x - start);
    const std::optional<std::int64_t> value = whole_number(part);
    if (!value || *value < 1 || ++parts > 3) return std::nullopt;
    shape += (shape.empty() ? "" : ",") + std::to_string(*value);
    if (x == text.size()) return shape;
    start = x + 1;
  }
}

std::string output_name(const std::string& column) { return column == "time_us" ? "measured_time_us" : column; }

}  // namespace

// Reads the rows in order, making each distinct GPU and kernel launch once.
class PointListReader {
 public:
  explicit PointListReader(report::CsvTable table) : table_(std::move(table)) { list_.source = table_.source; }

  PointList read() {
    read_header();
    if (table_.rows.empty()) fail(1, "no points: the file has a header but no rows");
    for (std::size_t r = 0; r < table_.rows.size(); ++r) read_row(std::move(table_.rows[r]), table_.lines[r]);
    return std::move(list_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(SourceLocation{table_.source, line, 0}, message);
  }

  void read_header() {
    for (std::size_t i = 0; i < table_.header.size(); ++i) {
      const std::string& name = table_.header[i];
      const std::string output = output_name(name);
      if (std::find(list_.columns.begin(), list_.columns.end(), output) != list_.columns.end()) {
        fail(1, "column " + quote_for_message(output) + " appears twice");
      }
      list_.columns.push_back(output);
      if (name.starts_with(kParamPrefix)) {
        if (name.size() == kParamPrefix.size()) fail(1, "column 'param:' names no parameter (param:NAME)");
        params_.emplace_back(name.substr(kParamPrefix.size()), i);
      }
      if (name.starts_with(kInputPrefix)) {
        if (name.size() == kInputPrefix.size()) fail(1, "column 'input:' names no parameter (input:NAME)");
        inputs_.emplace_back(name.substr(kInputPrefix.size()), i);
      }
    }
    gpu_ = table_.column("gpu", "a point list needs gpu, kernel, grid and block");
    kernel_ = table_.column("kernel", "a point list needs gpu, kernel, grid and block");
    grid_ = table_.column("grid", "a point list needs gpu, kernel, grid and block");
    block_ = table_.column("block", "a point list needs gpu, kernel, grid and block");
    entry_ = optional_column("entry");
    tp_us_ = optional_column("tp_us");
    tm_ = optional_column("tm");
    model_ = optional_column("model");
    regs_ = optional_column("regs");
  }

  std::optional<std::size_t> optional_column(const std::string& name) const {
    const auto it = std::find(table_.header.begin(), table_.header.end(), name);
    if (it == table_.header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - table_.header.begin());
  }

  static const std::string& cell(const std::vector<std::string>& cells, std::optional<std::size_t> column) {
    static const std::string none;
    return column ? cells[*column] : none;
  }

  void read_row(std::vector<std::string> cells, int line) {
    PointRow row;
    row.line = line;
    row.gpu = &gpu(cells[gpu_], line);
    std::vector<std::string> given;  // the parameters, in column order
    for (const auto& [name, column] : params_) {
      if (cells[column].empty()) continue;
      const std::optional<std::int64_t> value = whole_number(cells[column]);
      if (!value) fail(line, "param:" + name + ": " + quote_for_message(cells[column]) + " is not a whole number");
      row.point.emplace_back(axis_of(name), *value);
      given.push_back(name);
    }
    row.workload = &workload(cells, line, given);
    row.cells = std::move(cells);
    list_.rows.push_back(std::move(row));
  }

  // A path relative to the point list's folder unless absolute.
  std::string resolve(const std::string& path) const {
    if (std::filesystem::path(path).is_absolute()) return path;
    return (std::filesystem::path(table_.source).parent_path() / path).string();
  }

  const gpus::Profile& gpu(const std::string& id, int line) {
    if (id.empty()) fail(line, "gpu is empty");
    if (const auto it = list_.gpus_.find(id); it != list_.gpus_.end()) return it->second;
    try {
      return list_.gpus_.emplace(id, gpus::load_profile(gpus::is_profile_path(id) ? resolve(id) : id)).first->second;
    } catch (const InputError& e) {
      if (!e.location().file.empty()) throw;  // the profile's own file and line
      fail(line, e.what());
    }
  }

  workload::LaunchPolicy launch(const std::vector<std::string>& cells, int line) const {
    workload::LaunchPolicy policy;
    for (const auto& [column, text, name] : {std::tuple{grid_, &policy.grid, "grid"}, std::tuple{block_, &policy.block, "block"}}) {
      const std::optional<std::string> shape = launch_shape(cells[column]);
      if (!shape) {
        fail(line, std::string(name) + " " + quote_for_message(cells[column]) +
                       ": expected X, XxY or XxYxZ of positive whole numbers (e.g. 256x256)");
      }
      *text = *shape;
    }
    return policy;
  }

  workload::ModelOverrides overrides(const std::vector<std::string>& cells, int line) const {
    workload::ModelOverrides overrides;
    if (const std::string& tp = cell(cells, tp_us_); !tp.empty()) {
      const std::optional<double> value = report::parse_number(tp);
      if (!value || !std::isfinite(*value) || *value < 0) fail(line, "tp_us " + quote_for_message(tp) + " is not a number of microseconds >= 0");
      overrides.tp_us = *value;
    }
    if (const std::string& tm = cell(cells, tm_); !tm.empty()) {
      const std::optional<double> value = report::parse_number(tm);
      if (!value) fail(line, "tm " + quote_for_message(tm) + " is not a number of cycles");
      try {
        overrides.tm = isa::cycles_from_double(*value);
      } catch (const std::invalid_argument& e) {
        fail(line, "tm " + quote_for_message(tm) + ": " + e.what());
      }
    }
    if (const std::string& model = cell(cells, model_); !model.empty()) {
      try {
        overrides.model = parse_model(model);
      } catch (const InputError& e) {
        fail(line, std::string("model: ") + e.what());
      }
    }
    return overrides;
  }

  // The row's kernel with its launch, parameters and calibration; rows that agree share one.
  const SuiteWorkload& workload(const std::vector<std::string>& cells, int line, const std::vector<std::string>& given) {
    workload::WorkloadSpec spec;
    const std::string& kernel = cells[kernel_];
    if (kernel.empty()) fail(line, "kernel is empty");
    spec.kind = kernel.ends_with(".ptx") || workload::is_cuda_source(kernel) ? workload::WorkloadKind::ptx
                : kernel.ends_with(".kp") ? workload::WorkloadKind::kp
                                          : workload::WorkloadKind::builtin;
    spec.source = spec.kind == workload::WorkloadKind::builtin ? kernel : resolve(kernel);
    spec.kernel = cell(cells, entry_);
    if (spec.kind != workload::WorkloadKind::ptx && !spec.kernel.empty()) fail(line, "entry is for .ptx kernels");
    if (spec.kind == workload::WorkloadKind::builtin) {
      if (!cells[grid_].empty() || !cells[block_].empty()) {
        fail(line, "the built-in workload " + quote_for_message(kernel) + " launches by Algorithm 3: leave grid and block empty");
      }
    } else {
      spec.launch = launch(cells, line);
    }
    std::string contents;  // the stated inputs, for the key
    for (const auto& [name, column] : inputs_) {
      if (cells[column].empty()) continue;
      if (spec.kind != workload::WorkloadKind::ptx) fail(line, "input:" + name + " is for .ptx kernels");
      // A file's path is the list's, as the kernel's is.
      const std::string& text = cells[column];
      try {
        spec.lowering.inputs.emplace_back(
            name, ptx::parse_input_contents(text.starts_with("file:") ? "file:" + resolve(text.substr(5)) : text, "input:" + name));
      } catch (const InputError& e) {
        fail(line, e.what());
      }
      contents += '\n' + name + '=' + spec.lowering.inputs.back().second.identity();
    }
    // Registers per thread for occupancy, as a suite's `regs`: a measurements file carries them.
    if (const std::string& regs = cell(cells, regs_); !regs.empty()) {
      const std::optional<std::int64_t> value = whole_number(regs);
      if (!value || *value < 1 || *value > workload::kMostRegistersPerThread) {
        fail(line, "regs " + quote_for_message(regs) + " is not a whole number in 1 .. " + std::to_string(workload::kMostRegistersPerThread));
      }
      if (spec.kind != workload::WorkloadKind::ptx) fail(line, "regs is for .ptx kernels");
      spec.registers.given = *value;
    }
    if (spec.kind == workload::WorkloadKind::ptx) {
      for (const std::string& name : given) {
        workload::ParameterAxis binding;
        binding.axis = axis_of(name);
        binding.parameter = name;
        binding.label = "param:" + name;  // errors name the column
        spec.params.push_back(std::move(binding));
      }
    }
    std::string key = kernel + '\n' + spec.kernel + '\n' + cells[grid_] + '\n' + cells[block_] + '\n' + join_commas(given) +
                      contents + "\nregs=" + cell(cells, regs_);
    const std::shared_ptr<const workload::WorkloadModel>& model = model_for(key, spec, line);
    check_parameters(*model, given, line);
    key += '\n' + cell(cells, tp_us_) + '\n' + cell(cells, tm_) + '\n' + cell(cells, model_);
    auto [it, added] = list_.workloads_.try_emplace(key);
    if (added) it->second = SuiteWorkload{model, {}, overrides(cells, line)};
    return it->second;
  }

  const std::shared_ptr<const workload::WorkloadModel>& model_for(const std::string& key, const workload::WorkloadSpec& spec, int line) {
    auto [it, added] = models_.try_emplace(key);
    if (!added) return it->second;
    try {
      it->second = workload::make_workload_model(spec);
    } catch (const InputError& e) {
      models_.erase(it);
      if (e.location().line > 0) throw;  // a line of the program itself
      fail(line, e.location().file.empty() ? e.what() : e.describe());
    }
    return it->second;
  }

  // The param: cells must give exactly the model's parameters (a PTX kernel's: those given).
  void check_parameters(const workload::WorkloadModel& model, const std::vector<std::string>& given, int line) const {
    const std::vector<std::string> axes = model.axes();
    std::vector<std::string> given_axes;
    for (const std::string& name : given) given_axes.push_back(axis_of(name));
    for (const std::string& name : given) {
      if (std::find(axes.begin(), axes.end(), axis_of(name)) == axes.end()) {
        fail(line, "param:" + name + " names no parameter of " + model.name() +
                       (axes.empty() ? " (it has none)" : " (it has " + join_commas(axes) + ")"));
      }
    }
    for (const std::string& axis : axes) {
      if (std::find(given_axes.begin(), given_axes.end(), axis) == given_axes.end()) {
        fail(line, model.name() + " needs a value in param:" + axis);
      }
    }
  }

  report::CsvTable table_;
  PointList list_;
  std::size_t gpu_ = 0, kernel_ = 0, grid_ = 0, block_ = 0;
  std::optional<std::size_t> entry_, tp_us_, tm_, model_, regs_;
  std::vector<std::pair<std::string, std::size_t>> params_;  // NAME and column of each param:NAME
  std::vector<std::pair<std::string, std::size_t>> inputs_;  // NAME and column of each input:NAME
  std::map<std::string, std::shared_ptr<const workload::WorkloadModel>> models_;
};

const SuiteWorkload& PointList::fill(std::int64_t index, SweepRow& row) const {
  const PointRow& point = rows[static_cast<std::size_t>(index)];
  row.gpu = point.gpu;
  row.workload = point.workload->model.get();
  row.point = point.point;
  row.cells = &point.cells;
  return *point.workload;
}

SourceLocation PointList::location(std::int64_t index) const {
  return {source, rows[static_cast<std::size_t>(index)].line, 0};
}

PointList parse_point_list(const std::string& text, const std::string& source) {
  return PointListReader(report::parse_csv(text, source)).read();
}

PointList load_point_list(const std::string& path) { return parse_point_list(read_text_file(path), path); }

}  // namespace warpsim::sim::driver

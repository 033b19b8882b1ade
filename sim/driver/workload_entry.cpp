#include "warpsim/driver/workload_entry.hpp"

#include <algorithm>
#include <filesystem>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/axis_values.hpp"
#include "warpsim/workload/workload_spec.hpp"

namespace warpsim::sim::driver {
namespace {

// A launch component: a whole number, or an expression over axes (docs/formats.md).
std::string launch_component(const gpus::TomlReader& toml, const toml::node& node, const std::string& key) {
  if (node.is_integer()) return std::to_string(toml.whole_number(node, key, 1, INT64_MAX));
  return toml.text(node, key);
}

void note_axis_reads(const workload::PointExpression& expression, WorkloadEntry& entry) {
  for (const std::string& axis : expression.axes()) entry.axis_reads.emplace(axis, WorkloadEntry::AxisRead{expression.location(), expression.text()});
}

// launch = { threads = "N" } | { threads = "N", block = 256 } | { threads = "N", block = [64, 128] }
//        | { grid = "ceil_div(N, 16)", block = "16,16" }. A list of block sizes becomes the axis "block".
workload::LaunchPolicy read_launch(const gpus::TomlReader& toml, const toml::node& node, WorkloadEntry& entry) {
  workload::LaunchPolicy policy;
  for (const auto& [key, value] : toml.table(node, "launch must be a table { threads, block, grid }")) {
    const std::string name = "launch." + std::string(key.str());
    if (key == "threads") {
      policy.threads = launch_component(toml, value, name);
      policy.threads_at = toml.text_start(value);
    } else if (key == "grid") {
      policy.grid = launch_component(toml, value, name);
      policy.grid_at = toml.text_start(value);
    } else if (key == "block" && value.is_array()) {
      policy.block = "block";
      entry.axes.axes["block"] = {read_axis_values(toml, value, "block"), &value};
    } else if (key == "block") {
      policy.block = launch_component(toml, value, name);
      policy.block_at = toml.text_start(value);
    } else {
      toml.fail(&value, "unknown key " + quote_for_message(key.str()) + " in launch (expected threads, block, grid)");
    }
  }
  try {
    const workload::LaunchFormula formula(policy);
    for (const workload::PointExpression* expression : formula.expressions()) note_axis_reads(*expression, entry);
  } catch (const InputError& e) {
    if (e.location().line > 0) throw;  // inside an expression
    toml.fail(&node, e.what());
  }
  return policy;
}

// calibration = "SECTION" | { section, tp_us, tm, d1, d2, ... }
workload::ModelOverrides read_calibration(const gpus::TomlReader& toml, const toml::node& node, Model model) {
  workload::ModelOverrides overrides;
  overrides.model = model;  // a `model` key read before the calibration
  if (node.is_string()) {
    overrides.section = toml.text(node, "calibration");
    return overrides;
  }
  for (const auto& [key, value] : toml.table(node, "calibration must be a section name or a table { tp_us, tm, d1, ... }")) {
    const std::string name = "calibration." + std::string(key.str());
    try {
      if (key == "section") {
        overrides.section = toml.text(value, name);
      } else if (key == "tp_us") {
        overrides.tp_us = toml.number(value, name);
        if (*overrides.tp_us < 0) toml.fail(&value, name + " cannot be negative");
      } else if (key == "tm") {
        overrides.tm = isa::cycles_from_double(toml.number(value, name));
      } else if (const std::size_t index = gpus::duration_index(key.str()); index > 0) {
        const isa::Millicycles d = isa::cycles_from_double(toml.number(value, name));
        if (d <= 0) toml.fail(&value, name + " must be positive");
        if (overrides.memory_durations.size() < index) overrides.memory_durations.resize(index);
        overrides.memory_durations[index - 1] = d;
      } else {
        toml.fail(&value, "unknown key " + quote_for_message(key.str()) + " in calibration (expected section, tp_us, tm, d1 .. d64)");
      }
    } catch (const std::invalid_argument& e) {  // cycles_from_double: more than three decimals
      toml.fail(&value, name + ": " + e.what());
    }
  }
  return overrides;
}

// params = ["N", "N / 2"] with param_names = { N = 0 }: each entry gives the kernel parameter
// that param_names maps it to (a position or a parameter name); else an axis name gives the
// parameter of its own name, and any other expression the parameter at its position in params.
std::vector<workload::ParameterAxis> read_parameter_axes(const gpus::TomlReader& toml, const toml::node* params,
                                                         const toml::node* param_names, WorkloadEntry& entry) {
  std::vector<workload::ParameterAxis> axes;
  if (params) {
    for (const toml::node& value : toml.non_empty_list(*params, "params")) {
      const std::string text = toml.text(value, "params entries");
      const workload::PointExpression expression(text, toml.text_start(value), "params entry");
      note_axis_reads(expression, entry);
      const std::string parameter = expression.is_axis_name() ? text : std::to_string(axes.size());
      axes.push_back({text, parameter, toml.text_start(value)});
    }
  }
  if (!param_names) return axes;
  for (const auto& [key, value] : toml.table(*param_names, "param_names must be a table { AXIS = POSITION or NAME }")) {
    const std::string axis(key.str());  // clang 14 cannot capture a structured binding
    const auto it = std::find_if(axes.begin(), axes.end(), [&](const auto& a) { return a.axis == axis; });
    if (it == axes.end()) toml.fail(&value, "param_names: " + quote_for_message(key.str()) + " is not one of params");
    const std::string name = "param_names." + std::string(key.str());
    it->parameter =
        value.is_integer() ? std::to_string(toml.whole_number(value, name, 0, INT32_MAX)) : toml.text(value, name);
  }
  return axes;
}

}  // namespace

Model read_model(const gpus::TomlReader& toml, const toml::node& value, const std::string& name) {
  try {
    return parse_model(toml.text(value, name));
  } catch (const InputError& e) {
    if (e.location().line > 0) throw;
    toml.fail(&value, name + ": " + e.what());
  }
}


std::string resolve_suite_path(const gpus::TomlReader& toml, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(toml.source()).parent_path() / p).string();
}

gpus::Profile read_gpu(const gpus::TomlReader& toml, const toml::node& entry, const std::string& key) {
  std::string id = toml.text(entry, key);
  if (gpus::is_profile_path(id)) id = resolve_suite_path(toml, id);
  try {
    return gpus::load_profile(id);
  } catch (const InputError& e) {
    if (!e.location().file.empty()) throw;  // the profile's own file and line
    toml.fail(&entry, e.what());
  }
}

WorkloadEntry read_named_entry(const gpus::TomlReader& toml, const toml::node& entry) {
  workload::WorkloadSpec spec;
  spec.source = toml.text(entry, "workloads entries");
  try {
    return {workload::make_workload_model(spec), {}, {}, false, {}};
  } catch (const InputError& e) {
    if (!e.location().file.empty()) throw;
    toml.fail(&entry, e.what());
  }
}

WorkloadEntry read_table_entry(const gpus::TomlReader& toml, const toml::node& node, const EntryTable& context) {
  const toml::table& table = toml.table(node, "each " + context.name + " must be a table");
  WorkloadEntry entry;
  workload::WorkloadSpec spec;
  int sources = 0;
  const toml::node* params = nullptr;
  const toml::node* inputs = nullptr;
  const toml::node* param_names = nullptr;
  const toml::node* launch_node = nullptr;
  const toml::node* nvcc_flags = nullptr;
  const toml::node* source_node = &node;
  const auto source = [&](workload::WorkloadKind kind, const toml::node& value, const std::string& key) {
    spec.kind = kind;
    spec.source = toml.text(value, key);
    source_node = &value;
    ++sources;
  };
  for (const auto& [key, value] : table) {
    const std::string k(key.str());
    if (context.claim && context.claim(k, value)) continue;
    if (k == "name") spec.name = toml.text(value, k);
    else if (k == "builtin" || (!context.builtin_alias.empty() && k == context.builtin_alias)) source(workload::WorkloadKind::builtin, value, k);
    else if (k == "kp") source(workload::WorkloadKind::kp, value, k);
    else if (k == "ptx") source(workload::WorkloadKind::ptx, value, k);
    else if (k == "kernel") spec.kernel = toml.text(value, k);
    else if (k == "params") params = &value;
    else if (k == "inputs") inputs = &value;
    else if (k == "param_names") param_names = &value;
    else if (k == "launch") launch_node = &value;
    else if (k == "emulate_all") spec.emulate_all = toml.boolean(value, k);
    else if (k == "regs") spec.registers.given = toml.whole_number(value, k, 1, workload::kMostRegistersPerThread);
    else if (k == "nvcc_flags") {
      nvcc_flags = &value;
      try {
        spec.nvcc.flags = workload::split_nvcc_flags(toml.text(value, k));
      } catch (const InputError& e) {
        toml.fail(&value, e.what());
      }
    }
    else if (k == "calibration") entry.overrides = read_calibration(toml, value, entry.overrides.model);
    else if (k == "model") {
      entry.model_given = true;
      entry.overrides.model = read_model(toml, value, k);
    }
    else if (k == "axes") {
      AxisTable own = read_axis_table(toml, value, "axes");
      own.axes.merge(entry.axes.axes);  // keeps the axis "block" of a launch.block = [..] read before
      entry.axes = std::move(own);
    } else {
      toml.fail(&value, "unknown key " + quote_for_message(k) + " in " + context.name +
                            " (expected name, builtin, kp, ptx, kernel, params, inputs, param_names, launch, emulate_all, regs, nvcc_flags, "
                            "calibration, model, axes" + context.more_keys + ")");
    }
  }
  if (sources != 1) {
    toml.fail(&node, "a " + context.name + " needs exactly one of builtin = \"dwt_matrix\", kp = \"FILE.kp\", ptx = \"FILE.ptx\"");
  }
  if (spec.kind != workload::WorkloadKind::ptx && (params || param_names || inputs)) {
    toml.fail(&node, "'kernel', 'params', 'inputs' and 'param_names' are for ptx workloads");
  }
  if (inputs) {  // { PARAM = "SPEC" }: what a buffer holds (--input); a file: path is the suite's
    for (const auto& [name, value] : toml.table(*inputs, "inputs must be a table { PARAM = \"zeros\" }")) {
      std::string text = toml.text(value, "inputs." + std::string(name.str()));
      if (text.starts_with("file:")) text = "file:" + resolve_suite_path(toml, text.substr(5));
      try {
        spec.lowering.inputs.emplace_back(std::string(name.str()), ptx::parse_input_contents(text, "inputs." + std::string(name.str())));
      } catch (const InputError& e) {
        toml.fail(&value, e.what());
      }
    }
  }
  if (nvcc_flags && !workload::is_cuda_source(spec.source)) toml.fail(nvcc_flags, "nvcc_flags is for a ptx workload given as CUDA source (ptx = \"FILE.cu\")");
  spec.params = read_parameter_axes(toml, params, param_names, entry);
  if (spec.kind != workload::WorkloadKind::builtin) spec.source = resolve_suite_path(toml, spec.source);
  if (launch_node) spec.launch = read_launch(toml, *launch_node, entry);
  try {
    entry.model = workload::make_workload_model(spec);
  } catch (const InputError& e) {
    if (e.location().line > 0) throw;  // a line of the program itself
    toml.fail(source_node, e.location().file.empty() ? e.what() : e.describe());
  }
  return entry;
}

}  // namespace warpsim::sim::driver

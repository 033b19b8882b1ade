// One workload of a suite, read from TOML: a name in `workloads = [...]`, or a [[workload]]
// table (docs/formats.md, "Suites").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/axis_values.hpp"
#include "warpsim/workload/model_overrides.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::driver {

struct WorkloadEntry {
  std::shared_ptr<const workload::WorkloadModel> model;
  AxisTable axes;  // the workload's own axes
  workload::ModelOverrides overrides;
  // Where an expression (launch, params) first reads each axis, and what it is: for the error
  // when no table gives the axis.
  struct AxisRead {
    SourceLocation at;
    std::string expression;
  };
  std::map<std::string, AxisRead> axis_reads;
};

// A path in a suite, relative to the suite's folder unless absolute.
std::string resolve_suite_path(const gpus::TomlReader& toml, const std::string& path);

// "dwt_matrix": a named workload on the suite's axes.
WorkloadEntry read_named_entry(const gpus::TomlReader& toml, const toml::node& entry);
// [[workload]] with builtin | kp | ptx, and name, kernel, params, param_names, launch, calibration, axes.
WorkloadEntry read_table_entry(const gpus::TomlReader& toml, const toml::node& entry);

}  // namespace warpsim::sim::driver

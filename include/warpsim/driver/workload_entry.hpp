// One workload of a suite, read from TOML: a name in `workloads = [...]`, or a [[workload]]
// table (docs/formats.md, "Suites").
#pragma once

#include <cstdint>
#include <functional>
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

// `model = "paper" | "memory"`, located on error.
Model read_model(const gpus::TomlReader& toml, const toml::node& value, const std::string& name);

struct WorkloadEntry {
  std::shared_ptr<const workload::WorkloadModel> model;
  AxisTable axes;  // the workload's own axes
  workload::ModelOverrides overrides;
  bool model_given = false;  // `model = "paper"` in the entry (else the suite's, else memory)
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

// A GPU of a suite or an app: a profile id, or a path to a .toml relative to the file's folder.
gpus::Profile read_gpu(const gpus::TomlReader& toml, const toml::node& entry, const std::string& key);

// "dwt_matrix": a named workload on the suite's axes.
WorkloadEntry read_named_entry(const gpus::TomlReader& toml, const toml::node& entry);
// A table that holds a workload among keys of its own (an app's [[step]]).
struct EntryTable {
  std::string name = "[[workload]]";  // in messages
  std::string more_keys;              // the caller's keys, added to the unknown-key message
  std::string builtin_alias;          // another key meaning `builtin` (a step's `workload`)
  // Offered every key first; true: the caller has read it.
  std::function<bool(const std::string& key, const toml::node& value)> claim;
};

// [[workload]] with builtin | kp | ptx, and name, kernel, params, param_names, launch, calibration, axes.
WorkloadEntry read_table_entry(const gpus::TomlReader& toml, const toml::node& entry, const EntryTable& table = {});

}  // namespace warpsim::sim::driver

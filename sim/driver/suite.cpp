#include "warpsim/driver/suite.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/isa/text_list.hpp"
#include "warpsim/driver/axis_values.hpp"
#include "warpsim/driver/workload_entry.hpp"

namespace warpsim::sim::driver {
namespace {

class SuiteParser {
 public:
  explicit SuiteParser(const std::string& source) : toml_(source) { suite_.source = source; }

  Suite parse(std::string_view text) {
    const toml::table root = toml_.parse(text);
    for (const auto& [key, node] : root) {
      if (key == "name") suite_.name = toml_.text(node, "name");
      else if (key == "description") suite_.description = toml_.text(node, "description");
      else if (key == "gpus") parse_gpus(node);
      else if (key == "workloads") named_entries_ = &node;
      else if (key == "workload") table_entries_ = &node;
      else if (key == "axes") parse_axes(node);
      else if (key == "model") model_ = read_model(toml_, node, "model");
      else toml_.fail(&node, "unknown key " + quote_for_message(key.str()) +
                                 " (expected name, description, gpus, model, workloads, [[workload]], axes)");
    }
    if (suite_.gpus.empty()) toml_.fail(nullptr, "the suite names no GPU ('gpus = [...]')");
    std::vector<std::pair<WorkloadEntry, const toml::node*>> entries;
    if (named_entries_) {
      for (const toml::node& entry : toml_.non_empty_list(*named_entries_, "workloads")) {
        entries.emplace_back(read_named_entry(toml_, entry), &entry);
      }
    }
    if (table_entries_) {
      const toml::array* tables = table_entries_->as_array();
      if (tables == nullptr) toml_.fail(table_entries_, "'workload' must be an array of tables: [[workload]]");
      for (const toml::node& entry : *tables) entries.emplace_back(read_table_entry(toml_, entry), &entry);
    }
    if (entries.empty()) toml_.fail(nullptr, "the suite names no workload ('workloads = [...]' or [[workload]])");
    std::set<std::string> used;  // a suite axis no workload reads is a typo
    for (const auto& [entry, node] : entries) {
      for (const std::string& axis : entry.model->axes()) used.insert(axis);
    }
    for (const auto& [name, axis] : suite_axes_.axes) {
      if (!used.contains(name)) toml_.fail(axis.node, "axis " + quote_for_message(name) + " is used by no workload of the suite");
    }
    for (auto& [entry, node] : entries) add_workload(std::move(entry), *node);
    if (suite_.point_count() > kMaxSweepPoints) {
      toml_.fail(nullptr, "the suite has " + std::to_string(suite_.point_count()) +
                              " points, above the limit of " + std::to_string(kMaxSweepPoints) + " (split it into smaller suites)");
    }
    return std::move(suite_);
  }

 private:
  Model model_ = kDefaultModel;

  void parse_gpus(const toml::node& node) {
    for (const toml::node& entry : toml_.non_empty_list(node, "gpus")) suite_.gpus.push_back(read_gpu(toml_, entry, "gpus entries"));
  }

  void parse_axes(const toml::node& node) { suite_axes_ = read_axis_table(toml_, node, "[axes]"); }

  // Each of the model's axes from the workload's own axes, else the suite's. The axes of a zip
  // follow the first of them that the model reads, and advance with it.
  void add_workload(WorkloadEntry entry, const toml::node& node) {
    if (!entry.model_given) entry.overrides.model = model_;  // the suite's `model`, else memory
    SuiteWorkload workload{std::move(entry.model), {}, std::move(entry.overrides)};
    const std::vector<std::string> needed = workload.model->axes();
    std::vector<const AxisTable*> tables;  // where each needed axis comes from
    for (const std::string& name : needed) {
      if (entry.axes.axes.contains(name)) {
        tables.push_back(&entry.axes);
      } else if (suite_axes_.axes.contains(name)) {
        tables.push_back(&suite_axes_);
      } else {
        const std::string what = "workload " + quote_for_message(workload.model->name()) + " needs axis " +
                                 quote_for_message(name) + ": give it in [axes] or in the workload's own axes";
        const auto read = entry.axis_reads.find(name);
        if (read == entry.axis_reads.end()) toml_.fail(&node, what);
        throw InputError(read->second.at, what + " (read by " + quote_for_message(read->second.expression) + ")");
      }
    }
    std::vector<bool> added(needed.size());
    for (std::size_t i = 0; i < needed.size(); ++i) {
      if (added[i]) continue;
      workload.axes.push_back(Axis{needed[i], tables[i]->axes.at(needed[i]).values});
      if (!tables[i]->zipped(needed[i])) continue;
      for (std::size_t j = i + 1; j < needed.size(); ++j) {
        if (tables[j] != tables[i] || !tables[i]->zipped(needed[j])) continue;
        workload.axes.push_back(Axis{needed[j], tables[j]->axes.at(needed[j]).values, true});
        added[j] = true;
      }
    }
    for (const auto& own_axis : entry.axes.axes) {
      const std::string& name = own_axis.first;  // not a structured binding: clang 14 cannot capture those
      const auto& given = workload.axes;
      if (std::none_of(given.begin(), given.end(), [&](const Axis& a) { return a.name == name; })) {
        toml_.fail(&node, "workload " + quote_for_message(workload.model->name()) + " has no axis " +
                              quote_for_message(name) + " (its axes: " + join_commas(workload.model->axes(), "none") + ")");
      }
    }
    suite_.workloads.push_back(std::move(workload));
  }

  gpus::TomlReader toml_;
  Suite suite_;
  const toml::node* named_entries_ = nullptr;
  const toml::node* table_entries_ = nullptr;
  AxisTable suite_axes_;
};

}  // namespace

std::int64_t axis_point_count(const std::vector<Axis>& axes) {
  double count = 1;
  for (const Axis& axis : axes) {
    if (!axis.zipped) count *= static_cast<double>(axis.values.size());
  }
  return count > 9e18 ? INT64_MAX : static_cast<std::int64_t>(count);
}

void axis_point(const std::vector<Axis>& axes, std::int64_t index, workload::Point& into) {
  into.resize(axes.size());
  for (std::size_t end = axes.size(); end > 0;) {
    std::size_t first = end - 1;  // a zip's axes share one digit of the index
    while (axes[first].zipped) --first;
    const auto size = static_cast<std::int64_t>(axes[first].values.size());
    for (std::size_t i = first; i < end; ++i) {
      if (!workload::same_axis_name(into[i].first, axes[i].name)) into[i].first = axes[i].name;
      into[i].second = axes[i].values[static_cast<std::size_t>(index % size)];
    }
    index /= size;
    end = first;
  }
}

std::int64_t SuiteWorkload::point_count() const { return axis_point_count(axes); }

workload::Point SuiteWorkload::point(std::int64_t index) const {
  workload::Point point;
  this->point(index, point);
  return point;
}

void SuiteWorkload::point(std::int64_t index, workload::Point& into) const { axis_point(axes, index, into); }

std::vector<std::string> Suite::axis_names() const {
  std::vector<std::string> names;
  for (const SuiteWorkload& workload : workloads) {
    for (const Axis& axis : workload.axes) {
      if (std::find(names.begin(), names.end(), axis.name) == names.end()) names.push_back(axis.name);
    }
  }
  return names;
}

std::int64_t Suite::point_count() const {
  double points = 0;
  for (const SuiteWorkload& workload : workloads) points += static_cast<double>(workload.point_count());
  points *= static_cast<double>(gpus.size());
  return points > 9e18 ? INT64_MAX : static_cast<std::int64_t>(points);
}

Suite parse_suite(std::string_view toml_text, const std::string& source) {
  return SuiteParser(source).parse(toml_text);
}

Suite load_suite(const std::string& path) { return parse_suite(read_text_file(path), path); }

void use_model(Suite& suite, Model model) {
  for (SuiteWorkload& workload : suite.workloads) workload.overrides.model = model;
}

}  // namespace warpsim::sim::driver

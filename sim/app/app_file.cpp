#include <algorithm>
#include <filesystem>
#include <set>

#include "warpsim/app/app.hpp"
#include "warpsim/driver/axis_values.hpp"
#include "warpsim/driver/workload_entry.hpp"
#include "warpsim/gpus/system_figures_toml.hpp"
#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/isa/text_list.hpp"

namespace warpsim::sim::app {
namespace {

constexpr std::pair<std::string_view, StepKind> kCollectives[] = {
    {"broadcast", StepKind::broadcast}, {"scatter", StepKind::scatter}, {"gather", StepKind::gather}, {"allreduce", StepKind::allreduce}, {"alltoall", StepKind::alltoall}};

bool needs_host_link(StepKind kind) { return kind == StepKind::h2d || kind == StepKind::d2h; }
bool needs_network(StepKind kind) {
  return kind == StepKind::broadcast || kind == StepKind::scatter || kind == StepKind::gather || kind == StepKind::allreduce ||
         kind == StepKind::alltoall;
}

class AppParser {
 public:
  explicit AppParser(const std::string& source) : toml_(source) { app_.source = source; }

  App parse(std::string_view text) {
    const toml::table root = toml_.parse(text);
    const toml::node* steps = nullptr;
    const toml::node* gpu = nullptr;
    for (const auto& [key, node] : root) {
      if (key == "name") app_.name = toml_.text(node, "name");
      else if (key == "description") app_.description = toml_.text(node, "description");
      else if (key == "gpu") gpu = &node;
      else if (key == "system") parse_system(node);
      else if (key == "axes") axes_ = driver::read_axis_table(toml_, node, "[axes]");
      else if (key == "step") steps = &node;
      else toml_.fail(&node, "unknown key " + quote_for_message(key.str()) + " (expected name, description, gpu, [system], [axes], [[step]])");
    }
    if (!gpu) toml_.fail(nullptr, "the app names no GPU (gpu = \"rtx2080\", or a list)");
    if (app_.name.empty()) app_.name = std::filesystem::path(app_.source).stem().string();
    parse_gpus(*gpu);
    if (app_.gpu_counts.empty()) app_.gpu_counts = {1};
    order_axes();
    if (!steps) toml_.fail(nullptr, "the app has no step ([[step]] tables: copy, workload, broadcast, ...)");
    const toml::array* tables = steps->as_array();
    if (!tables || tables->empty()) toml_.fail(steps, "'step' must be a non-empty array of tables: [[step]]");
    for (const toml::node& node : *tables) app_.steps.push_back(parse_step(node));
    check_axes_used();
    check_figures();
    if (app_.row_count() > kMaxAppRows) {
      toml_.fail(nullptr, "the app has " + std::to_string(app_.row_count()) + " rows, above the limit of " +
                              std::to_string(kMaxAppRows) + " (split it into smaller apps)");
    }
    return std::move(app_);
  }

 private:
  void parse_gpus(const toml::node& node) {
    if (!node.is_array()) return app_.gpus.push_back(driver::read_gpu(toml_, node, "gpu"));
    for (const toml::node& entry : toml_.non_empty_list(node, "gpu")) app_.gpus.push_back(driver::read_gpu(toml_, entry, "gpu entries"));
  }

  void parse_system(const toml::node& node) {
    for (const auto& [key, value] : toml_.table(node, "[system] must be a table")) {
      if (key == "gpus") parse_gpu_counts(value);
      else if (!gpus::read_system_figure(toml_, key.str(), value, app_.system)) {
        toml_.fail(&value, "unknown key " + quote_for_message(key.str()) + " in [system] (expected gpus, " +
                               gpus::system_figure_keys() + ")");
      }
    }
  }

  void parse_gpu_counts(const toml::node& node) {
    app_.gpu_counts = driver::read_axis_values(toml_, node, "gpus");
    std::set<std::int64_t> seen;
    for (const std::int64_t m : app_.gpu_counts) {
      if (m < 1 || m > kMaxGpuCount) toml_.fail(&node, "gpus: " + std::to_string(m) + " is out of range [1, " + std::to_string(kMaxGpuCount) + "]");
      if (!seen.insert(m).second) toml_.fail(&node, "gpus: " + std::to_string(m) + " is given twice");
    }
  }

  // The axes in name order (TOML tables are unordered), a zip's members together after the first.
  void order_axes() {
    for (const auto& [name, axis] : axes_.axes) {
      if (name == kGpuCount) toml_.fail(axis.node, "M is the number of GPUs ([system] gpus); name the axis otherwise");
      if (axes_.zipped(name) && name != axes_.zip.front()) continue;
      if (!axes_.zipped(name)) {
        app_.axes.push_back({name, axis.values});
        continue;
      }
      for (const std::string& member : axes_.zip) {
        app_.axes.push_back({member, axes_.axes.at(member).values, member != axes_.zip.front()});
      }
    }
  }

  // An integer or an expression over the axes and M.
  workload::PointExpression expression(const toml::node& node, const std::string& what) {
    const std::string text = node.is_integer() ? std::to_string(toml_.whole_number(node, what, 0, INT64_MAX)) : toml_.text(node, what);
    workload::PointExpression parsed(text, toml_.text_start(node), what);
    check_variables(parsed, what);
    return parsed;
  }

  void check_variables(const workload::PointExpression& expression, const std::string& what) {
    for (const std::string& name : expression.axes()) {
      if (name != kGpuCount && !axes_.axes.contains(name)) {
        std::vector<std::string> names;
        for (const driver::Axis& axis : app_.axes) names.push_back(axis.name);
        throw InputError(expression.location(), what + " reads " + quote_for_message(name) + ", which is not an axis (axes: " +
                                                    join_commas(names, "none") + "; and M, the number of GPUs)");
      }
      read_axes_.insert(name);
    }
  }

  Step parse_step(const toml::node& node) {
    const toml::table& table = toml_.table(node, "each [[step]] must be a table");
    Step step;
    step.at = toml_.text_start(node);
    for (const char* key : {"workload", "builtin", "kp", "ptx"}) {
      if (table.contains(key)) {
        parse_kernel_step(node, step);
        return labelled(std::move(step), table.contains("name"));
      }
    }
    const toml::node* bytes = nullptr;
    const toml::node* kind_node = nullptr;
    const auto set_kind = [&](StepKind kind, const toml::node& value) {
      if (kind_node) toml_.fail(&value, "a [[step]] is one of copy, workload (builtin, kp, ptx), broadcast, scatter, gather, allreduce, alltoall, cpu_us");
      step.kind = kind;
      kind_node = &value;
    };
    for (const auto& [key, value] : table) {
      const std::string k(key.str());
      const auto collective = std::find_if(std::begin(kCollectives), std::end(kCollectives), [&](const auto& c) { return c.first == k; });
      if (k == "name") {
        step.label = toml_.text(value, k);
        if (step.label.empty()) toml_.fail(&value, "name cannot be empty");
      } else if (k == "repeat") {
        step.repeat = expression(value, "repeat");
      } else if (k == "overlap") {
        read_overlap(step, value);
      } else if (k == "copy") {
        const std::string direction = toml_.text(value, k);
        if (direction != "h2d" && direction != "d2h") toml_.fail(&value, "copy must be \"h2d\" or \"d2h\"");
        set_kind(direction == "h2d" ? StepKind::h2d : StepKind::d2h, value);
      } else if (k == "bytes") {
        bytes = &value;
      } else if (collective != std::end(kCollectives)) {
        set_kind(collective->second, value);
        step.amount = expression(value, k + " bytes");
      } else if (k == "cpu_us") {
        set_kind(StepKind::cpu, value);
        if (value.is_string()) step.amount = expression(value, k);
        else {
          step.cpu_us = toml_.number(value, k);
          if (*step.cpu_us < 0) toml_.fail(&value, "cpu_us cannot be negative");
        }
      } else {
        toml_.fail(&value, "unknown key " + quote_for_message(k) +
                               " in [[step]] (expected one of copy (with bytes), workload, builtin, kp, ptx, broadcast, "
                               "scatter, gather, allreduce, alltoall, cpu_us; and name, repeat, overlap)");
      }
    }
    if (!kind_node) toml_.fail(&node, "a [[step]] needs one of copy, workload (builtin, kp, ptx), broadcast, scatter, gather, allreduce, alltoall, cpu_us");
    const bool copy = needs_host_link(step.kind);
    if (copy && !bytes) toml_.fail(&node, "a copy step needs bytes = \"...\"");
    if (!copy && bytes) toml_.fail(bytes, "bytes is for copy steps (a collective gives its bytes as its value: broadcast = \"...\")");
    if (copy) step.amount = expression(*bytes, "bytes");
    const bool named = !step.label.empty();
    if (!named) step.label = kind_name(step.kind);
    return labelled(std::move(step), named);
  }

  // builtin/workload, kp or ptx with a suite's keys, plus repeat and params = { AXIS = EXPR }.
  void parse_kernel_step(const toml::node& node, Step& step) {
    step.kind = StepKind::kernel;
    const toml::node* bindings = nullptr;
    driver::EntryTable context;
    context.name = "[[step]]";
    context.builtin_alias = "workload";
    context.more_keys = ", workload, repeat, overlap; params = { AXIS = EXPR } binds the workload's axes";
    context.claim = [&](const std::string& key, const toml::node& value) {
      if (key == "repeat") step.repeat = expression(value, "repeat");
      else if (key == "overlap") read_overlap(step, value);
      else if (key == "params" && value.is_table()) bindings = &value;
      else return false;
      return true;
    };
    driver::WorkloadEntry entry = driver::read_table_entry(toml_, node, context);
    const bool ptx = toml_.table(node, "[[step]]").contains("ptx");
    if (bindings && ptx) {
      toml_.fail(bindings, "a PTX kernel's params are a list, one expression per kernel parameter over the app's axes "
                           "and M (params = [\"N/M\"]), as in suites");
    }
    if (!entry.axes.axes.empty()) {
      toml_.fail(&node, "a step has no axes of its own (axes, launch.block = [...]): give them in the app's [axes]");
    }
    const std::vector<std::string> model_axes = entry.model->axes();
    std::set<std::string> bound;
    if (bindings) {
      for (const auto& [key, value] : *bindings->as_table()) {
        const std::string axis(key.str());
        if (std::find(model_axes.begin(), model_axes.end(), axis) == model_axes.end()) {
          toml_.fail(&value, "params: workload " + quote_for_message(entry.model->name()) + " has no axis " + quote_for_message(axis) +
                                 " (its axes: " + join_commas(model_axes, "none") + ")");
        }
        step.bindings.emplace_back(axis, expression(value, "params." + axis));
        bound.insert(axis);
      }
    }
    for (const std::string& axis : model_axes) {
      if (bound.contains(axis)) continue;
      if (axis != kGpuCount && !axes_.axes.contains(axis)) {
        const std::string what = "workload " + quote_for_message(entry.model->name()) + " needs axis " + quote_for_message(axis);
        const std::string fix = ptx ? "give it in [axes]" : "bind it in params = { " + axis + " = ... } or give it in [axes]";
        const auto read = entry.axis_reads.find(axis);  // where a launch or params expression reads it
        if (read == entry.axis_reads.end()) toml_.fail(&node, what + ": " + fix);
        throw InputError(read->second.at, what + " (read by " + quote_for_message(read->second.expression) + "): " + fix);
      }
      step.bindings.emplace_back(axis, workload::PointExpression(axis, step.at, "axis"));
      read_axes_.insert(axis);
    }
    // In the model's axis order, which is the order a point gives them in.
    std::sort(step.bindings.begin(), step.bindings.end(), [&](const auto& a, const auto& b) {
      return std::find(model_axes.begin(), model_axes.end(), a.first) < std::find(model_axes.begin(), model_axes.end(), b.first);
    });
    step.label = entry.model->name();
    step.kernel = driver::SuiteWorkload{std::move(entry.model), {}, std::move(entry.overrides)};
  }

  void read_overlap(Step& step, const toml::node& value) {
    step.overlaps_previous = toml_.boolean(value, "overlap");
    if (step.overlaps_previous && app_.steps.empty()) toml_.fail(&value, "the first step has no step before it to overlap");
  }

  // Labels name output columns: a given name must be unique; a default one gets _2, _3, ...
  Step labelled(Step step, bool named) {
    const auto taken = [&](const std::string& label) {
      return std::any_of(app_.steps.begin(), app_.steps.end(), [&](const Step& s) { return s.label == label; });
    };
    if (taken(step.label)) {
      if (named) throw InputError(step.at, "step name " + quote_for_message(step.label) + " is used by an earlier step");
      const std::string base = step.label;
      for (int n = 2; taken(step.label); ++n) step.label = base + "_" + std::to_string(n);
    }
    return step;
  }

  void check_axes_used() const {
    for (const auto& [name, axis] : axes_.axes) {
      if (!read_axes_.contains(name)) toml_.fail(axis.node, "axis " + quote_for_message(name) + " is read by no step");
    }
  }

  void check_figures() const {
    for (const Step& step : app_.steps) {
      for (const gpus::Profile& gpu : app_.gpus) {
        const gpus::SystemFigures figures = app_.figures(gpu);
        const char* missing = needs_host_link(step.kind) && !figures.host_link_gbs ? "host_link_gbs"
                              : needs_network(step.kind) && !figures.network_gbs  ? "network_gbs"
                                                                                  : nullptr;
        if (missing) {
          throw InputError(step.at, "step " + quote_for_message(step.label) + " needs " + missing + ": give it in [system] (profile " +
                                        gpu.id + " has no [host] figure for it)");
        }
      }
    }
  }

  gpus::TomlReader toml_;
  App app_;
  driver::AxisTable axes_;
  std::set<std::string> read_axes_;
};

}  // namespace

std::string_view kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::h2d: return "h2d";
    case StepKind::d2h: return "d2h";
    case StepKind::kernel: return "kernel";
    case StepKind::broadcast: return "broadcast";
    case StepKind::scatter: return "scatter";
    case StepKind::gather: return "gather";
    case StepKind::allreduce: return "allreduce";
    case StepKind::alltoall: return "alltoall";
    case StepKind::cpu: return "cpu";
  }
  return "?";
}

std::int64_t App::row_count() const {
  const double rows = static_cast<double>(gpus.size()) * static_cast<double>(gpu_counts.size()) *
                      static_cast<double>(driver::axis_point_count(axes));
  return rows > 9e18 ? INT64_MAX : static_cast<std::int64_t>(rows);
}

App parse_app(std::string_view toml_text, const std::string& source) { return AppParser(source).parse(toml_text); }

App load_app(const std::string& path) { return parse_app(read_text_file(path), path); }

}  // namespace warpsim::sim::app

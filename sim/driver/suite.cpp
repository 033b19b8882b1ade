#include "sim/driver/suite.hpp"

#include <filesystem>

#include "gpus/toml_reader.hpp"
#include "isa/input_error.hpp"
#include "isa/text_file.hpp"

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
      else if (key == "workloads") parse_workloads(node);
      else if (key == "axes") parse_axes(node);
      else toml_.fail(&node, "unknown key " + quote_for_message(key.str()) +
                                 " (expected name, description, gpus, workloads, axes)");
    }
    if (suite_.gpus.empty()) toml_.fail(nullptr, "the suite names no GPU ('gpus = [...]')");
    if (suite_.workloads.empty()) toml_.fail(nullptr, "the suite names no workload ('workloads = [...]')");
    if (suite_.K.empty() || suite_.N.empty()) toml_.fail(nullptr, "the suite needs both axes K and N ([axes])");
    if (suite_.point_count() > kMaxSweepPoints) {
      toml_.fail(nullptr, "the suite has " + std::to_string(suite_.point_count()) +
                              " points, above the limit of " + std::to_string(kMaxSweepPoints) + " (split it into smaller suites)");
    }
    return std::move(suite_);
  }

 private:
  void parse_gpus(const toml::node& node) {
    for (const toml::node& entry : toml_.non_empty_list(node, "gpus")) {
      std::string id = toml_.text(entry, "gpus entries");
      if (gpus::is_profile_path(id)) {
        const std::filesystem::path path(id);
        if (path.is_relative()) id = (std::filesystem::path(toml_.source()).parent_path() / path).string();
      }
      try {
        suite_.gpus.push_back(gpus::load_profile(id));
      } catch (const InputError& e) {
        if (!e.location().file.empty()) throw;  // the profile's own file and line
        toml_.fail(&entry, e.what());
      }
    }
  }

  void parse_workloads(const toml::node& node) {
    for (const toml::node& entry : toml_.non_empty_list(node, "workloads")) {
      try {
        suite_.workloads.push_back(&workload::find_workload(toml_.text(entry, "workloads entries")));
      } catch (const InputError& e) {
        toml_.fail(&entry, e.what());
      }
    }
  }

  void parse_axes(const toml::node& node) {
    for (const auto& [key, axis] : toml_.table(node, "[axes] must be a table")) {
      if (key == "K") suite_.K = axis_values(axis, "K");
      else if (key == "N") suite_.N = axis_values(axis, "N");
      else toml_.fail(&axis, "unknown axis " + quote_for_message(key.str()) + " (the DWT workloads take K and N)");
    }
  }

  // [a, b, c] | { from, to, step } | { powers_of, from, to } (powers_of^from .. powers_of^to).
  std::vector<std::int64_t> axis_values(const toml::node& node, const std::string& axis) const {
    constexpr std::int64_t kMaxAxisValues = 1'000'000;
    std::vector<std::int64_t> values;
    if (node.is_array()) {
      for (const toml::node& entry : toml_.non_empty_list(node, axis)) values.push_back(toml_.whole_number(entry, axis + " values"));
      return values;
    }
    const toml::table& table =
        toml_.table(node, axis + " must be a list or a table { from, to, step } or { powers_of, from, to }");
    std::optional<std::int64_t> from, to, step, base;
    for (const auto& [key, value] : table) {
      const std::string name = axis + "." + std::string(key.str());
      if (key == "from") from = toml_.whole_number(value, name);
      else if (key == "to") to = toml_.whole_number(value, name);
      else if (key == "step") step = toml_.whole_number(value, name);
      else if (key == "powers_of") base = toml_.whole_number(value, name);
      else toml_.fail(&value, "unknown key " + quote_for_message(key.str()) + " in axis " + axis +
                            " (expected from, to, step or powers_of)");
    }
    if (!from || !to) toml_.fail(&node, "axis " + axis + " needs both 'from' and 'to'");
    if (*to < *from) toml_.fail(&node, "axis " + axis + ": 'to' is below 'from'");
    if (base) {
      if (step) toml_.fail(&node, "axis " + axis + ": 'step' and 'powers_of' do not mix");
      if (*base < 2 || *from < 0) toml_.fail(&node, "axis " + axis + ": needs powers_of >= 2 and from >= 0");
      for (std::int64_t exponent = *from; exponent <= *to; ++exponent) {
        std::int64_t value = 1;
        for (std::int64_t i = 0; i < exponent; ++i) {
          if (__builtin_mul_overflow(value, *base, &value)) toml_.fail(&node, "axis " + axis + ": values overflow 64 bits");
        }
        values.push_back(value);
      }
      return values;
    }
    const std::int64_t stride = step.value_or(1);
    if (stride < 1) toml_.fail(&node, "axis " + axis + ": step must be positive");
    if ((*to - *from) / stride >= kMaxAxisValues) toml_.fail(&node, "axis " + axis + " has more than 10^6 values");
    for (std::int64_t value = *from; value <= *to; value += stride) {
      values.push_back(value);
      if (*to - value < stride) break;  // no overflow past `to`
    }
    return values;
  }

  gpus::TomlReader toml_;
  Suite suite_;
};

}  // namespace

std::int64_t Suite::point_count() const {
  // Each factor is at most 10^6 and there are four: saturate rather than overflow.
  const double points = static_cast<double>(gpus.size()) * static_cast<double>(workloads.size()) *
                        static_cast<double>(K.size()) * static_cast<double>(N.size());
  return points > 9e18 ? INT64_MAX : static_cast<std::int64_t>(points);
}

Suite parse_suite(std::string_view toml_text, const std::string& source) {
  return SuiteParser(source).parse(toml_text);
}

Suite load_suite(const std::string& path) { return parse_suite(read_text_file(path), path); }

void run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit) {
  SweepRow row;
  workload::PredictionCache cache;
  for (const gpus::Profile& gpu : suite.gpus) {
    row.gpu = &gpu;
    for (const workload::NamedWorkload* workload : suite.workloads) {
      row.workload = workload;
      for (const std::int64_t K : suite.K) {
        for (const std::int64_t N : suite.N) {
          row.point = {K, N};
          try {
            row.prediction = workload::predict(*workload, gpu, row.point, {}, &cache);
          } catch (const InputError& e) {
            throw InputError(SourceLocation{suite.source}, gpu.id + " " + std::string(workload->name) +
                                                               " K=" + std::to_string(K) + " N=" +
                                                               std::to_string(N) + ": " + e.what());
          }
          emit(row);
        }
      }
    }
  }
}

}  // namespace warpsim::sim::driver

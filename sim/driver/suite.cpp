#include "sim/driver/suite.hpp"

#include <toml++/toml.h>

#include <filesystem>

#include "isa/input_error.hpp"
#include "isa/text_file.hpp"

namespace warpsim::sim::driver {
namespace {

class SuiteParser {
 public:
  explicit SuiteParser(const std::string& source) : source_(source) { suite_.source = source; }

  Suite parse(std::string_view text) {
    toml::table root;
    try {
      root = toml::parse(text, source_);
    } catch (const toml::parse_error& e) {
      throw InputError(SourceLocation{source_, static_cast<int>(e.source().begin.line),
                                      static_cast<int>(e.source().begin.column)},
                       std::string(e.description()));
    }
    for (const auto& [key, node] : root) {
      if (key == "name") suite_.name = text_of(node, "name");
      else if (key == "description") suite_.description = text_of(node, "description");
      else if (key == "gpus") parse_gpus(node);
      else if (key == "workloads") parse_workloads(node);
      else if (key == "axes") parse_axes(node);
      else fail(&node, "unknown key " + quote_for_message(key.str()) +
                           " (expected name, description, gpus, workloads, axes)");
    }
    if (suite_.gpus.empty()) fail(nullptr, "the suite names no GPU ('gpus = [...]')");
    if (suite_.workloads.empty()) fail(nullptr, "the suite names no workload ('workloads = [...]')");
    if (suite_.K.empty() || suite_.N.empty()) fail(nullptr, "the suite needs both axes K and N ([axes])");
    if (suite_.point_count() > kMaxSweepPoints) {
      fail(nullptr, "the suite has " + std::to_string(suite_.point_count()) + " points, above the limit of " +
                        std::to_string(kMaxSweepPoints));
    }
    return std::move(suite_);
  }

 private:
  [[noreturn]] void fail(const toml::node* node, const std::string& what) const {
    SourceLocation where{source_};
    if (node) {
      where.line = static_cast<int>(node->source().begin.line);
      where.column = static_cast<int>(node->source().begin.column);
    }
    throw InputError(where, what);
  }

  std::string text_of(const toml::node& node, const std::string& key) const {
    const auto* s = node.as_string();
    if (!s) fail(&node, key + " must be a string");
    return s->get();
  }

  const toml::array& array_of(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array || array->empty()) fail(&node, key + " must be a non-empty list");
    return *array;
  }

  std::int64_t integer_of(const toml::node& node, const std::string& key) const {
    const auto* i = node.as_integer();
    if (!i) fail(&node, key + " must be a whole number");
    return i->get();
  }

  void parse_gpus(const toml::node& node) {
    for (const toml::node& entry : array_of(node, "gpus")) {
      std::string id = text_of(entry, "gpus entries");
      if (id.find('/') != std::string::npos || id.ends_with(".toml")) {
        const std::filesystem::path path(id);
        if (path.is_relative()) id = (std::filesystem::path(source_).parent_path() / path).string();
      }
      try {
        suite_.gpus.push_back(gpus::load_profile(id));
      } catch (const InputError& e) {
        if (!e.location().file.empty()) throw;  // the profile's own file and line
        fail(&entry, e.what());
      }
    }
  }

  void parse_workloads(const toml::node& node) {
    for (const toml::node& entry : array_of(node, "workloads")) {
      try {
        suite_.workloads.push_back(&workload::find_workload(text_of(entry, "workloads entries")));
      } catch (const InputError& e) {
        fail(&entry, e.what());
      }
    }
  }

  void parse_axes(const toml::node& node) {
    const auto* table = node.as_table();
    if (!table) fail(&node, "[axes] must be a table");
    for (const auto& [key, axis] : *table) {
      if (key == "K") suite_.K = axis_values(axis, "K");
      else if (key == "N") suite_.N = axis_values(axis, "N");
      else fail(&axis, "unknown axis " + quote_for_message(key.str()) + " (the DWT workloads take K and N)");
    }
  }

  // [a, b, c] | { from, to, step } | { powers_of, from, to } (powers_of^from .. powers_of^to).
  std::vector<std::int64_t> axis_values(const toml::node& node, const std::string& axis) const {
    constexpr std::int64_t kMaxAxisValues = 1'000'000;
    std::vector<std::int64_t> values;
    if (node.is_array()) {
      for (const toml::node& entry : array_of(node, axis)) values.push_back(integer_of(entry, axis + " values"));
      return values;
    }
    const auto* table = node.as_table();
    if (!table) fail(&node, axis + " must be a list or a table { from, to, step } or { powers_of, from, to }");
    std::optional<std::int64_t> from, to, step, base;
    for (const auto& [key, value] : *table) {
      const std::string name = axis + "." + std::string(key.str());
      if (key == "from") from = integer_of(value, name);
      else if (key == "to") to = integer_of(value, name);
      else if (key == "step") step = integer_of(value, name);
      else if (key == "powers_of") base = integer_of(value, name);
      else fail(&value, "unknown key " + quote_for_message(key.str()) + " in axis " + axis +
                            " (expected from, to, step or powers_of)");
    }
    if (!from || !to) fail(&node, "axis " + axis + " needs both 'from' and 'to'");
    if (*to < *from) fail(&node, "axis " + axis + ": 'to' is below 'from'");
    if (base) {
      if (step) fail(&node, "axis " + axis + ": 'step' and 'powers_of' do not mix");
      if (*base < 2 || *from < 0) fail(&node, "axis " + axis + ": needs powers_of >= 2 and from >= 0");
      for (std::int64_t exponent = *from; exponent <= *to; ++exponent) {
        std::int64_t value = 1;
        for (std::int64_t i = 0; i < exponent; ++i) {
          if (__builtin_mul_overflow(value, *base, &value)) fail(&node, "axis " + axis + ": values overflow 64 bits");
        }
        values.push_back(value);
      }
      return values;
    }
    const std::int64_t stride = step.value_or(1);
    if (stride < 1) fail(&node, "axis " + axis + ": step must be positive");
    if ((*to - *from) / stride >= kMaxAxisValues) fail(&node, "axis " + axis + " has more than 10^6 values");
    for (std::int64_t value = *from; value <= *to; value += stride) {
      values.push_back(value);
      if (*to - value < stride) break;  // no overflow past `to`
    }
    return values;
  }

  std::string source_;
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
  for (const gpus::Profile& gpu : suite.gpus) {
    row.gpu = &gpu;
    for (const workload::NamedWorkload* workload : suite.workloads) {
      row.workload = workload;
      for (const std::int64_t K : suite.K) {
        for (const std::int64_t N : suite.N) {
          row.point = {K, N};
          try {
            row.prediction = workload::predict(*workload, gpu, row.point);
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

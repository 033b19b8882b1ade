// The pipes model's architecture tables: gpus/pipes/cc_<major>_<minor>.toml, embedded at build
// time (warpsim_gpus_pipe_data), parsed once on first use.
#include "warpsim/gpus/pipe_table.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <span>
#include <utility>

#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"

namespace warpsim::gpus {
namespace pipes {
std::span<const std::pair<std::string_view, std::string_view>> embedded_files();
}  // namespace pipes

namespace {

struct Version {
  int major = 0;
  int minor = 0;
  auto operator<=>(const Version&) const = default;
};

// "8.6" -> {8, 6}; nothing for anything else ("8", "8.6.1", "x.y", "-1.0").
std::optional<Version> version_of(std::string_view text) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= text.size()) return std::nullopt;
  Version v;
  const auto whole = [](std::string_view part, int& out) {
    if (part.size() > 3) return false;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), out);
    return error == std::errc() && end == part.data() + part.size() && out >= 0;
  };
  if (!whole(text.substr(0, dot), v.major) || !whole(text.substr(dot + 1), v.minor)) return std::nullopt;
  return v;
}

const char* const kGeneralSources[] = {"throughput", "tensor", "latency", "schedulers_per_sm", "compute_capability"};
const char* const kRequiredSources[] = {"throughput", "latency", "schedulers_per_sm"};

bool is_source_key(std::string_view key) {
  for (const char* general : kGeneralSources) {
    if (key == general) return true;
  }
  if (isa::pipe_named(key)) return true;
  for (std::string_view prefix : {std::string_view("throughput_"), std::string_view("latency_")}) {
    if (key.starts_with(prefix) && isa::pipe_named(key.substr(prefix.size()))) return true;
  }
  return false;
}

std::string pipe_words() {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < isa::kPipeCount; ++i) words.emplace_back(isa::to_string(isa::pipe_at(i)));
  return join_commas(words);
}

class PipeTableParser {
 public:
  explicit PipeTableParser(const std::string& file) : toml_(file) {}

  PipeTable parse(std::string_view text) {
    const toml::table root = toml_.parse(text);
    bool has_cc = false, has_schedulers = false, has_throughput = false, has_latency = false, has_sources = false;
    for (const auto& [key_text, node] : root) {
      const std::string key(key_text.str());
      if (key == "compute_capability") {
        table_.compute_capability = toml_.text(node, key);
        if (!version_of(table_.compute_capability)) {
          toml_.fail(&node, "compute_capability must be MAJOR.MINOR (\"8.6\"), not " +
                                quote_for_message(table_.compute_capability));
        }
        has_cc = true;
      } else if (key == "schedulers_per_sm") {
        const std::int64_t n = toml_.whole_number(node, key);
        if (n <= 0 || n > 64) toml_.fail(&node, "schedulers_per_sm = " + std::to_string(n) + " must be in [1, 64]");
        table_.schedulers_per_sm = n;
        has_schedulers = true;
      } else if (key == "throughput") {
        read_pipes(node, "throughput", table_.throughput);
        has_throughput = true;
      } else if (key == "latency") {
        read_pipes(node, "latency", table_.latency);
        has_latency = true;
      } else if (key == "sources") {
        read_sources(node);
        has_sources = true;
      } else {
        toml_.fail(&node, "unknown key " + quote_for_message(key) +
                              " (a pipe table has compute_capability, schedulers_per_sm, [throughput], [latency], [sources])");
      }
    }
    if (!has_cc) toml_.fail(nullptr, "missing required key 'compute_capability'");
    if (!has_schedulers) toml_.fail(nullptr, "missing required key 'schedulers_per_sm'");
    if (!has_throughput) toml_.fail(nullptr, "missing required table [throughput]");
    if (!has_latency) toml_.fail(nullptr, "missing required table [latency]");
    if (!has_sources) toml_.fail(nullptr, "missing required table [sources]: every figure names where it came from");
    for (const char* key : kRequiredSources) {
      if (!table_.sources.count(key)) {
        toml_.fail(root["sources"].node(), std::string("[sources] needs ") + key + " = \"where it came from\"");
      }
    }
    return std::move(table_);
  }

 private:
  void read_pipes(const toml::node& node, const std::string& section,
                  std::array<double, isa::kPipeCount>& figures) {
    const toml::table& table = toml_.table(node, "[" + section + "] must be a table of pipe = number");
    std::array<bool, isa::kPipeCount> seen{};
    for (const auto& [word, value] : table) {
      const std::optional<isa::Pipe> pipe = isa::pipe_named(word.str());
      if (!pipe) {
        toml_.fail(&value, "unknown pipe " + quote_for_message(word.str()) + " in [" + section + "] (pipes: " +
                               pipe_words() + ")");
      }
      const std::string key = section + "." + std::string(word.str());
      const double figure = toml_.number(value, key);
      if (figure < 0) toml_.fail(&value, key + " cannot be negative");
      if (section == "throughput" && *pipe == isa::Pipe::fp32 && !(figure > 0)) {
        toml_.fail(&value, "throughput.fp32 must be positive: every architecture has FP32 lanes");
      }
      const auto index = static_cast<std::size_t>(*pipe);
      figures[index] = figure;
      seen[index] = true;
    }
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
      if (!seen[i]) missing.emplace_back(isa::to_string(isa::pipe_at(i)));
    }
    if (!missing.empty()) {
      toml_.fail(&node, "[" + section + "] lacks " + join_commas(missing) + " (every pipe needs a figure; 0 for none)");
    }
  }

  void read_sources(const toml::node& node) {
    const toml::table& table = toml_.table(node, "[sources] must be a table of figure = \"where it came from\"");
    for (const auto& [key_text, value] : table) {
      const std::string key(key_text.str());
      if (!is_source_key(key)) {
        toml_.fail(&value, "[sources] names " + quote_for_message(key) +
                               ", which is not a figure of a pipe table (throughput, tensor, latency, schedulers_per_sm, "
                               "a pipe word, throughput_PIPE, latency_PIPE)");
      }
      table_.sources[key] = toml_.text(value, "sources." + key);
    }
  }

  TomlReader toml_;
  PipeTable table_;
};

struct BuiltIn {
  Version version;
  PipeTable table;
};

// Every embedded file, parsed once; sorted by version. A file whose name does not match its
// compute_capability is a build-time mistake, reported like any malformed file.
const std::vector<BuiltIn>& built_in_tables() {
  static const std::vector<BuiltIn> tables = [] {
    std::vector<BuiltIn> all;
    for (const auto& [path, text] : pipes::embedded_files()) {
      const std::string file = "gpus/pipes/" + std::string(path);
      PipeTable table = parse_pipe_table(text, file);
      std::string expected = "cc_" + table.compute_capability + ".toml";
      std::replace(expected.begin(), expected.end(), '.', '_');
      expected.replace(expected.size() - 5, 1, ".");  // "cc_8_6_toml" -> "cc_8_6.toml"
      if (path != expected) {
        throw InputError(SourceLocation{file}, "a pipe table for compute capability " + table.compute_capability +
                                                   " must be named " + expected);
      }
      all.push_back({*version_of(table.compute_capability), std::move(table)});
    }
    std::sort(all.begin(), all.end(), [](const BuiltIn& a, const BuiltIn& b) { return a.version < b.version; });
    return all;
  }();
  return tables;
}

}  // namespace

PipeTable parse_pipe_table(std::string_view text, const std::string& file) { return PipeTableParser(file).parse(text); }

std::vector<std::string> pipe_table_capabilities() {
  std::vector<std::string> ccs;
  for (const BuiltIn& built_in : built_in_tables()) ccs.push_back(built_in.table.compute_capability);
  return ccs;
}

const PipeTable& pipe_table(std::string_view compute_capability) {
  const std::vector<BuiltIn>& tables = built_in_tables();
  if (const std::optional<Version> wanted = version_of(compute_capability)) {
    const BuiltIn* best = nullptr;  // the same major, the highest minor not above the wanted one
    for (const BuiltIn& built_in : tables) {
      if (built_in.version.major == wanted->major && built_in.version.minor <= wanted->minor) best = &built_in;
    }
    if (best) return best->table;
  }
  throw InputError("no pipe table for compute capability " + quote_for_message(compute_capability) +
                   " (built-in: " + join_commas(pipe_table_capabilities()) +
                   "; a CC takes the table of the nearest lower minor version of its major)");
}

}  // namespace warpsim::gpus

#include <cmath>
#include <set>
#include <stdexcept>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/gpus/profile_figures.hpp"
#include "warpsim/gpus/system_figures_toml.hpp"
#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {
namespace {

class ProfileParser {
 public:
  ProfileParser(const std::string& source, const std::string& id) : toml_(source) {
    profile_.id = id;
    profile_.source = source;
  }

  Profile parse(std::string_view text) {
    const toml::table root = toml_.parse(text);
    for (const auto& [key, node] : root) parse_top_level(std::string(key.str()), node);
    for (const RequiredInteger& field : required_integer_figures()) require(root, field.key);
    require(root, "clock_mhz");
    require(root, "name");
    const auto achievable = profile_.figures.find("achievable_bandwidth_gbs");
    const auto peak = profile_.figures.find("memory_bandwidth_gbs");
    if (achievable != profile_.figures.end() && peak != profile_.figures.end() && achievable->second > peak->second) {
      toml_.fail(root["achievable_bandwidth_gbs"].node(), "achievable_bandwidth_gbs is above memory_bandwidth_gbs: no GPU beats its peak");
    }
    for (const auto& [key, text_unused] : profile_.sources) {
      if (!known_keys_.count(key)) {
        toml_.fail(root["sources"][key].node(),
                   "[sources] names " + quote_for_message(key) + ", which is not a figure of this profile");
      }
    }
    return std::move(profile_);
  }

 private:
  void require(const toml::table& root, const char* key) const {
    if (!root.contains(key)) toml_.fail(nullptr, std::string("missing required key '") + key + "'");
  }

  void parse_top_level(const std::string& key, const toml::node& node) {
    known_keys_.insert(key);
    for (const RequiredInteger& field : required_integer_figures()) {
      if (key == field.key) {
        profile_.*field.member = toml_.whole_number(node, key, field.minimum, field.maximum);
        return;
      }
    }
    if (key == "clock_mhz") {
      profile_.clock_mhz = toml_.number(node, key);
      if (!(profile_.clock_mhz > 0) || profile_.clock_mhz > 1e6) toml_.fail(&node, "clock_mhz must be in (0, 10^6]");
      return;
    }
    if (key == "name") return void(profile_.name = toml_.text(node, key));
    if (key == "architecture") return void(profile_.architecture = toml_.text(node, key));
    if (key == "compute_capability") return void(profile_.compute_capability = toml_.text(node, key));
    if (key == "memory_type") return void(profile_.memory_type = toml_.text(node, key));
    for (const FigureKey& figure : optional_figure_keys()) {
      if (key != figure.key) continue;
      const double value = figure.whole_number ? static_cast<double>(toml_.whole_number(node, key, 0, INT64_C(1) << 50))
                                               : toml_.number(node, key);
      if (value < 0) toml_.fail(&node, key + " cannot be negative");
      profile_.figures[key] = value;
      return;
    }
    if (key == "sources") return parse_sources(node);
    if (key == "calibration") return parse_calibrations(node);
    if (key == "host") return parse_host(node);
    toml_.fail(&node, "unknown key " + quote_for_message(key) + " (see docs/formats.md for profile keys)");
  }

  void parse_sources(const toml::node& node) {
    const toml::table& table = toml_.table(node, "[sources] must be a table of figure = \"where it came from\"");
    for (const auto& [key, value] : table) {
      profile_.sources[std::string(key.str())] = toml_.text(value, "sources." + std::string(key.str()));
    }
  }

  // [host]: the app [system] keys, with `source` required: a bandwidth without its origin is a guess.
  void parse_host(const toml::node& node) {
    for (const auto& [key, value] : toml_.table(node, "[host] must be a table of system figures")) {
      if (key == "source") profile_.host_source = toml_.text(value, "host.source");
      else if (!read_system_figure(toml_, key.str(), value, profile_.host)) {
        toml_.fail(&value, "unknown key " + quote_for_message(key.str()) + " in [host] (expected " + system_figure_keys() + ", source)");
      }
    }
    if (profile_.host_source.empty()) toml_.fail(&node, "[host] needs source = \"where its figures came from\"");
  }

  void parse_calibrations(const toml::node& node) {
    const toml::table& table = toml_.table(node, "calibration must be a table of [calibration.KERNEL] sections");
    for (const auto& [kernel, section_node] : table) {
      const std::string prefix = "calibration." + std::string(kernel.str());
      const toml::table* section = &toml_.table(section_node, "[" + prefix + "] must be a table with tp_us and tm");
      Calibration calibration;
      bool has_tp = false, has_tm = false;
      for (const auto& [key, value] : *section) {
        if (key == "tp_us") {
          calibration.tp_us = toml_.number(value, prefix + ".tp_us");
          if (calibration.tp_us < 0) toml_.fail(&value, prefix + ".tp_us cannot be negative");
          has_tp = true;
        } else if (key == "tm") {
          try {
            calibration.tm = isa::cycles_from_double(toml_.number(value, prefix + ".tm"));
          } catch (const std::invalid_argument& e) {
            toml_.fail(&value, prefix + ".tm: " + e.what());
          }
          has_tm = true;
        } else if (const std::size_t index = duration_index(key.str()); index > 0) {
          // d1, d2, ...: what `warpsim calibrate --fit d1,...` writes.
          if (calibration.memory_durations.size() < index) calibration.memory_durations.resize(index);
          try {
            const isa::Millicycles d = isa::cycles_from_double(toml_.number(value, prefix + "." + std::string(key.str())));
            if (d <= 0) toml_.fail(&value, prefix + "." + std::string(key.str()) + " must be positive");
            calibration.memory_durations[index - 1] = d;
          } catch (const std::invalid_argument& e) {
            toml_.fail(&value, prefix + "." + std::string(key.str()) + ": " + e.what());
          }
        } else {
          toml_.fail(&value, "unknown key " + quote_for_message(key.str()) + " in [" + prefix +
                           "] (expected tp_us, tm and d1 .. d64)");
        }
      }
      if (!has_tp || !has_tm) toml_.fail(&section_node, "[" + prefix + "] needs both tp_us and tm");
      profile_.calibrations[std::string(kernel.str())] = calibration;
    }
  }

  TomlReader toml_;
  Profile profile_;
  std::set<std::string> known_keys_;
};

}  // namespace

const std::vector<FigureKey>& optional_figure_keys() {
  static const std::vector<FigureKey> keys = {
      {"base_clock_mhz", "base (non-boost) core clock, MHz", false},
      {"max_threads_per_sm", "resident threads per SM", true},
      {"registers_per_sm", "32-bit registers per SM", true},
      {"max_registers_per_thread", "registers one thread may use", true},
      {"shared_memory_per_sm_kib", "shared memory per SM (largest carve-out), KiB", false},
      {"max_shared_memory_per_block_kib", "shared memory one block may use (opt-in), KiB", false},
      {"l2_cache_kib", "L2 cache, KiB", false},
      {"memory_gib", "device memory, GiB", false},
      {"memory_bandwidth_gbs", "peak device-memory bandwidth, GB/s", false},
      {"achievable_bandwidth_gbs", "device-memory bandwidth a stream kernel reaches (copy/triad, measured), GB/s", false},
      {"l2_bandwidth_bytes_per_cycle", "L2 bandwidth of the whole GPU a read kernel reaches (measured), bytes per core clock", false},
      {"memory_bus_bits", "memory bus width, bits", true},
      // The memory-aware model (docs/model.md#memory-aware-timing); latencies in core cycles, as a
      // dependent chain of loads measures them (pointer chasing).
      {"max_registers_per_block", "32-bit registers one block may use", true},
      {"l1_cache_kib", "L1 data cache per SM left at the largest shared carve-out, KiB (0: global loads bypass L1 by default)", false},
      {"dram_latency_cycles", "global load that misses L2 (device memory), cycles", false},
      {"l2_latency_cycles", "global load that hits L2, cycles", false},
      {"l1_latency_cycles", "global load that hits L1, cycles", false},
      {"shared_latency_cycles", "shared-memory load without bank conflict, cycles", false},
      {"constant_latency_cycles", "constant-cache hit (all lanes one address), cycles", false},
      {"texture_latency_cycles", "texture-cache hit, cycles", false},
      {"shared_memory_banks", "shared-memory banks, 4 bytes wide each", true},
      {"warp_schedulers_per_sm", "warp schedulers (dispatch units) per SM", true},
      {"launch_overhead_us", "default t_p when no calibration gives one, microseconds", false},
      {"launch_overhead_back_to_back_us", "t_p of a launch that follows another in the same stream, microseconds", false},
  };
  return keys;
}

std::size_t duration_index(std::string_view key) {
  if (key.size() < 2 || key.size() > 3 || key[0] != 'd' || key[1] == '0') return 0;
  std::size_t index = 0;
  for (const char c : key.substr(1)) {
    if (c < '0' || c > '9') return 0;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return index <= kMaxCalibratedDurations ? index : 0;
}

const Calibration* Profile::calibration(std::string_view kernel) const {
  const auto it = calibrations.find(kernel);
  return it == calibrations.end() ? nullptr : &it->second;
}

Profile parse_profile(std::string_view toml_text, const std::string& source, const std::string& id) {
  return ProfileParser(source, id).parse(toml_text);
}

}  // namespace warpsim::gpus

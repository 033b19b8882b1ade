// A GPU profile: the device figures the model needs (Algorithm 1 and 3), the figures the
// memory-aware model and occupancy read (docs/profiles.md), where each figure came from, and per-kernel
// calibrations (t_p, t_m). Profiles are TOML files under gpus/ (docs/formats.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "warpsim/gpus/system_figures.hpp"
#include "warpsim/isa/time.hpp"

namespace warpsim::gpus {

struct Calibration {
  double tp_us = 0;            // kernel launch preparation time t_p, microseconds
  isa::Millicycles tm = 0;     // memory access time scaling factor t_m
  // d1, d2, ...: durations of the program's memory instructions in program order (keys d1 .. d64
  // of the section); nullopt keeps the program's own.
  std::vector<std::optional<isa::Millicycles>> memory_durations;
};

struct Profile {
  std::string id;      // file stem, e.g. "rtx2080"
  std::string source;  // where it was read from, for messages
  std::string name;    // marketing name
  std::string architecture;
  std::string compute_capability;
  std::string memory_type;

  // Required by the core model (MODEL.md sections 3 and 4).
  double clock_mhz = 0;                 // F
  std::int64_t sm_count = 0;            // N_sm
  std::int64_t cores_per_sm = 0;        // N_c/sm
  std::int64_t max_blocks_per_sm = 0;   // L_b/sm
  std::int64_t max_warps_per_sm = 0;    // L_w/sm
  std::int64_t max_threads_per_block = 0;
  std::int64_t warp_size = 0;

  // Optional figures, kept for the models that need them, by TOML key.
  std::map<std::string, double> figures;
  std::map<std::string, std::string> sources;            // figure key -> where it came from
  std::map<std::string, Calibration, std::less<>> calibrations;  // kernel name -> calibration
  // [host]: the host link and network this GPU is usually found with, for whole applications
  // (docs/apps.md); empty when the profile has none. `host_source` cites where they came from.
  SystemFigures host;
  std::string host_source;

  std::int64_t core_packages_per_sm() const { return cores_per_sm / 32; }  // N_cp, integer division
  const Calibration* calibration(std::string_view kernel) const;
};

// The optional figure keys a profile may carry, with their meaning (docs/formats.md).
struct FigureKey {
  const char* key;
  const char* meaning;
  bool whole_number;
};
const std::vector<FigureKey>& optional_figure_keys();

// Parses profile TOML. `source` names it in messages; `id` is how users select it. Unknown keys,
// missing required keys and out-of-range values are InputErrors with the line.
Profile parse_profile(std::string_view toml_text, const std::string& source, const std::string& id);

// Whether a --gpu argument names a file (it contains '/' or ends in .toml) rather than an id.
bool is_profile_path(const std::string& id_or_path);

// `--gpu` argument: a built-in id (gpus/<id>.toml, embedded at build time) or a path to a .toml.
Profile load_profile(const std::string& id_or_path);

// Ids of the built-in profiles, sorted.
std::vector<std::string> builtin_profile_ids();

}  // namespace warpsim::gpus

namespace warpsim::gpus {

// What the user gave explicitly (flags, suite entries); each beats the profile's calibration.
struct CalibrationChoice {
  std::optional<double> tp_us = std::nullopt;
  std::optional<isa::Millicycles> tm = std::nullopt;
  std::vector<std::optional<isa::Millicycles>> memory_durations = {};  // over the profile's
  // Used when neither the choice nor the profile's calibration gives t_p or t_m (the memory-aware
  // model's defaults from the profile).
  std::optional<double> default_tp_us = std::nullopt;
  std::optional<isa::Millicycles> default_tm = std::nullopt;
};

inline constexpr std::size_t kMaxCalibratedDurations = 64;
// 1 for the calibration key "d1" .. 64 for "d64"; 0 for any other key ("d01", "d1x", "d 1").
std::size_t duration_index(std::string_view key);

// t_p and t_m for `kernel` on `gpu`: the explicit choice first, then the profile's
// [calibration.<kernel>], then (t_m only) the program's own default. Durations: the choice's
// where given, else the section's. Throws InputError naming
// the missing value and both ways to give it.
Calibration resolve_calibration(const Profile& gpu, std::string_view kernel,
                                const CalibrationChoice& given,
                                std::optional<isa::Millicycles> program_tm);

}  // namespace warpsim::gpus

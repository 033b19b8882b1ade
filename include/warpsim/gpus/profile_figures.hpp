// A profile's numeric figures by their TOML keys, to read and to change one for a run (`warpsim
// simulate --set FIGURE=VALUE`, docs/cli.md), with the same ranges the profile parser enforces.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/gpus/profile.hpp"

namespace warpsim::gpus {

// A required whole-number figure and its range (the parser's bounds: they catch typos and absurd values).
struct RequiredInteger {
  const char* key;
  std::int64_t Profile::*member;
  std::int64_t minimum;
  std::int64_t maximum;
};
const std::vector<RequiredInteger>& required_integer_figures();

// The figures a run may change: clock_mhz, the required whole numbers but warp_size (the PTX
// frontend's warps are 32 threads), then every optional figure (optional_figure_keys()).
std::vector<std::string> changeable_figures();

// Whether `key` is a figure of whole numbers (sm_count, registers_per_sm, ...).
bool whole_number_figure(std::string_view key);

// The profile's value of `key`; nullopt when the profile does not give that optional figure.
std::optional<double> figure_value(const Profile& gpu, std::string_view key);

// Sets `key` to `value`: InputError (naming `what`) when the key is not a changeable figure, the
// value is out of the key's range, or a whole-number figure gets a fraction. An optional figure
// may not become 0 (a bandwidth or latency of 0 divides by zero), but l1_cache_kib (0: no L1).
void set_figure(Profile& gpu, std::string_view key, double value, const std::string& what);

}  // namespace warpsim::gpus

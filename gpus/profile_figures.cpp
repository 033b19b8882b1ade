#include "warpsim/gpus/profile_figures.hpp"

#include <cmath>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {
namespace {

constexpr double kMaxClockMhz = 1e6;

const RequiredInteger* required_integer(std::string_view key) {
  for (const RequiredInteger& field : required_integer_figures()) {
    if (key == field.key) return &field;
  }
  return nullptr;
}

const FigureKey* optional_figure(std::string_view key) {
  for (const FigureKey& figure : optional_figure_keys()) {
    if (key == figure.key) return &figure;
  }
  return nullptr;
}

std::string number_text(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.ends_with('.')) text.pop_back();
  return text;
}

}  // namespace

const std::vector<RequiredInteger>& required_integer_figures() {
  static const std::vector<RequiredInteger> fields = {
      {"sm_count", &Profile::sm_count, 1, 1'000'000},
      {"cores_per_sm", &Profile::cores_per_sm, 32, 1'000'000},
      {"max_blocks_per_sm", &Profile::max_blocks_per_sm, 1, 1'000'000},
      {"max_warps_per_sm", &Profile::max_warps_per_sm, 1, 1'000'000},
      {"max_threads_per_block", &Profile::max_threads_per_block, 32, 1'000'000},
      {"warp_size", &Profile::warp_size, 32, 32},
  };
  return fields;
}

std::vector<std::string> changeable_figures() {
  std::vector<std::string> keys{"clock_mhz"};
  for (const RequiredInteger& field : required_integer_figures()) {
    if (std::string_view(field.key) != "warp_size") keys.emplace_back(field.key);
  }
  for (const FigureKey& figure : optional_figure_keys()) keys.emplace_back(figure.key);
  return keys;
}

bool whole_number_figure(std::string_view key) {
  if (key == "clock_mhz") return false;
  if (required_integer(key) != nullptr) return true;
  const FigureKey* optional = optional_figure(key);
  return optional != nullptr && optional->whole_number;
}

std::optional<double> figure_value(const Profile& gpu, std::string_view key) {
  if (key == "clock_mhz") return gpu.clock_mhz;
  if (const RequiredInteger* field = required_integer(key)) return static_cast<double>(gpu.*field->member);
  const auto found = gpu.figures.find(std::string(key));
  if (found == gpu.figures.end()) return std::nullopt;
  return found->second;
}

void set_figure(Profile& gpu, std::string_view key, double value, const std::string& what) {
  const auto fail = [&](const std::string& why) { throw InputError(what + ": " + why); };
  if (!std::isfinite(value)) fail("not a finite number");
  if (key == "clock_mhz") {
    if (!(value > 0) || value > kMaxClockMhz) fail("clock_mhz would be " + number_text(value) + ", outside (0, 10^6]");
    gpu.clock_mhz = value;
    return;
  }
  const RequiredInteger* field = key == "warp_size" ? nullptr : required_integer(key);
  const FigureKey* optional = optional_figure(key);
  if (field == nullptr && optional == nullptr) fail("no such figure");
  if ((field != nullptr || optional->whole_number) && value != std::floor(value)) {
    fail(std::string(key) + " would be " + number_text(value) + ": it is a whole number");
  }
  if (field != nullptr) {
    if (value < static_cast<double>(field->minimum) || value > static_cast<double>(field->maximum)) {
      fail(std::string(key) + " would be " + number_text(value) + ", outside [" + std::to_string(field->minimum) + ", " +
           std::to_string(field->maximum) + "]");
    }
    gpu.*field->member = static_cast<std::int64_t>(value);
    return;
  }
  if (value < 0) fail(std::string(key) + " cannot be negative");
  if (value == 0 && key != "l1_cache_kib") fail(std::string(key) + " cannot be 0");
  // A new peak keeps the memory system's efficiency: the achievable figure scales with it.
  const auto peak = gpu.figures.find("memory_bandwidth_gbs");
  const auto achievable = gpu.figures.find("achievable_bandwidth_gbs");
  if (key == "memory_bandwidth_gbs" && peak != gpu.figures.end() && achievable != gpu.figures.end()) {
    achievable->second *= value / peak->second;
  }
  if (key == "achievable_bandwidth_gbs" && peak != gpu.figures.end() && value > peak->second) {
    fail("achievable_bandwidth_gbs would be " + number_text(value) + ", above memory_bandwidth_gbs " + number_text(peak->second));
  }
  gpu.figures[std::string(key)] = value;
}

}  // namespace warpsim::gpus

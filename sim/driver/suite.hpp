// Sweep suites (workloads/suites/*.toml, docs/formats.md): GPUs x named workloads x K x N.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpus/profile.hpp"
#include "sim/workload/named_workload.hpp"

namespace warpsim::sim::driver {

inline constexpr std::int64_t kMaxSweepPoints = 10'000'000;

struct Suite {
  std::string source;
  std::string name;
  std::string description;
  std::vector<gpus::Profile> gpus;
  std::vector<const workload::NamedWorkload*> workloads;
  std::vector<std::int64_t> K;
  std::vector<std::int64_t> N;

  std::int64_t point_count() const;
};

// Parses a suite; GPU ids resolve like --gpu, relative profile paths against the suite's folder.
// Throws InputError with file and line for unknown keys, bad values and too many points.
Suite parse_suite(std::string_view toml_text, const std::string& source);
Suite load_suite(const std::string& path);

struct SweepRow {
  const gpus::Profile* gpu = nullptr;
  const workload::NamedWorkload* workload = nullptr;
  workload::DwtPoint point;
  workload::Prediction prediction;
};

// Evaluates every point in order: GPU, then workload, then K, then N. Calls `emit` per row.
// A point that cannot be predicted throws InputError naming the point.
void run_sweep(const Suite& suite, const std::function<void(const SweepRow&)>& emit);

}  // namespace warpsim::sim::driver

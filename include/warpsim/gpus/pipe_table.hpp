// Architecture tables of the pipes timing model (docs/profiles.md, "Pipe tables"): per CUDA
// compute capability, how many results each execution pipe (isa::Pipe) delivers per clock per SM
// and how many cycles a dependent instruction waits for its result. The built-in tables are the
// files gpus/pipes/cc_<major>_<minor>.toml, embedded at build time; every figure in them names
// its source in [sources].
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/isa/pipes.hpp"

namespace warpsim::gpus {

struct PipeTable {
  std::string compute_capability;  // "8.6"
  std::int64_t schedulers_per_sm = 4;
  // Per pipe (index: isa::Pipe), as the file's [throughput]: results per clock per SM, each lane
  // of a packed pair counting once (the CUDA C++ Programming Guide's "Throughput of Native
  // Arithmetic Instructions"); tensor pipes: dense multiply-adds per clock per SM; 0: no such unit.
  std::array<double, isa::kPipeCount> throughput{};
  // Per pipe, cycles from issue until a dependent instruction can issue.
  std::array<double, isa::kPipeCount> latency{};
  // Where the figures come from: "throughput", "tensor", "latency", "schedulers_per_sm", and
  // per-figure overrides (a pipe word, or "throughput_<pipe>" / "latency_<pipe>").
  std::map<std::string, std::string> sources;

  double throughput_of(isa::Pipe pipe) const { return throughput[static_cast<std::size_t>(pipe)]; }
  double latency_of(isa::Pipe pipe) const { return latency[static_cast<std::size_t>(pipe)]; }
};

// The built-in table of a compute capability ("8.6"). A CC without its own file takes the file of
// the nearest lower minor version of the same major ("7.5" for "7.7"); otherwise InputError names
// the CC and the known ones.
const PipeTable& pipe_table(std::string_view compute_capability);

// The compute capabilities with a built-in table, sorted by version ("3.0", ..., "12.0").
std::vector<std::string> pipe_table_capabilities();

// Parses one table file's text (the built-in ones, tests, user files). InputError with the file
// and line for malformed input: an unknown key or pipe word, a missing pipe, non-positive
// schedulers, a negative figure, an fp32 throughput that is not positive, a value that is not a
// number.
PipeTable parse_pipe_table(std::string_view text, const std::string& file);

}  // namespace warpsim::gpus

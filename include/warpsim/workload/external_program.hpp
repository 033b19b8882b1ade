// Running another program (ptxas) safely: argv passed as is (no shell), stdout and stderr captured
// together, bounded in time and in output. Never required: a program that is missing, fails or
// runs too long is reported, not thrown.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace warpsim::sim::workload {

struct ProgramRun {
  bool started = false;    // false: not found or not executable (PATH is searched)
  bool timed_out = false;  // killed at the limit
  int exit_status = -1;    // its exit status, -1 when it did not exit normally
  std::string output;      // stdout and stderr interleaved, at most max_output bytes
  bool truncated = false;  // more output than max_output: the rest was read and dropped
};

inline constexpr std::size_t kDefaultMaxOutput = std::size_t{1} << 20;

ProgramRun run_program(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
                       std::size_t max_output = kDefaultMaxOutput);

// A program's output for a one-line message: its first line, at most 200 characters.
std::string first_output_line(const std::string& output);

// What identifies a program a run would start: its path (PATH searched for a bare name), size
// and modification time, so a cache keyed on it misses when another toolkit is installed.
std::string program_identity(const std::string& program);

}  // namespace warpsim::sim::workload

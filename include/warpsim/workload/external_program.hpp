// Running another program (ptxas) safely: argv passed as is (no shell), stdout and stderr captured
// together, bounded in time and in output. Never required: a program that is missing, fails or
// runs too long is reported, not thrown.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace warpsim::sim::workload {

struct ProgramRun {
  bool started = false;    // false: not found or not executable (PATH is searched)
  bool timed_out = false;  // killed at the limit
  int exit_status = -1;    // its exit status, -1 when it did not exit normally
  std::string output;      // stdout and stderr interleaved, at most 1 MiB
};

ProgramRun run_program(const std::vector<std::string>& argv, std::chrono::milliseconds limit);

}  // namespace warpsim::sim::workload

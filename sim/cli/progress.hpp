// Long runs on a terminal: a progress line on stderr with the rate and the time left, and
// Ctrl-C turned into a flag the driver polls, so the run stops cleanly (no file presented as
// complete).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace warpsim::cli {

class ProgressLine {
 public:
  // Shows nothing unless `enabled` and stderr is a terminal.
  ProgressLine(std::string what, bool enabled);
  ~ProgressLine();  // ends the line
  void update(std::int64_t done, std::int64_t total);

 private:
  std::string what_;
  bool shown_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

// Installs a SIGINT handler that sets the returned flag (a second Ctrl-C, a second or more after
// the first, kills as usual).
const std::atomic<bool>& interrupt_flag();

}  // namespace warpsim::cli

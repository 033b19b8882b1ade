// Long runs on a terminal: a progress line on stderr with the rate and the time left, and
// Ctrl-C turned into a flag the work polls, so the run stops cleanly (no file presented as
// complete) with kInterruptedStatus.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "warpsim/warpsim.hpp"

namespace warpsim::cli {

// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
inline constexpr int kInterruptedStatus = 130;

class ProgressLine {
 public:
  // Shows nothing unless `enabled` and stderr is a terminal, nor before the run has taken
  // kQuietStart: work that ends sooner leaves no trace.
  static constexpr std::chrono::milliseconds kQuietStart{1000};
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

// What the facade takes for progress and Ctrl-C: `line`'s updates and the interrupt flag.
Control progress_control(ProgressLine& line);

// The one line on stderr that says the run stopped on Ctrl-C: "warpsim: interrupted<detail>;
// nothing written". Returns kInterruptedStatus.
int report_interrupted(const std::string& detail = {});

}  // namespace warpsim::cli

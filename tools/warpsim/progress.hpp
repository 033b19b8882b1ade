// Long runs on a terminal: a progress line on stderr with the rate and the time left, and
// Ctrl-C turned into a flag the work polls, so the run stops cleanly (no file presented as
// complete) with kInterruptedStatus.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
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
  // What the work is doing now ("warp 3 of block (4,0,0), in the loop at line 120 ..."), shown
  // after the count; callable from any thread.
  void activity(const std::string& text);

 private:
  void draw(std::chrono::steady_clock::time_point now);  // with mutex_ held
  std::mutex mutex_;
  std::string what_;
  std::string activity_;
  std::int64_t done_ = 0, total_ = 0;
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

// --max-seconds: after `seconds` the interrupt flag is set, as by Ctrl-C, and the run stops.
void stop_after(double seconds);
// The limit set by stop_after, when it has passed (the Cancelled the run throws is then its doing).
std::optional<double> time_limit_passed();
// "FILE:LINE:COL: stopped after S s (--max-seconds): warp 3 of block (4,0,0), in the loop at ..."
std::string time_limit_message(const Cancelled& stop, double seconds);

// The one line on stderr that says the run stopped on Ctrl-C: "warpsim: interrupted<detail>;
// nothing written". Returns kInterruptedStatus.
int report_interrupted(const std::string& detail = {});

}  // namespace warpsim::cli

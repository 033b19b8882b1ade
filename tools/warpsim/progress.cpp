#include "progress.hpp"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace warpsim::cli {
namespace {

std::atomic<bool> interrupted{false};
std::atomic<std::int64_t> first_interrupt_ns{0};

std::int64_t monotonic_ns() {  // clock_gettime is async-signal-safe
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// The first SIGINT asks for a clean stop. One the same keypress also delivers (timeout(1) and
// shells may signal both the process and its group) is ignored; a second Ctrl-C a second or
// more later ends the process at once.
extern "C" void on_interrupt(int) {
  const std::int64_t now = monotonic_ns();
  std::int64_t expected = 0;
  if (first_interrupt_ns.compare_exchange_strong(expected, now)) {
    interrupted.store(true);
  } else if (now - expected >= 1'000'000'000) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

std::string duration_text(double seconds) {
  char text[32];
  if (seconds < 60) std::snprintf(text, sizeof text, "%.0fs", seconds);
  else if (seconds < 3600) std::snprintf(text, sizeof text, "%dm%02ds", static_cast<int>(seconds) / 60, static_cast<int>(seconds) % 60);
  else std::snprintf(text, sizeof text, "%dh%02dm", static_cast<int>(seconds) / 3600, static_cast<int>(seconds) / 60 % 60);
  return text;
}

}  // namespace

ProgressLine::ProgressLine(std::string what, bool enabled)
    : what_(std::move(what)), shown_(enabled && isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fputs("\n", stderr);
}

void ProgressLine::update(std::int64_t done, std::int64_t total) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < kQuietStart) return;
  if (done < total && now - last_ < std::chrono::milliseconds(100)) return;  // at most 10 redraws a second
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double left = rate > 0 ? static_cast<double>(total - done) / rate : 0;
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::fprintf(stderr, "\r%s [%s%s] %3d%% %lld/%lld, %.0f/s, ETA %s  ", what_.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), ' ').c_str(), total > 0 ? static_cast<int>(100 * done / total) : 100,
               static_cast<long long>(done), static_cast<long long>(total), rate, duration_text(left).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

const std::atomic<bool>& interrupt_flag() {
  std::signal(SIGINT, on_interrupt);
  return interrupted;
}

int report_interrupted(const std::string& detail) {
  std::fprintf(stderr, "warpsim: interrupted%s; nothing written\n", detail.c_str());
  return kInterruptedStatus;
}

Control progress_control(ProgressLine& line) {
  return Control{[&line](std::int64_t done, std::int64_t total) { line.update(done, total); }, &interrupt_flag()};
}

}  // namespace warpsim::cli

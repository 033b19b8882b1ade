#include "progress.hpp"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace warpsim::cli {
namespace {

std::atomic<bool> interrupted{false};
std::atomic<std::int64_t> first_interrupt_ns{0};
std::atomic<double> time_limit_s{0};  // set when --max-seconds has passed

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
  const std::lock_guard lock(mutex_);
  done_ = done;
  total_ = total;
  draw(std::chrono::steady_clock::now());
}

void ProgressLine::activity(const std::string& text) {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  activity_ = text;
  draw(std::chrono::steady_clock::now());
}

void ProgressLine::draw(std::chrono::steady_clock::time_point now) {
  const std::int64_t done = done_, total = total_;
  if (now - start_ < kQuietStart) return;
  // At most 10 redraws a second, but the last count at once.
  if ((done < total || total == 0) && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double left = rate > 0 ? static_cast<double>(total - done) / rate : 0;
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::fprintf(stderr, "\r%s [%s%s] %3d%% %lld/%lld, %.0f/s, ETA %s%s%s\033[K", what_.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), ' ').c_str(), total > 0 ? static_cast<int>(100 * done / total) : 100,
               static_cast<long long>(done), static_cast<long long>(total), rate, duration_text(left).c_str(),
               activity_.empty() ? "" : "; ", activity_.c_str());
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
  return Control{[&line](std::int64_t done, std::int64_t total) { line.update(done, total); }, &interrupt_flag(),
                 [&line](const std::string& text) { line.activity(text); }};
}

void stop_after(double seconds) {
  std::thread([seconds] {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    time_limit_s.store(seconds);
    interrupted.store(true);  // the flag Ctrl-C sets: every run that takes Ctrl-C takes the limit
  }).detach();  // the process ends with the command; the thread need not
}

std::string time_limit_message(const Cancelled& stop, double seconds) {
  std::ostringstream text;
  text << "stopped after " << seconds << " s (--max-seconds)";
  if (!stop.activity.empty()) text << " while emulating " << stop.activity;
  text << "; nothing written";
  return InputError(stop.location, text.str()).describe();
}

std::optional<double> time_limit_passed() {
  const double seconds = time_limit_s.load();
  return seconds > 0 ? std::optional(seconds) : std::nullopt;
}

}  // namespace warpsim::cli

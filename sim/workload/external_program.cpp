#include "warpsim/workload/external_program.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <csignal>

extern char** environ;

namespace warpsim::sim::workload {
namespace {

class Pipe {
 public:
  Pipe() { ok_ = ::pipe2(ends_, O_CLOEXEC) == 0; }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return ok_; }
  int read_end() const { return ends_[0]; }
  int write_end() const { return ends_[1]; }
  void close_read() { close_end(0); }
  void close_write() { close_end(1); }

 private:
  void close_end(int i) {
    if (ok_ && ends_[i] >= 0) ::close(ends_[i]);
    ends_[i] = -1;
  }
  int ends_[2] = {-1, -1};
  bool ok_ = false;
};

}  // namespace

ProgramRun run_program(const std::vector<std::string>& argv, std::chrono::milliseconds limit, std::size_t max_output) {
  ProgramRun run;
  if (argv.empty()) return run;
  Pipe pipe;
  if (!pipe.ok()) return run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe.write_end(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe.write_end(), STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  pipe.close_write();
  if (spawned != 0) return run;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    pollfd fd{pipe.read_end(), POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline check above ends it
    const ssize_t got = ::read(pipe.read_end(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of output: the program closed both streams
    if (run.output.size() < max_output) {
      run.output.append(buffer, static_cast<std::size_t>(got));
    } else {
      run.truncated = true;
    }
  }
  if (run.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // posix_spawnp reports a missing program as exit status 127 of the child (glibc).
  run.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127 && run.output.empty());
  if (!run.timed_out && WIFEXITED(status)) run.exit_status = WEXITSTATUS(status);
  return run;
}

std::string first_output_line(const std::string& output) {
  const std::string line = output.substr(0, output.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

std::string program_identity(const std::string& program) {
  std::error_code error;
  std::string found = program;
  if (program.find('/') == std::string::npos) {  // on PATH: the one a run would start
    const char* path = std::getenv("PATH");
    const std::string dirs = path != nullptr ? path : "";
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
      const std::string candidate = dirs.substr(start, colon - start) + "/" + program;
      if (std::filesystem::exists(candidate, error)) {
        found = candidate;
        break;
      }
      start = colon + 1;
    }
  }
  std::string identity = program;
  const auto size = std::filesystem::file_size(found, error);
  if (!error) identity += " " + found + " " + std::to_string(size);
  const auto time = std::filesystem::last_write_time(found, error);
  if (!error) identity += " " + std::to_string(time.time_since_epoch().count());
  return identity;
}

}  // namespace warpsim::sim::workload

// Running the warpsim executable in tests: its exit status, stdout and stderr, the check that
// bad input gets exit status 2, one `warpsim: error:` line and nothing on stdout, and Ctrl-C.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/source_dir.hpp"

namespace warpsim::testing_support {

// The warpsim built beside these tests, or WARPSIM_TEST_BINARY's: the sanitizer build runs the first
// pass's CLI tests against its own, sanitized warpsim (tests/CMakeLists.txt).
inline const std::string kBinary = std::getenv("WARPSIM_TEST_BINARY") != nullptr ? std::getenv("WARPSIM_TEST_BINARY") : WARPSIM_BINARY;

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder of this test's own: ctest runs tests in parallel processes. Suite and name both:
// AppCli and EvaluateCli each have a BadInputWritesNothing, and sharing a folder (and the
// captured stdout and stderr in it) made one fail now and then when the two ran at once.
inline std::string test_dir() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = testing::TempDir() + "/warpsim_cli_" + info->test_suite_name() + "." + info->name();
  std::filesystem::create_directories(dir);
  return dir;
}

inline Result run_warpsim(const std::string& arguments) {
  const std::string dir = test_dir();
  const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
  const std::string command = "cd '" + kSourceDir + "' && '" + kBinary + "' " + arguments + " >'" + out + "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

// `err` without the warning that the PTX was timed in PTX order because nvdisasm (or ptxas) is
// missing here (docs/sass.md): whether it shows depends on the machine, not on what a test checks
// (PtxCli.InstructionStreamIsReported checks it).
inline std::string without_ptx_order_warning(const std::string& err) {
  std::string kept;
  std::size_t at = 0;
  while (at < err.size()) {
    const std::size_t end = std::min(err.find('\n', at), err.size());
    const std::string line = err.substr(at, end - at);
    if (line.find("instruction stream: PTX order (") == std::string::npos) kept += line + (end < err.size() ? "\n" : "");
    at = end + 1;
  }
  return kept;
}

inline void expect_input_error(const std::string& arguments, const std::string& message_start) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 2) << arguments << "\n" << r.err;
  EXPECT_EQ(r.out, "") << arguments;
  EXPECT_EQ(r.err.rfind("warpsim: error: " + message_start, 0), 0u) << arguments << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

// Whether process `pid` has a handler for SIGINT (the SigCgt mask of /proc/PID/status).
inline bool catches_interrupt(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (SIGINT - 1) & 1) != 0;
  }
  return false;
}

// Whether catches_interrupt can tell (Linux): tests of Ctrl-C skip otherwise.
inline bool can_see_signal_handlers() { return std::filesystem::exists("/proc/self/status"); }

// Runs warpsim with `arguments` (one entry each, no shell), waits until it has installed its
// Ctrl-C handler, then sends SIGINT `signals` times at once: the signal arrives while the
// command works, however fast the machine, without guessing how long it runs.
inline Result run_warpsim_interrupted(const std::vector<std::string>& arguments, int signals = 1) {
  const std::string dir = test_dir();
  const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
  std::vector<char*> argv{const_cast<char*>(kBinary.c_str())};
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (chdir(kSourceDir.c_str()) != 0 || out_fd < 0 || err_fd < 0) _exit(127);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (catches_interrupt(pid)) {
      for (int i = 0; i < signals; ++i) kill(pid, SIGINT);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace warpsim::testing_support

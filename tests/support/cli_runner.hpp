// Running the warpsim executable in tests: its exit status, stdout and stderr, and the check that
// bad input gets exit status 2, one `warpsim: error:` line and nothing on stdout.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace warpsim::testing_support {

inline const std::string kBinary = WARPSIM_BINARY;
inline const std::string kSourceDir = WARPSIM_SOURCE_DIR;

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

// A folder of this test's own: ctest runs tests in parallel processes.
inline std::string test_dir() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = testing::TempDir() + "/warpsim_cli_" + info->name();
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

inline void expect_input_error(const std::string& arguments, const std::string& message_start) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 2) << arguments << "\n" << r.err;
  EXPECT_EQ(r.out, "") << arguments;
  EXPECT_EQ(r.err.rfind("warpsim: error: " + message_start, 0), 0u) << arguments << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
}

}  // namespace warpsim::testing_support

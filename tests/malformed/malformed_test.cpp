// The malformed-input suite (tests/malformed/cases.txt): every case exits with status 2, prints
// one located `warpsim: error:` line and nothing on stdout, and writes no file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

struct Case {
  int line;
  std::string arguments;
  std::string message_start;
};

std::vector<Case> read_cases() {
  std::ifstream in(kSourceDir + "/tests/malformed/cases.txt");
  std::vector<Case> cases;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    const std::size_t arrow = text.find(" ==> ");
    if (arrow == std::string::npos) {
      ADD_FAILURE() << "cases.txt:" << line << ": no ' ==> '";
      continue;
    }
    cases.push_back({line, text.substr(0, arrow), text.substr(arrow + 5)});
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

TEST(Malformed, EveryCaseIsRefusedCleanly) {
  const std::vector<Case> cases = read_cases();
  ASSERT_GE(cases.size(), 80u);
  const std::string outputs = test_dir() + "/outputs";
  for (const Case& c : cases) {
    std::filesystem::remove_all(outputs);
    std::filesystem::create_directories(outputs);
    expect_input_error(replace_all(c.arguments, "{out}", outputs + "/output"), c.message_start);
    EXPECT_TRUE(std::filesystem::is_empty(outputs)) << "cases.txt:" << c.line << " wrote a file";
  }
}

}  // namespace

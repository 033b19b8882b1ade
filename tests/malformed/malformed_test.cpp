// The malformed-input suite (tests/malformed/cases.txt): every case exits with status 2, prints
// one located `warpsim: error:` line and nothing on stdout, and writes no file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/cli_runner.hpp"

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

// Inputs too big to commit, written by the test: `{generated}/NAME` in cases.txt (arguments and
// message) is the file NAME of this map, in a folder of the test's own.
const std::vector<std::pair<std::string, std::string>>& generated_inputs() {
  static const std::vector<std::pair<std::string, std::string>> inputs = [] {
    const std::string head = ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry k()\n{\n";
    std::string addresses = head + "\tld.global.u32 %r1, ";
    for (int i = 0; i < 100'000; ++i) addresses += "[%rd1, ";
    std::string key = "a";
    for (int i = 0; i < 500'000; ++i) key += ".a";
    return std::vector<std::pair<std::string, std::string>>{
        // A line opening a million parentheses: the parser once recursed once per '(' (SIGSEGV).
        {"deep_parentheses.ptx", head + "\tmov.u32 %r1, " + std::string(1'000'000, '(') + "%r2;\n}\n"},
        {"deep_vector.ptx", head + "\tmov.b64 %rd1, " + std::string(1'000'000, '{') + "%r2;\n}\n"},
        {"deep_addresses.ptx", addresses + "\n}\n"},
        {"deep_blocks.ptx", head + std::string(1'000'000, '{') + "\n"},
        {"deep_initializer.ptx", ".version 9.0\n.global .align 4 .u32 a[1] = " + std::string(1'000'000, '{') + "\n"},
        {"deep_section.ptx", ".version 9.0\n.section .debug_info\n" + std::string(1'000'000, '{') + "\n"},
        // Half a million dotted key parts: toml++ recursed over them inside toml::parse (SIGSEGV).
        {"deep_key.toml", key + " = 1\n"},
        {"deep_header.toml", "[" + key + "]\n"},
    };
  }();
  return inputs;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

TEST(Malformed, EveryCaseIsRefusedCleanly) {
  // The cases are those of a machine without nvcc (a .cu is refused: run nvcc -ptx first); a .cu
  // that nvcc rejects is tests/cli/cuda_cli_test.cpp's.
  setenv("WARPSIM_NVCC", "/nonexistent/nvcc", 1);
  const std::vector<Case> cases = read_cases();
  ASSERT_GE(cases.size(), 80u);
  const std::string outputs = test_dir() + "/outputs";
  const std::string generated = test_dir() + "/generated";
  std::filesystem::create_directories(generated);
  for (const auto& [name, text] : generated_inputs()) std::ofstream(generated + "/" + name, std::ios::binary) << text;
  for (const Case& c : cases) {
    std::filesystem::remove_all(outputs);
    std::filesystem::create_directories(outputs);
    const std::string arguments = replace_all(replace_all(c.arguments, "{out}", outputs + "/output"), "{generated}", generated);
    expect_input_error(arguments, replace_all(c.message_start, "{generated}", generated));
    EXPECT_TRUE(std::filesystem::is_empty(outputs)) << "cases.txt:" << c.line << " wrote a file";
  }
  unsetenv("WARPSIM_NVCC");
}

}  // namespace

// Suites written by tests into workloads/suites/, next to the committed ones, so that their
// relative paths (../mtx_mul_vec/..., ../measured/ptx/...) resolve; removed once read.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "warpsim/driver/suite.hpp"

namespace warpsim::testing_support {

inline sim::driver::Suite suite_from(const std::string& text) {
  const std::string path = std::string(WARPSIM_SOURCE_DIR) + "/workloads/suites/__test_" +
                           testing::UnitTest::GetInstance()->current_test_info()->name() + ".toml";
  { std::ofstream(path) << text; }
  try {
    sim::driver::Suite suite = sim::driver::load_suite(path);
    std::filesystem::remove(path);
    return suite;
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
}

}  // namespace warpsim::testing_support

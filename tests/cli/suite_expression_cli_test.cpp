// Suites with expressions (docs/formats.md, "Suites") against the `warpsim` executable: a swept
// point equals `warpsim simulate` of the same launch (the rest: tests/driver/suite_expression_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "warpsim/driver/suite.hpp"
#include "warpsim/driver/sweep.hpp"
#include "support/cli_runner.hpp"
#include "support/suite_from.hpp"

namespace warpsim::sim::driver {
namespace {

using testing_support::run_warpsim;
using testing_support::suite_from;

#define GPU "gpus = [\"rtx2060\"]\n"
#define MATMUL_T16 "[[workload]]\nptx = \"../measured/ptx/matMul_gpu_sharedmem-T16.ptx\"\nparams = [\"N\"]\nparam_names = { N = 3 }\n"

std::vector<SweepRow> rows(const Suite& suite) {
  std::vector<SweepRow> all;
  run_sweep(suite, [&](const SweepRow& row) { all.push_back(row); });
  return all;
}

// The measured data's launch formula, grid ceil(N/T)^2 and block T x T, as one [[workload]]:
// each point equals `warpsim simulate` of the same launch.
TEST(SuiteExpressions, PtxLaunchFormulaEqualsSimulateOfTheSameLaunches) {
  const Suite suite = suite_from(GPU MATMUL_T16 "launch = { grid = \"ceil_div(N,T),ceil_div(N,T)\", block = \"T,T\" }\n"
                                                "axes = { zip = { N = [100, 512], T = [8, 16] } }\n");
  const std::vector<SweepRow> swept = rows(suite);
  ASSERT_EQ(swept.size(), 2u);
  const std::vector<std::pair<workload::Point, std::string>> expected = {
      {{{"N", 100}, {"T", 8}}, "--grid 13,13 --block 8,8 --param 3=100"},
      {{{"N", 512}, {"T", 16}}, "--grid 32,32 --block 16,16 --param 3=512"}};
  for (std::size_t i = 0; i < swept.size(); ++i) {
    EXPECT_EQ(swept[i].point, expected[i].first);
    const testing_support::Result r = run_warpsim("simulate workloads/measured/ptx/matMul_gpu_sharedmem-T16.ptx --gpu rtx2060 " +
                                                  expected[i].second + " --format json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(swept[i].prediction.launch.blocks, json["blocks"].get<std::int64_t>());
    EXPECT_EQ(swept[i].prediction.launch.threads_per_block, json["threads"].get<std::int64_t>());
    EXPECT_EQ(swept[i].prediction.time_us, json["time_us"].get<double>());
  }
}

}  // namespace
}  // namespace warpsim::sim::driver

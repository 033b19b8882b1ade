// `warpsim simulate --set FIGURE=VALUE`: the baseline and the what-if run side by side; each form
// of VALUE, the kernel's figures, and each malformed change.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

// Under the memory model, whose arithmetic these expectations follow (under the default pipes
// model half the SMs still give each of these 68 small blocks a warp scheduler of its own, so
// --set sms=50% changes nothing there).
const std::string kDwt = "simulate workloads/dwt/matrix.kp --gpu rtx2080 --grid 68 --block 61 --param K=8 --model memory";
const std::string kPtx = "simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx --gpu rtx2060 --grid 16 --block 256 "
                         "--param 0=4096 --tp 5 --tm 31";

nlohmann::json json_of(const std::string& arguments) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 0) << arguments << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// A built-in profile with one line changed, as a file: what the what-if run must equal.
std::string changed_profile(const std::string& from, const std::string& to, const std::string& gpu = "rtx2080") {
  std::string text = slurp(kSourceDir + "/gpus/" + gpu + ".toml");
  text = std::regex_replace(text, std::regex("\n" + from + "\n"), "\n" + to + "\n");
  const std::string path = test_dir() + "/" + gpu + ".toml";
  std::ofstream(path) << text;
  return path;
}

TEST(WhatIfCli, NumberReplacesAndEqualsAChangedProfile) {
  const nlohmann::json j = json_of(kDwt + " --set clock_mhz=1000");
  ASSERT_EQ(j["changes"].size(), 1u);
  EXPECT_EQ(j["changes"][0]["figure"], "clock_mhz");
  EXPECT_EQ(j["changes"][0]["given"], "1000");
  EXPECT_EQ(j["changes"][0]["baseline"], 1545);
  EXPECT_EQ(j["changes"][0]["value"], 1000);
  EXPECT_EQ(j["baseline_time_us"], json_of(kDwt)["time_us"]);
  const std::string profile = changed_profile("clock_mhz = 1545", "clock_mhz = 1000");
  const std::string changed = std::regex_replace(kDwt, std::regex("--gpu rtx2080"), "--gpu " + profile);
  EXPECT_EQ(j["what_if_time_us"], json_of(changed)["time_us"]);
  EXPECT_EQ(j["speedup"].get<double>(), j["baseline_time_us"].get<double>() / j["what_if_time_us"].get<double>());
  EXPECT_LT(j["speedup"].get<double>(), 1.0);  // a slower clock
  EXPECT_EQ(j["baseline"]["time_us"], j["baseline_time_us"]);
  EXPECT_EQ(j["what_if"]["clock_mhz"], 1000);
}

TEST(WhatIfCli, TimesAndPercentScaleTheBaseline) {
  const nlohmann::json twice = json_of(kDwt + " --set clock_mhz=x2");
  EXPECT_EQ(twice["changes"][0]["value"], 3090);
  // An alias, a whole-number figure rounded to the nearest, two changes at once.
  const nlohmann::json half = json_of(kDwt + " --set sms=50% --set max_blocks_per_sm=x0.5");
  ASSERT_EQ(half["changes"].size(), 2u);
  EXPECT_EQ(half["changes"][0]["figure"], "sm_count");
  EXPECT_EQ(half["changes"][0]["baseline"], 68);
  EXPECT_EQ(half["changes"][0]["value"], 34);
  EXPECT_EQ(half["changes"][1]["figure"], "max_blocks_per_sm");
  EXPECT_EQ(half["changes"][1]["value"], 8);
  EXPECT_GT(half["what_if_time_us"].get<double>(), half["baseline_time_us"].get<double>());
  const std::string profile = changed_profile("sm_count = 68", "sm_count = 34");
  const std::string changed = std::regex_replace(kDwt, std::regex("--gpu rtx2080"), "--gpu " + profile);
  EXPECT_EQ(json_of(kDwt + " --set sm_count=50%")["what_if_time_us"], json_of(changed)["time_us"]);
}

// A PTX launch's timings are kept per lowering for the whole process: the what-if run must not
// find the baseline's there when only a memory figure changed.
TEST(WhatIfCli, PtxMemoryFigureEqualsAChangedProfile) {
  const std::string sgemm = "simulate workloads/sgemm/sgemm.ptx --kernel sgemm_tiled --grid 16,16 --block 16,16 "
                            "--param 0=256 --tp 5 --tm 31 --gpu ";
  const nlohmann::json j = json_of(sgemm + "h100 --set dram_bandwidth_gbs=1%");
  EXPECT_EQ(j["changes"][0]["figure"], "memory_bandwidth_gbs");
  EXPECT_EQ(j["changes"][0]["value"], 33.5);
  // The achievable figure keeps its fraction of the peak: 2753.2 becomes 27.532.
  const std::string profile = changed_profile("memory_bandwidth_gbs = 3350\nachievable_bandwidth_gbs = 2753.2",
                                              "memory_bandwidth_gbs = 33.5\nachievable_bandwidth_gbs = 27.532", "h100");
  EXPECT_NEAR(j["what_if_time_us"].get<double>(), json_of(sgemm + profile)["time_us"].get<double>(), 1e-9 * j["what_if_time_us"].get<double>());
  EXPECT_GT(j["what_if_time_us"].get<double>(), j["baseline_time_us"].get<double>());
}

TEST(WhatIfCli, KernelFiguresRegistersAndShared) {
  const nlohmann::json regs = json_of(kPtx + " --set registers=255");
  EXPECT_EQ(regs["changes"][0]["figure"], "registers");
  EXPECT_EQ(regs["changes"][0]["value"], 255);
  EXPECT_EQ(regs["baseline"]["registers_per_thread"], regs["changes"][0]["baseline"]);
  EXPECT_EQ(regs["what_if"]["registers_per_thread"], 255);
  EXPECT_EQ(regs["what_if_time_us"], json_of(kPtx + " --regs 255")["time_us"]);
  const nlohmann::json shared = json_of(kPtx + " --set shared=40000");
  EXPECT_EQ(shared["changes"][0]["baseline"], 0);
  EXPECT_EQ(shared["changes"][0]["value"], 40000);
  EXPECT_LE(shared["what_if"]["active_blocks_per_sm"].get<int>(), shared["baseline"]["active_blocks_per_sm"].get<int>());
  EXPECT_EQ(shared["what_if"]["active_blocks_per_sm"], 1);  // 64 KiB per SM on the rtx2060 (CC 7.5)
}

TEST(WhatIfCli, TextShowsBothRunsAndTheSpeedUp) {
  const Result r = run_warpsim(kDwt + " --set sms=50% --format text");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("what if: dwt_matrix on rtx2080\n  sm_count = 50%: 68 -> 34\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("quantity"), std::string::npos);
  EXPECT_NE(r.out.find("what-if"), std::string::npos);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nspeed-up: 0\\.[0-9]{3}x \\(baseline time over what-if time\\)\n$"))) << r.out;
}

TEST(WhatIfCli, MalformedChangesAreOneLine) {
  expect_input_error(kDwt + " --set bandwidth=2", "--set 'bandwidth=2': no figure 'bandwidth' (known: registers, shared, clock_mhz, sm_count,");
  expect_input_error(kDwt + " --set clock_mhz", "--set 'clock_mhz': expected FIGURE=VALUE");
  expect_input_error(kDwt + " --set clock_mhz=fast", "--set 'clock_mhz=fast': 'fast' is not a number");
  expect_input_error(kDwt + " --set clock_mhz=x", "--set 'clock_mhz=x': '' is not a number");
  expect_input_error(kDwt + " --set clock_mhz=-5", "--set 'clock_mhz=-5': the value cannot be negative");
  expect_input_error(kDwt + " --set clock_mhz=x-2", "--set 'clock_mhz=x-2': the value cannot be negative");
  expect_input_error(kDwt + " --set clock_mhz=x0", "--set 'clock_mhz=x0': x0 leaves nothing");
  expect_input_error(kDwt + " --set sm_count=0%", "--set 'sm_count=0%': 0% leaves nothing");
  expect_input_error(kDwt + " --set clock_mhz=0", "--set clock_mhz=0: clock_mhz would be 0, outside (0, 10^6]");
  expect_input_error(kDwt + " --set sm_count=2.5", "--set sm_count=2.5: sm_count would be 2.5: it is a whole number");
  expect_input_error(kDwt + " --set warp_size=64", "--set 'warp_size=64': no figure 'warp_size'");
  expect_input_error(kDwt + " --set registers=64", "--set registers=64: registers are a PTX kernel's");
  expect_input_error(kDwt + " --set shared=1024", "dynamic shared memory is for PTX kernels");
}

}  // namespace

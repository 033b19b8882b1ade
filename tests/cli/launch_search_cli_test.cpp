// `warpsim launch --search`: each block size's time is what `warpsim simulate` prints for that
// launch, number for number; the fastest is marked (ties to the smaller block); sizes whose
// launch cannot run are listed with the reason and no time. Bad command lines are in
// tests/malformed/cases.txt.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

nlohmann::json run_json(const std::string& arguments) {
  const Result r = run_warpsim(arguments);
  EXPECT_EQ(r.status, 0) << arguments << "\n" << r.err;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// The candidate's figures against `warpsim simulate PROGRAM_ARGS --grid B --block T`.
void expect_simulate_agrees(const std::string& program_args, const nlohmann::json& c) {
  const std::string launch = " --grid " + c["blocks"].dump() + " --block " + c["threads"].dump();
  const nlohmann::json s = run_json("simulate " + program_args + " --gpu rtx2080" + launch);
  EXPECT_EQ(c["time_us"], s["time_us"]) << launch;
  EXPECT_EQ(c["cycles"], s["cycles"]) << launch;
  EXPECT_EQ(c["active_blocks_per_sm"], s["active_blocks_per_sm"]) << launch;
  EXPECT_EQ(c["active_warps_per_sm"].get<std::int64_t>(),
            s["active_blocks_per_sm"].get<std::int64_t>() * s["warps_per_block"].get<std::int64_t>())
      << launch;
}

TEST(LaunchSearchCli, KpTimesEqualSimulateAndTheMinimumIsBest) {
  const std::string program = "workloads/dwt/matrix.kp --param K=8";
  const nlohmann::json j = run_json("launch --gpu rtx2080 --threads 4096 --search " + program);
  EXPECT_EQ(j["gpu"], "rtx2080");
  EXPECT_EQ(j["kernel"], "dwt_matrix");
  EXPECT_EQ(j["total_threads"], 4096);
  const nlohmann::json& candidates = j["candidates"];
  ASSERT_EQ(candidates.size(), 32u);
  double least = 1e300;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const nlohmann::json& c = candidates[i];
    EXPECT_EQ(c["threads"], 32 * (i + 1));
    ASSERT_TRUE(c["time_us"].is_number()) << c.dump();
    EXPECT_FALSE(c.contains("reason"));
    expect_simulate_agrees(program, c);
    least = std::min(least, c["time_us"].get<double>());
  }
  // The best is the least time; 32 and 64 threads tie (one core package of 2 warps): 32 wins.
  EXPECT_EQ(candidates[0]["time_us"], candidates[1]["time_us"]);
  EXPECT_EQ(j["best"]["time_us"].get<double>(), least);
  EXPECT_EQ(j["best"]["threads"], 32);
  EXPECT_EQ(j["best"]["blocks"], 128);
  EXPECT_EQ(std::count_if(candidates.begin(), candidates.end(), [](const nlohmann::json& c) { return c["best"] == true; }), 1);
  EXPECT_EQ(candidates[0]["best"], true);
  // Algorithm 3's launch, as `warpsim launch` chooses it and `warpsim simulate` times it.
  const nlohmann::json plan = run_json("launch --gpu rtx2080 --threads 4096");
  EXPECT_EQ(j["algorithm3"]["threads"], plan["threads"]);
  EXPECT_EQ(j["algorithm3"]["blocks"], plan["blocks"]);
  EXPECT_EQ(j["algorithm3"]["rule"], plan["rule"]);
  EXPECT_EQ(j["algorithm3"]["time_us"],
            run_json("simulate " + program + " --gpu rtx2080 --grid 68 --block 61")["time_us"]);
}

TEST(LaunchSearchCli, WithoutAProgramTheBuiltInMatrixDwtIsTimed) {
  // The form, `launch --gpu G --threads N --search`: the paper's matrix DWT at K = 8, the
  // same as the committed workloads/dwt/matrix.kp and as `simulate dwt_matrix` (the built-in).
  const nlohmann::json plain = run_json("launch --gpu rtx2080 --threads 4096 --search");
  const nlohmann::json file = run_json("launch --gpu rtx2080 --threads 4096 --search workloads/dwt/matrix.kp --param K=8");
  EXPECT_EQ(plain, file);
  EXPECT_EQ(plain["kernel"], "dwt_matrix");
  expect_simulate_agrees("dwt_matrix --param K=8", plain["candidates"][5]);
  const nlohmann::json k14 = run_json("launch --gpu rtx2080 --threads 4096 --search --param K=14");
  EXPECT_EQ(k14, run_json("launch --gpu rtx2080 --threads 4096 --search workloads/dwt/matrix.kp --param K=14"));
  EXPECT_NE(k14["best"]["time_us"], plain["best"]["time_us"]);
}

TEST(LaunchSearchCli, PtxLargeBlocksRuledOutByRegisters) {
  // 255 registers a thread: 8192 a warp of the 65536 of an rtx2080 SM, so at most 256 threads.
  const std::string program = "workloads/mtx_mul_vec/mtx_mul_vec.ptx --param 0=4096 --regs 255";
  const nlohmann::json j = run_json("launch --gpu rtx2080 --threads 4096 --search " + program);
  EXPECT_EQ(j["kernel"], "mtx_mul_vec");
  EXPECT_EQ(j["registers_per_thread"], 255);
  EXPECT_EQ(j["registers_source"], "--regs");
  const nlohmann::json& candidates = j["candidates"];
  ASSERT_EQ(candidates.size(), 32u);
  for (const nlohmann::json& c : candidates) {
    if (c["threads"].get<int>() <= 256) {
      expect_simulate_agrees(program, c);
      continue;
    }
    EXPECT_TRUE(c["time_us"].is_null()) << c.dump();
    EXPECT_TRUE(c["cycles"].is_null()) << c.dump();
    EXPECT_EQ(c["best"], false);
    EXPECT_NE(c["reason"].get<std::string>().find("at 255 registers each"), std::string::npos) << c.dump();
  }
  const nlohmann::json& last = candidates[31];
  EXPECT_EQ(last["threads"], 1024);
  // The reason is what simulate itself says of that launch.
  const Result refused = run_warpsim("simulate " + program + " --gpu rtx2080 --grid 4 --block 1024");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err, "warpsim: error: " + last["reason"].get<std::string>() + "\n");
  EXPECT_LE(j["best"]["threads"].get<int>(), 256);
}

TEST(LaunchSearchCli, GridLimitListedAsAReason) {
  const nlohmann::json j =
      run_json("launch --gpu rtx2080 --threads 100000000000 --search workloads/dwt/matrix.kp --param K=8");
  const nlohmann::json& first = j["candidates"][0];
  EXPECT_EQ(first["threads"], 32);
  EXPECT_EQ(first["blocks"], 3125000000);
  EXPECT_TRUE(first["time_us"].is_null());
  EXPECT_EQ(first["reason"], "launch of 3125000000 blocks exceeds the CUDA grid limit of 2^31-1 blocks");
  EXPECT_TRUE(j["candidates"][1]["time_us"].is_number());
}

TEST(LaunchSearchCli, TextCsvAndOutputFile) {
  const std::string search = "launch --gpu rtx2080 --threads 4096 --search workloads/dwt/matrix.kp --param K=8";
  const Result text = run_warpsim(search + " --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  // The default pipes model: up to 64 threads a block (and Algorithm 3's 61) no SM holds more warps
  // than its 4 schedulers, one warp each, so each times as MatrixOnOneWarp's single warp, 1557.8
  // cycles (the memory model's 2 core packages per SM give the same there).
  EXPECT_EQ(text.out.rfind("block sizes for dwt_matrix on rtx2080, N = 4096 threads, pipes model\n"
                           "best  threads  blocks  time_us  cycles  active_blocks_per_sm  active_warps_per_sm\n"
                           "*          32     128    6.208  1557.8                     2                    2\n"
                           "           64      64    6.208  1557.8                     1                    2\n",
                           0),
            0u)
      << text.out;
  EXPECT_NE(text.out.find("\nbest: 32 threads x 128 blocks, 6.208 us\n"
                          "Algorithm 3 (rule 3): 61 threads x 68 blocks, 6.208 us (1.000x the best)\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '*'), 1);

  const std::string dir = test_dir();
  const Result csv = run_warpsim(search + " -o " + dir + "/search.csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out, "");
  const std::string rows = slurp(dir + "/search.csv");
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 33);
  const nlohmann::json j = run_json(search);
  EXPECT_NE(rows.find("\nrtx2080,dwt_matrix,4096,32,128," + j["candidates"][0]["time_us"].dump() + ",1557.8,2,2,true,\n"),
            std::string::npos)
      << rows;
  ASSERT_EQ(run_warpsim(search + " -o " + dir + "/search.json").status, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir + "/search.json")), j);
}

TEST(LaunchSearchCli, WithoutSearchTheLaunchIsUnchanged) {
  const Result r = run_warpsim("launch --gpu rtx2080 --threads 4096 --format text");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "68 blocks x 61 threads (Algorithm 3, rule 3, rtx2080)\n");
  const Result help = run_warpsim("launch --help");
  ASSERT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--search [PROGRAM.kp|KERNEL.ptx]"), std::string::npos) << help.out;
}

}  // namespace

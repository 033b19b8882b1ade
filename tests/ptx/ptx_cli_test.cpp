// `warpsim lower` and `warpsim simulate` on PTX, end to end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

TEST(PtxCli, LowerJsonContract) {
  const Result r = run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 1 --block 32 --param N=102 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"], "mtx_mul_vec");
  EXPECT_EQ(j["warps"], 1);
  ASSERT_EQ(j["programs"].size(), 1u);
  const auto& p = j["programs"][0];
  EXPECT_EQ(p["warps"], 1);
  EXPECT_EQ(p["loads"], 206);
  EXPECT_EQ(p["stores"], 102);
  EXPECT_TRUE(p["calc_cycles"].is_number());
  EXPECT_TRUE(p["program"].is_array());
  EXPECT_EQ(p["kp"].get<std::string>().rfind("kernel mtx_mul_vec\n", 0), 0u);
  ASSERT_EQ(j["assumptions"].size(), 1u);  // its 12 ld.global (its ld.param reads are known)
  EXPECT_EQ(j["assumptions"][0]["kind"], "memory_values");
  EXPECT_EQ(j["assumptions"][0]["count"], 12);
}

TEST(PtxCli, LowerKpReadsBackAsAProgram) {
  const std::string dir = test_dir();
  const Result r = run_warpsim("lower workloads/dwt/dwt.ptx --kernel mtx --grid 4 --block 256 --param K=8 --param N=1024 "
                           "--param total=1024 -o " + dir + "/mtx.kp");
  ASSERT_EQ(r.status, 0) << r.err;
  // The lowered text is a .kp file warpsim runs: 8 warps on one core package.
  const Result core = run_warpsim("core " + dir + "/mtx.kp --warps 8 --tm 2 --format json");
  ASSERT_EQ(core.status, 0) << core.err;
  EXPECT_GT(nlohmann::json::parse(core.out)["cycles"].get<double>(), 0);
}

TEST(PtxCli, SimulatePtxMatchesSimulateOfItsLoweredProgram) {
  const std::string dir = test_dir();
  const std::string args = " --gpu rtx2060 --grid 16 --block 256 --tp 5 --tm 31";
  ASSERT_EQ(run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 16 --block 256 --param N=4096 -o " + dir + "/m.kp").status, 0);
  const Result from_ptx = run_warpsim("simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx" + args + " --param N=4096");
  const Result from_kp = run_warpsim("simulate " + dir + "/m.kp" + args);
  ASSERT_EQ(from_ptx.status, 0) << from_ptx.err;
  ASSERT_EQ(from_kp.status, 0) << from_kp.err;
  const auto a = nlohmann::json::parse(from_ptx.out), b = nlohmann::json::parse(from_kp.out);
  EXPECT_EQ(a["time_us"], b["time_us"]);
  EXPECT_EQ(a["warp_programs"], 1);
}

TEST(PtxCli, SimulateMixedWarpPrograms) {
  // 100 of 128 threads run the kernel, the last warp exits at once: two warp programs.
  const std::string dir = test_dir();
  const Result r = run_warpsim("simulate workloads/dwt/dwt.ptx --kernel ltt --gpu rtx2080 --grid 2 --block 64 --tp 5 --tm 12 "
                           "--param k=0 --param L=5 --param N=200 --param total=100 --timeline " + dir + "/t.svg --trace " + dir + "/t.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(dir + "/t.svg").find("<svg"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(slurp(dir + "/t.json")));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["warp_programs"].get<int>(), 2);
  EXPECT_GT(j["time_us"].get<double>(), 5.0);
}

TEST(PtxCli, LowerListsAssumptions) {
  const std::string file = "tests/ptx/cases/assumptions.ptx";
  const Result r = run_warpsim("lower " + file + " --grid 1 --block 64 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["assumptions"].size(), 18u);  // tests/ptx/assumptions_test.cpp checks each
  const nlohmann::json branch = {
      {"kind", "unknown_branch"},
      {"message", "branch decisions depended on values warpsim cannot know (loaded from memory, or computed by an "
                  "instruction it does not model); loops left at test 1 (--unknown-trips), other branches fell "
                  "through (--unknown-branch)"},
      {"file", file}, {"line", 83}, {"column", 2}, {"count", 2}};
  EXPECT_EQ(j["assumptions"][0], branch);
  const nlohmann::json mma = {
      {"kind", "unmodelled_opcode"},
      {"message", "'mma' is not modelled: its results are unknown, and it is timed as one calc instruction"},
      {"file", file}, {"line", 56}, {"column", 2}, {"count", 1}};
  EXPECT_EQ(j["assumptions"][3], mma);
  // The .kp text starts with one comment line per assumption and still reads back.
  const std::string dir = test_dir();
  ASSERT_EQ(run_warpsim("lower " + file + " --grid 1 --block 64 -o " + dir + "/a.kp").status, 0);
  std::istringstream text(slurp(dir + "/a.kp"));
  std::string line;
  for (int i = 0; i < 18 && std::getline(text, line); ++i) EXPECT_EQ(line.rfind("# assumption: ", 0), 0u) << line;
  std::getline(text, line);
  EXPECT_EQ(line.rfind("# assumptions (assumptions), grid 1,1,1", 0), 0u) << line;
  const std::string mma_line = "\n# assumption: unmodelled_opcode: 'mma' is not modelled: its results are unknown, "
                               "and it is timed as one calc instruction (count 1, first at " + file + ":56:2)\n";
  EXPECT_NE(slurp(dir + "/a.kp").find(mma_line), std::string::npos);
  const Result core = run_warpsim("core " + dir + "/a.kp --warps 2 --tm 2 --format json");
  EXPECT_EQ(core.status, 0) << core.err;
  // A kernel with nothing to assume lists nothing.
  const Result exact = run_warpsim("lower tests/ptx/cases/exact_values.ptx --grid 1 --block 32 --format json");
  ASSERT_EQ(exact.status, 0) << exact.err;
  EXPECT_EQ(nlohmann::json::parse(exact.out)["assumptions"], nlohmann::json::array());
}

TEST(PtxCli, SimulateListsAssumptions) {
  const std::string args = "simulate tests/ptx/cases/barrier.ptx --gpu rtx2060 --grid 1 --block 64 --tp 5 --tm 31";
  const Result r = run_warpsim(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json expected = nlohmann::json::array(
      {{{"kind", "barrier"},
        {"message", "barriers are not modelled: each warp runs on its own, as if the other warps had arrived"},
        {"file", "tests/ptx/cases/barrier.ptx"}, {"line", 48}, {"column", 2}, {"count", 1}},
       {{"kind", "memory_values"},
        {"message", "values loaded from memory are unknown (stores are not tracked)"},
        {"file", "tests/ptx/cases/barrier.ptx"}, {"line", 43}, {"column", 2}, {"count", 2}}});
  EXPECT_EQ(nlohmann::json::parse(r.out)["assumptions"], expected);
  const Result text = run_warpsim(args + " --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  const std::string lines =
      "\nassumption: barrier: barriers are not modelled: each warp runs on its own, as if the other warps had arrived "
      "(count 1, first at tests/ptx/cases/barrier.ptx:48:2)\n"
      "assumption: memory_values: values loaded from memory are unknown (stores are not tracked) "
      "(count 2, first at tests/ptx/cases/barrier.ptx:43:2)\n";
  EXPECT_NE(text.out.find(lines), std::string::npos) << text.out;
}

// Malformed PTX and bad PTX options are cases of the malformed-input suite (tests/malformed/cases.txt).

TEST(PtxCli, FailedLowerWritesNoFile) {
  const std::string dir = test_dir();
  const std::string out = dir + "/never.kp";
  std::filesystem::remove(out);
  expect_input_error("lower tests/malformed/ptx/truncated.ptx --grid 1 --block 32 -o " + out, "tests/malformed/ptx/truncated.ptx:");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
}

}  // namespace

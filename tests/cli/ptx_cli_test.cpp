// `warpsim lower` and `warpsim simulate` on PTX, end to end.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

TEST(PtxCli, LowerJsonContract) {
  const Result r = run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 1 --block 32 --param 0=102 --format json");
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

// The values as bound, in parameter order: numbers as given, pointers as "pointer", a scalar
// that nothing but arithmetic reads (saxpy's a) null when not given.
TEST(PtxCli, JsonEchoesTheBoundParameters) {
  const std::string saxpy = "workloads/saxpy/saxpy.ptx --grid 2 --block 64 --param 0=96";
  const auto echo = [](const Result& r) {
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::ordered_json::parse(r.out)["parameters"].dump();
  };
  EXPECT_EQ(echo(run_warpsim("lower " + saxpy + " --format json")),
            R"({"_Z5saxpyifPKfPf_param_0":96,"_Z5saxpyifPKfPf_param_1":null,"_Z5saxpyifPKfPf_param_2":"pointer",)"
            R"("_Z5saxpyifPKfPf_param_3":"pointer"})");
  EXPECT_EQ(echo(run_warpsim("simulate " + saxpy + " --param 1=-2.5 --gpu rtx2080 --tp 5 --tm 10")),
            R"({"_Z5saxpyifPKfPf_param_0":96,"_Z5saxpyifPKfPf_param_1":-2.5,"_Z5saxpyifPKfPf_param_2":"pointer",)"
            R"("_Z5saxpyifPKfPf_param_3":"pointer"})");
  // C++ names of a -G build, and the text report's line.
  const Result text = run_warpsim("simulate workloads/saxpy/saxpy.G.ptx --grid 2 --block 64 --param n=96 --param a=0.5 "
                                  "--gpu rtx2080 --tp 5 --tm 10 --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  const std::string line = "\nparameters: 0 (n) = 96, 1 (a) = 0.5, 2 (x) = pointer, 3 (y) = pointer\n";
  EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
}

// CUDA source where PTX (or a .kp program) is expected: one line that says what to run.
// (Where no nvcc runs: tests/cli/cuda_cli_test.cpp compiles a .cu where one does.)
TEST(PtxCli, CudaSourceGetsTheNvccCommand) {
  setenv("WARPSIM_NVCC", "/nonexistent/nvcc", 1);
  const std::string message = "warpsim: error: workloads/saxpy/saxpy.cu:1: this is CUDA source, not PTX: run "
                              "`nvcc -ptx -arch=sm_75 workloads/saxpy/saxpy.cu -o workloads/saxpy/saxpy.ptx` first\n";
  for (const std::string command : {"simulate workloads/saxpy/saxpy.cu --gpu rtx2080 --grid 1 --block 32 --tp 5 --tm 2",
                                    "lower workloads/saxpy/saxpy.cu --grid 1 --block 32",
                                    "core workloads/saxpy/saxpy.cu --warps 2 --tm 1"}) {
    const Result r = run_warpsim(command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(r.err, message) << command;
  }
  // Recognised by its text too: CUDA saved as .ptx or .kp.
  const std::string dir = test_dir();
  for (const std::string name : {"kernel.ptx", "kernel.kp"}) {
    std::ofstream(dir + "/" + name) << "// y = a*x\n#include <cstdio>\n__global__ void k(float* y) { y[0] = 1; }\n";
  }
  const std::string run = ": this is CUDA source, not PTX: run `nvcc -ptx -arch=sm_75 -x cu ";
  const Result ptx = run_warpsim("lower " + dir + "/kernel.ptx --grid 1 --block 32");
  EXPECT_EQ(ptx.err, "warpsim: error: " + dir + "/kernel.ptx:1" + run + dir + "/kernel.ptx -o " + dir +
                         "/kernel.nvcc.ptx` first\n");
  const Result kp = run_warpsim("core " + dir + "/kernel.kp --warps 2 --tm 1");
  EXPECT_EQ(kp.err,
            "warpsim: error: " + dir + "/kernel.kp:1" + run + dir + "/kernel.kp -o " + dir + "/kernel.ptx` first\n");
  unsetenv("WARPSIM_NVCC");
}

TEST(PtxCli, LowerKpReadsBackAsAProgram) {
  const std::string dir = test_dir();
  const Result r = run_warpsim("lower workloads/dwt/dwt.ptx --kernel mtx --grid 4 --block 256 --param 0=8 --param 1=1024 "
                           "--param 5=1024 -o " + dir + "/mtx.kp");
  ASSERT_EQ(r.status, 0) << r.err;
  // The lowered text is a .kp file warpsim runs: 8 warps on one core package.
  const Result core = run_warpsim("core " + dir + "/mtx.kp --warps 8 --tm 2 --gpu rtx2060 --format json");
  ASSERT_EQ(core.status, 0) << core.err;
  EXPECT_GT(nlohmann::json::parse(core.out)["cycles"].get<double>(), 0);
}

TEST(PtxCli, SimulatePtxMatchesSimulateOfItsLoweredProgram) {
  const std::string dir = test_dir();
  const std::string args = " --gpu rtx2060 --grid 16 --block 256 --tp 5 --tm 31";
  ASSERT_EQ(run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 16 --block 256 --param 0=4096 -o " + dir + "/m.kp").status, 0);
  // `lower` writes the PTX-order programs (it has no GPU, so no SASS): the PTX simulate in PTX order.
  const Result from_ptx = run_warpsim("simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx" + args + " --param 0=4096 --nvdisasm none");
  const Result from_kp = run_warpsim("simulate " + dir + "/m.kp" + args);
  ASSERT_EQ(from_ptx.status, 0) << from_ptx.err;
  ASSERT_EQ(from_kp.status, 0) << from_kp.err;
  const auto a = nlohmann::json::parse(from_ptx.out), b = nlohmann::json::parse(from_kp.out);
  EXPECT_EQ(a["time_us"], b["time_us"]);
  EXPECT_EQ(a["warp_programs"], 1);
  // `lower --gpu` writes the programs of that GPU's SASS: simulate of them equals the PTX's simulate
  // under the SASS stream, whichever stream this machine gives.
  ASSERT_EQ(run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 16 --block 256 --param 0=4096 --gpu rtx2060 -o " +
                        dir + "/sass.kp").status, 0);
  const Result sass_ptx = run_warpsim("simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx" + args + " --param 0=4096");
  const Result sass_kp = run_warpsim("simulate " + dir + "/sass.kp" + args);
  ASSERT_EQ(sass_ptx.status, 0) << sass_ptx.err;
  ASSERT_EQ(sass_kp.status, 0) << sass_kp.err;
  EXPECT_EQ(nlohmann::json::parse(sass_ptx.out)["time_us"], nlohmann::json::parse(sass_kp.out)["time_us"]);
}

// Which stream the pipes model timed: the JSON says so (with the tools' releases); PTX order the
// user did not choose is also a warning line with the reason (docs/sass.md, "The timed stream").
TEST(PtxCli, InstructionStreamIsReported) {
  const std::string kernel = "simulate workloads/sgemm/sgemm.ptx --kernel sgemm_tiled --gpu a100 --grid 4,4 --block 16,16 --param 0=64";
  const Result ptx_order = run_warpsim(kernel + " --nvdisasm none");
  ASSERT_EQ(ptx_order.status, 0) << ptx_order.err;
  const auto p = nlohmann::json::parse(ptx_order.out)["instruction_stream"];
  EXPECT_EQ(p["timed"], "ptx");
  EXPECT_EQ(p["note"], "--nvdisasm none");
  EXPECT_EQ(ptx_order.err.find("instruction stream"), std::string::npos) << "the user chose it: " << ptx_order.err;
  const Result missing = run_warpsim(kernel + " --nvdisasm /nonexistent/nvdisasm");
  ASSERT_EQ(missing.status, 0) << missing.err;
  EXPECT_NE(missing.err.find("warning: instruction stream: PTX order (/nonexistent/nvdisasm was not found"), std::string::npos)
      << missing.err;
  const Result memory = run_warpsim(kernel + " --model memory");
  ASSERT_EQ(memory.status, 0) << memory.err;
  EXPECT_FALSE(nlohmann::json::parse(memory.out).contains("instruction_stream"));  // the memory model reads PTX counts
  const Result sass = run_warpsim(kernel);
  ASSERT_EQ(sass.status, 0) << sass.err;
  const auto s = nlohmann::json::parse(sass.out)["instruction_stream"];
  if (s["timed"] != "sass") GTEST_SKIP() << "no SASS here: " << s["note"];
  EXPECT_EQ(s["arch"], "sm_80");
  EXPECT_FALSE(s["ptxas_version"].get<std::string>().empty());
  EXPECT_FALSE(s["nvdisasm_version"].get<std::string>().empty());
  EXPECT_EQ(s["unmapped_blocks"], 0);
  EXPECT_GT(s["sass_instructions"].get<int>(), 0);
  EXPECT_EQ(sass.err.find("instruction stream"), std::string::npos) << sass.err;
  const Result text = run_warpsim(kernel + " --format text");
  EXPECT_NE(text.out.find("instruction stream: SASS sm_80 (ptxas "), std::string::npos) << text.out;
}

TEST(PtxCli, LongComputeOnlyLoopSimulates) {
  // 2^27 PTX instructions without a memory access, more than 2^30 issued: the lowering splits the
  // run (design review 2026-11, 4.3); it was refused with a .kp message ("a calc's issue and pipe
  // counts must be whole numbers in [0, 2^30]"). 576 cycles a trip under pipes (its div chain),
  // 8 instructions a trip under memory (the paper's calc period). PTX order (--nvdisasm none): the
  // SASS of this loop is 21 instructions a trip (ptxas folds the divisions by constants), which
  // one op holds.
  const std::string kernel =
      "simulate tests/ptx/cases/long_compute_loop.ptx --gpu a100 --grid 1 --block 32 --param 0=16777216 --nvdisasm none";
  const Result pipes = run_warpsim(kernel + " --model pipes");
  ASSERT_EQ(pipes.status, 0) << pipes.err;
  EXPECT_EQ(nlohmann::json::parse(pipes.out)["cycles"], 576LL * 16777216 + 4);
  const Result memory = run_warpsim(kernel + " --model memory");
  ASSERT_EQ(memory.status, 0) << memory.err;
  EXPECT_EQ(nlohmann::json::parse(memory.out)["cycles"], 8LL * 16777216 + 5 + 9);
}

TEST(PtxCli, SimulateMixedWarpPrograms) {
  // 100 of 128 threads run the kernel, the last warp exits at once: two warp programs.
  const std::string dir = test_dir();
  const Result r = run_warpsim("simulate workloads/dwt/dwt.ptx --kernel ltt --gpu rtx2080 --grid 2 --block 64 --tp 5 --tm 12 "
                           "--param 0=0 --param 1=5 --param 2=200 --param 5=100 --timeline " + dir + "/t.svg --trace " + dir + "/t.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(dir + "/t.svg").find("<svg"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(slurp(dir + "/t.json")));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["warp_programs"].get<int>(), 2);
  EXPECT_GT(j["time_us"].get<double>(), 5.0);
}

TEST(PtxCli, EmulateAllGivesTheSameProgramsAndCountsEveryWarp) {
  // dwt's lattice kernel: the last warp exits at once, so the launch has two warp programs.
  const std::string args = "lower workloads/dwt/dwt.ptx --kernel ltt --grid 4 --block 64 --param 0=0 --param 1=5 "
                           "--param 2=200 --param 5=200";
  const Result fast = run_warpsim(args);
  const Result all = run_warpsim(args + " --emulate-all");
  ASSERT_EQ(fast.status, 0) << fast.err;
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(fast.out, all.out);
  const Result json = run_warpsim(args + " --emulate-all --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["emulated_classes"], j["warps"]);  // one emulation per warp
  EXPECT_GT(j["emulated_instructions"].get<std::int64_t>(), 0);
}

TEST(PtxCli, SimulateReportsTheLoweringsWork) {
  const Result r = run_warpsim("simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx --gpu rtx2060 --grid 2 --block 64 "
                               "--tp 5 --tm 31 --param 0=128 --emulate-all");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["emulated_classes"], 4);  // 4 warps, each emulated
  EXPECT_GT(j["emulated_instructions"].get<std::int64_t>(), 0);
}

// Ctrl-C during a long lowering: status 130, one line, no output file. The lowering emulates
// 256 warps looping 2^14 times each, warp by warp: seconds, long enough by construction.
const std::vector<std::string> kLongLowering = {"workloads/mtx_mul_vec/mtx_mul_vec.ptx", "--grid", "32", "--block",
                                                "256", "--param", "0=16384", "--emulate-all"};

TEST(PtxCli, InterruptedLowerWritesNothing) {
  if (!can_see_signal_handlers()) GTEST_SKIP() << "no /proc to see when warpsim handles Ctrl-C";
  const std::string out = test_dir() + "/never.kp";
  std::filesystem::remove(out);
  std::vector<std::string> args{"lower"};
  args.insert(args.end(), kLongLowering.begin(), kLongLowering.end());
  args.insert(args.end(), {"-o", out});
  const Result r = run_warpsim_interrupted(args);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_EQ(r.err, "warpsim: interrupted; nothing written\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
}

TEST(PtxCli, InterruptedSimulatePrintsNothing) {
  if (!can_see_signal_handlers()) GTEST_SKIP() << "no /proc to see when warpsim handles Ctrl-C";
  std::vector<std::string> args{"simulate", "--gpu", "rtx2060", "--tp", "5", "--tm", "31"};
  args.insert(args.end(), kLongLowering.begin(), kLongLowering.end());
  const Result r = run_warpsim_interrupted(args);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_EQ(r.err, "warpsim: interrupted; nothing written\n");
  EXPECT_EQ(r.out, "");
}

// --max-seconds: a located one-line error (exit 2) that names the warp and the loop the
// emulation was in, nothing on stdout. One warp, mtx_mul_vec's loop 10^8 times, one iteration
// after the other: hours by construction. 3 s, so that even a sanitizer build (which once took
// more than 0.5 s to reach the first warp) is inside the loop when the limit comes.
// A run stopped by --max-seconds: exit 2, nothing on stdout, one line on stderr matching `pattern`.
void expect_stopped(const Result& r, const std::string& pattern) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(std::regex_match(r.err, std::regex(pattern))) << r.err;
}

TEST(PtxCli, MaxSecondsStopsWithTheLoopItWasIn) {
  const Result r = run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 1 --block 32 --param 0=100000000 "
                               "--emulate-all --max-seconds 3");
  expect_stopped(r, ("warpsim: error: workloads/mtx_mul_vec/mtx_mul_vec\\.ptx:[0-9]+:2: "
                                                 "stopped after 3 s \\(--max-seconds\\) while emulating warp 0 "
                                                 "of block \\(0,0,0\\), in the loop at line 59 \\(iteration [0-9]+\\), "
                                                 "at line [0-9]+; nothing written\n"));
}

// The same limit on simulate over many warps, and a limit not reached changes nothing.
TEST(PtxCli, MaxSecondsOnSimulate) {
  std::string args = "simulate --gpu rtx2060 --tp 5 --tm 31";
  for (const std::string& a : kLongLowering) args += " " + a;
  expect_stopped(run_warpsim(args + " --max-seconds 0.2"),
                 "warpsim: error: workloads/mtx_mul_vec/mtx_mul_vec\\.ptx:[0-9]+:[0-9]+: stopped after 0\\.2 s "
                 "\\(--max-seconds\\) while emulating warp [0-9]+ of block \\([0-9]+,0,0\\), [^\n]*; nothing written\n");
  const std::string small = "simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx --gpu rtx2060 --grid 2 --block 64 --tp 5 "
                            "--tm 31 --param 0=128";
  const Result plain = run_warpsim(small);
  const Result limited = run_warpsim(small + " --max-seconds 600");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(limited.status, 0) << limited.err;
  EXPECT_EQ(limited.out, plain.out);
}

TEST(PtxCli, MaxSecondsMustBeAPositiveNumber) {
  for (const std::string value : {"abc", "0", "-1", "1e10", "nan", "2s"}) {
    const Result r = run_warpsim("lower workloads/mtx_mul_vec/mtx_mul_vec.ptx --grid 1 --block 32 --param 0=4 "
                                 "--max-seconds " + value);
    EXPECT_EQ(r.status, 2) << value;
    EXPECT_EQ(r.out, "") << value;
    EXPECT_EQ(r.err, "warpsim: error: --max-seconds '" + value +
                         "': expected seconds, more than 0 and at most 10^9\n")
        << value;
  }
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
  const Result core = run_warpsim("core " + dir + "/a.kp --warps 2 --tm 2 --gpu rtx2060 --format json");
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
  // Its bar.sync 0 is modelled (a `bar` op): no assumption.
  const nlohmann::json expected = nlohmann::json::array(
      {{{"kind", "memory_values"},
        {"message", "values loaded from memory are unknown (stores are not tracked)"},
        {"file", "tests/ptx/cases/barrier.ptx"}, {"line", 43}, {"column", 2}, {"count", 2}}});
  EXPECT_EQ(nlohmann::json::parse(r.out)["assumptions"], expected);
  const Result text = run_warpsim(args + " --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  const std::string lines =
      "\nassumption: memory_values: values loaded from memory are unknown (stores are not tracked) "
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

// One prediction path (issue 32): `warpsim simulate` of a point equals the matching `sweep` row,
// for a .kp program, a built-in kernel program and a PTX kernel, under both models, with and
// without a profile's calibrated durations (d1, d2) -- the review of 2026-11 found 6.21 us from
// simulate against 10.04 us from sweep for the same RTX 2080 point with d1 = d2 = 900. Also: a
// plain .kp on a profile with only the paper's figures under the default model, and ptxas run
// once per PTX text, entry and architecture (the on-disk cache), again with --no-cache.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// The RTX 2080's profile with d1 and d2 added to [calibration.dwt_matrix] and a calibration for
// mtx_mul_vec (t_p, t_m, d1, d2) appended.
std::string calibrated_rtx2080(const std::string& dir) {
  std::string text = slurp(kSourceDir + "/gpus/rtx2080.toml");
  const std::string header = "[calibration.dwt_matrix]\n";
  const std::size_t at = text.find(header);
  EXPECT_NE(at, std::string::npos);
  text.insert(at + header.size(), "d1 = 900\nd2 = 900\n");
  text += "\n[calibration.mtx_mul_vec]\ntp_us = 4.5\ntm = 31\nd1 = 61\nd2 = 75\n";
  return write_file(dir + "/rtx2080_calibrated.toml", text);
}

// The `time_us` column of the only row of a sweep's CSV.
double csv_time_us(const std::string& csv) {
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  std::vector<std::string> names, cells;
  const auto split = [](const std::string& line) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    return fields;
  };
  names = split(header);
  cells = split(row);
  for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) {
    if (names[i] == "time_us") return std::stod(cells[i]);
  }
  ADD_FAILURE() << "no time_us in\n" << csv;
  return -1;
}

struct Case {
  const char* what;
  std::string simulate;  // the arguments of `simulate` after the program
  std::string program;
  std::string workload;  // the suite's [[workload]] body
};

TEST(PredictionPath, SimulateEqualsTheSweepRow) {
  const std::string dir = test_dir();
  const std::string matrix = kSourceDir + "/workloads/dwt/matrix.kp";
  const std::string ptx = kSourceDir + "/workloads/mtx_mul_vec/mtx_mul_vec.ptx";
  const std::vector<Case> cases = {
      {".kp", "--grid 68 --block 61 --param K=8", matrix,
       "kp = \"" + matrix + "\"\nlaunch = { grid = \"68\", block = \"61\" }\naxes = { K = [8] }\n"},
      // The built-in workload launches N = 4096 threads by Algorithm 3: 68 blocks of 61 on the
      // RTX 2080 (`warpsim launch --gpu rtx2080 --threads 4096`), one launch of the matrix program.
      {"built-in", "--grid 68 --block 61 --param K=8", "dwt_matrix", "builtin = \"dwt_matrix\"\naxes = { K = [8], N = [4096] }\n"},
      {"PTX", "--grid 16 --block 256 --param 0=4096 --regs 40", ptx,
       "ptx = \"" + ptx + "\"\nparams = [\"N\"]\nparam_names = { N = 0 }\nregs = 40\n"
       "launch = { grid = \"16\", block = \"256\" }\naxes = { N = [4096] }\n"},
  };
  for (const std::string& gpu : {std::string("rtx2080"), calibrated_rtx2080(dir)}) {
    for (const char* model : {"memory", "paper"}) {
      for (const Case& c : cases) {
        // The paper's model has no default t_p or t_m: the plain profile gives none for mtx_mul_vec.
        const bool needs_tm = std::string(model) == "paper" && gpu == "rtx2080" && c.program != matrix && c.program != "dwt_matrix";
        const std::string tm = needs_tm ? " --tm 31 --tp 5" : "";
        const std::string label = std::string(c.what) + ", " + model + ", " + gpu;
        const Result simulated =
            run_warpsim("simulate " + c.program + " --gpu " + gpu + " " + c.simulate + " --model " + model + tm + " --format json");
        ASSERT_EQ(simulated.status, 0) << label << ": " << simulated.err;
        const std::string suite = write_file(dir + "/suite.toml", "gpus = [\"" + gpu + "\"]\nmodel = \"" + model +
                                                                     "\"\n[[workload]]\n" + c.workload +
                                                                     (needs_tm ? "calibration = { tm = 31, tp_us = 5 }\n" : ""));
        const Result swept = run_warpsim("sweep " + suite + " -q --format csv");
        ASSERT_EQ(swept.status, 0) << label << ": " << swept.err;
        const double simulate_us = nlohmann::json::parse(simulated.out)["time_us"].get<double>();
        EXPECT_EQ(simulate_us, csv_time_us(swept.out)) << label;
      }
    }
  }
}

// The review's numbers: with d1 = d2 = 900 in the profile, simulate of the matrix DWT must see
// them (it ignored them: 6.208 us) and so differ from the profile without them.
TEST(PredictionPath, SimulateReadsTheProfilesCalibratedDurations) {
  const std::string dir = test_dir();
  const std::string args = " --grid 68 --block 61 --param K=8 --format json";
  const Result plain = run_warpsim("simulate workloads/dwt/matrix.kp --gpu rtx2080" + args);
  const Result calibrated = run_warpsim("simulate workloads/dwt/matrix.kp --gpu " + calibrated_rtx2080(dir) + args);
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(calibrated.status, 0) << calibrated.err;
  EXPECT_LT(nlohmann::json::parse(plain.out)["time_us"].get<double>(),
            nlohmann::json::parse(calibrated.out)["time_us"].get<double>());
}

// A program without annotations asks the memory-aware model for no memory figure: on a profile
// with only the paper's figures it gives the paper's time under the default model.
TEST(PredictionPath, PlainKpOnAPaperOnlyProfileGivesThePapersTime) {
  const std::string dir = test_dir();
  std::string text = slurp(kSourceDir + "/gpus/rtx2080.toml");
  std::istringstream lines(text);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    const bool memory_figure = line.starts_with("dram_latency_cycles") || line.starts_with("l2_latency_cycles") ||
                               line.starts_with("l2_cache_kib") || line.starts_with("shared_latency_cycles") ||
                               line.starts_with("constant_latency_cycles") || line.starts_with("memory_bandwidth_gbs");
    if (!memory_figure) kept += line + '\n';
  }
  const std::string gpu = write_file(dir + "/paper_only.toml", kept);
  const std::string args = "simulate workloads/dwt/matrix.kp --gpu " + gpu + " --grid 68 --block 61 --param K=8 --format json";
  const Result memory = run_warpsim(args);
  const Result paper = run_warpsim(args + " --model paper");
  ASSERT_EQ(memory.status, 0) << memory.err;
  ASSERT_EQ(paper.status, 0) << paper.err;
  EXPECT_EQ(nlohmann::json::parse(memory.out)["time_us"], nlohmann::json::parse(paper.out)["time_us"]);
  // An annotated program still needs the figures, and says which.
  const std::string annotated = write_file(dir + "/strided.kp", "kernel strided\nrepeat 64\n  load 60 global sectors=16\n  calc 4\nend\n");
  const Result priced = run_warpsim("simulate " + annotated + " --gpu " + gpu + " --grid 68 --block 64");
  EXPECT_EQ(priced.status, 2);
  EXPECT_NE(priced.err.find("the memory-aware model needs"), std::string::npos) << priced.err;
}

// Re-timing keeps every annotation (review 2026-11, finding 1): a profile's d1 does not change a
// priced access, which the memory-aware model times by its sectors and lines, not its duration.
TEST(PredictionPath, CalibratedDurationsKeepTheAccessesLines) {
  const std::string dir = test_dir();
  const std::string program =
      write_file(dir + "/strided.kp", "kernel strided\nrepeat 64\n  load 60 global sectors=16 lines=16\n  calc 4\nend\n");
  const std::string h100 = slurp(kSourceDir + "/gpus/h100.toml");
  std::vector<double> times;
  for (const char* durations : {"", "d1 = 61\n"}) {
    const std::string gpu =
        write_file(dir + "/h100.toml", h100 + "\n[calibration.strided]\ntp_us = 5.25\ntm = 4\n" + durations);
    const std::string suite = write_file(dir + "/suite.toml", "gpus = [\"" + gpu + "\"]\n[[workload]]\nkp = \"" + program +
                                                                 "\"\nlaunch = { grid = \"132\", block = \"256\" }\n");
    const Result r = run_warpsim("sweep " + suite + " -q --format csv");
    ASSERT_EQ(r.status, 0) << r.err;
    times.push_back(csv_time_us(r.out));
  }
  EXPECT_EQ(times[0], times[1]);
}

// ptxas runs once per PTX text, entry, architecture and ptxas (the pipes model's SASS run gives the
// register count too): a second simulate reads the answer from the cache; --no-cache runs it again. A stand-in ptxas counts its runs and checks
// that it is asked for the one entry (-e).
TEST(PredictionPath, PtxasRunsOncePerKernelAndArchitecture) {
  const std::string dir = test_dir();
  const std::string log = dir + "/ptxas.log";
  std::filesystem::remove(log);  // a run before this one left its log and cache
  std::filesystem::remove_all(dir + "/cache");
  const std::string ptxas = write_file(dir + "/fake-ptxas",
                                       "#!/bin/sh\necho \"$@\" >> " + log +
                                           "\nentry=''\nwhile [ $# -gt 0 ]; do [ \"$1\" = -e ] && entry=$2; shift; done\n"
                                           "echo \"ptxas info    : Compiling entry function '$entry' for 'sm_75'\"\n"
                                           "echo \"ptxas info    : Used 40 registers, 384 bytes cmem[0]\"\n");
  std::filesystem::permissions(ptxas, std::filesystem::perms::owner_all);
  const std::string run = "env WARPSIM_CACHE_DIR=" + dir + "/cache " + kBinary +
                          " simulate workloads/mtx_mul_vec/mtx_mul_vec.ptx --gpu rtx2080 --grid 16 --block 256 "
                          "--param 0=4096 --tm 31 --format json --ptxas " + ptxas;
  const auto runs = [&] {
    std::istringstream text(slurp(log));
    int n = 0;
    for (std::string line; std::getline(text, line);) {
      if (line == "--version") continue;  // the release, for the report, asked when it compiles
      EXPECT_NE(line.find("-e _Z11mtx_mul_veciPfS_S_"), std::string::npos) << line;
      ++n;
    }
    return n;
  };
  const auto registers = [&](const std::string& command) {
    const std::string out = dir + "/out.json";
    Result r;
    r.status = WEXITSTATUS(std::system(("cd '" + kSourceDir + "' && " + command + " > " + out).c_str()));
    r.out = slurp(out);
    EXPECT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["registers_source"], "ptxas -arch=sm_75");
    return j["registers_per_thread"].get<int>();
  };
  EXPECT_EQ(registers(run), 40);
  EXPECT_EQ(runs(), 1);
  EXPECT_EQ(registers(run), 40);
  EXPECT_EQ(runs(), 1) << "the second call ran ptxas again";
  EXPECT_EQ(registers(run + " --no-cache"), 40);
  EXPECT_EQ(runs(), 2);
}

}  // namespace

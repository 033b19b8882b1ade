// CUDA source (.cu) as a kernel: compiled with nvcc to PTX for the GPU's architecture, cached,
// and predicted as that PTX (simulate, lower, occupancy, suites, point lists). Every test needs
// nvcc and is skipped without it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/cli_runner.hpp"

namespace {

using namespace warpsim::testing_support;

const std::string kScale = "tests/cli/cuda/scale.cu";
const std::string kLaunch = " --grid 4 --block 256 --param 0=1000 --tp 5 --tm 31";

bool nvcc_runs() {
  static const bool runs = std::system("nvcc --version >/dev/null 2>&1") == 0;
  return runs;
}

// Each test compiles into a cache folder of its own (nvcc runs at least once per test).
class CudaCli : public testing::Test {
 protected:
  void SetUp() override {
    if (!nvcc_runs()) GTEST_SKIP() << "nvcc is not on PATH";
    cache_ = test_dir() + "/cache";
    std::filesystem::remove_all(cache_);
    setenv("WARPSIM_CACHE_DIR", cache_.c_str(), 1);
    unsetenv("WARPSIM_NVCC");
  }
  void TearDown() override { unsetenv("WARPSIM_CACHE_DIR"); }
  std::string cache_;
};

nlohmann::json json_of(const Result& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST_F(CudaCli, SimulatePredictsThePtxNvccWrites) {
  const nlohmann::json from_cu = json_of(run_warpsim("simulate " + kScale + " --gpu h100" + kLaunch));
  EXPECT_EQ(from_cu["compiled"]["arch"], "sm_90");
  EXPECT_EQ(from_cu["compiled"]["cached"], false);
  const std::string command = from_cu["compiled"]["command"];
  EXPECT_EQ(command.rfind("nvcc -ptx -lineinfo -arch=sm_90 " + kScale + " -o " + cache_ + "/nvcc/", 0), 0u) << command;
  const std::string ptx = test_dir() + "/scale.ptx";
  ASSERT_EQ(std::system(("nvcc -ptx -lineinfo -arch=sm_90 " + kSourceDir + "/" + kScale + " -o " + ptx).c_str()), 0);
  const nlohmann::json from_ptx = json_of(run_warpsim("simulate " + ptx + " --gpu h100" + kLaunch));
  EXPECT_EQ(from_cu["time_us"], from_ptx["time_us"]);
  EXPECT_EQ(from_cu["cycles"], from_ptx["cycles"]);
  EXPECT_EQ(from_cu["registers_per_thread"], from_ptx["registers_per_thread"]);
  EXPECT_EQ(from_cu["warp_programs"], from_ptx["warp_programs"]);
}

TEST_F(CudaCli, SecondRunTakesThePtxFromTheCache) {
  const std::string run = "simulate " + kScale + " --gpu a100" + kLaunch;
  const nlohmann::json first = json_of(run_warpsim(run));
  const nlohmann::json second = json_of(run_warpsim(run));
  EXPECT_EQ(first["compiled"]["cached"], false);
  EXPECT_EQ(second["compiled"]["cached"], true);
  EXPECT_EQ(first["time_us"], second["time_us"]);
  // --no-cache compiles again; other flags are another entry.
  EXPECT_EQ(json_of(run_warpsim(run + " --no-cache"))["compiled"]["cached"], false);
  const nlohmann::json flags = json_of(run_warpsim(run + " --nvcc-flags '-DFACTOR=3.0f'"));
  EXPECT_EQ(flags["compiled"]["cached"], false);
  EXPECT_NE(flags["compiled"]["command"].get<std::string>().find(" -DFACTOR=3.0f "), std::string::npos);
  // The text report says how it was compiled.
  const Result text = run_warpsim(run + " --format text");
  EXPECT_NE(text.out.find("\ncompiled: nvcc -ptx -lineinfo -arch=sm_80 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" (cached)\n"), std::string::npos) << text.out;
}

TEST_F(CudaCli, OlderGpuGetsSm75AndSaysSo) {
  const nlohmann::json j = json_of(run_warpsim("occupancy --gpu gtx980 --block 256 --ptx " + kScale + " --format json"));
  EXPECT_EQ(j["compiled"]["arch"], "sm_75");
  EXPECT_EQ(j["compiled"]["note"], "nvcc does not compile for sm_52: sm_75 stands in");
  EXPECT_EQ(j["static_smem_source"], "ptx");
}

TEST_F(CudaCli, LowerCompilesForSm75) {
  const Result r = run_warpsim("lower " + kScale + " --grid 1 --block 32 --param 0=5 --nvcc-flags \"-DFACTOR=3.0f\"");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# compiled: nvcc -ptx -lineinfo -arch=sm_75 -DFACTOR=3.0f " + kScale, 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nkernel scale\n"), std::string::npos);
}

TEST_F(CudaCli, SuiteAndPointListCompileForEachGpu) {
  const std::string dir = test_dir();
  std::ofstream(dir + "/suite.toml") << "name = \"cu\"\ngpus = [\"h100\", \"rtx2080\"]\n[axes]\nN = [1000]\n"
                                        "[[workload]]\nptx = \"" + kSourceDir + "/" + kScale + "\"\nparams = [\"N\"]\n"
                                        "param_names = { N = 0 }\nlaunch = { grid = 4, block = 256 }\n"
                                        "calibration = { tp_us = 5, tm = 31 }\n";
  const nlohmann::json rows = json_of(run_warpsim("sweep " + dir + "/suite.toml --format json"));
  std::ofstream(dir + "/points.csv") << "gpu,kernel,grid,block,param:0,tp_us,tm\nh100," << kSourceDir << "/" << kScale
                                      << ",4,256,1000,5,31\n";
  const nlohmann::json points = json_of(run_warpsim("sweep --points " + dir + "/points.csv --format json"));
  for (const std::string gpu : {"h100", "rtx2080"}) {
    const nlohmann::json one = json_of(run_warpsim("simulate " + kScale + " --gpu " + gpu + kLaunch));
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const nlohmann::json& r) { return r["gpu"] == gpu; });
    ASSERT_NE(row, rows.end()) << rows.dump();
    EXPECT_EQ((*row)["time_us"], one["time_us"]) << gpu;
    if (gpu == "h100") {
      EXPECT_EQ(points[0]["time_us"], one["time_us"]);
    }
  }
}

TEST_F(CudaCli, SuiteNvccFlags) {
  const std::string dir = test_dir();
  const auto suite = [&](const std::string& source, const std::string& flags) {
    std::ofstream(dir + "/suite.toml") << "gpus = [\"h100\"]\n[[workload]]\nptx = \"" << kSourceDir << "/" << source
                                       << "\"\nnvcc_flags = \"" << flags << "\"\nparams = [\"N\"]\n"
                                          "param_names = { N = 0 }\nlaunch = { grid = 4, block = 256 }\n"
                                          "calibration = { tp_us = 5, tm = 31 }\naxes = { N = [1000] }\n";
    return "sweep " + dir + "/suite.toml --format json";
  };
  const nlohmann::json rows = json_of(run_warpsim(suite(kScale, "-DFACTOR=3.0f")));
  EXPECT_EQ(rows[0]["time_us"], json_of(run_warpsim("simulate " + kScale + " --gpu h100" + kLaunch))["time_us"]);
  EXPECT_TRUE(std::filesystem::exists(cache_ + "/nvcc")) << "compiled with the flags";
  expect_input_error(suite(kScale, "-DX='open"), dir + "/suite.toml:4:14: --nvcc-flags");
  expect_input_error(suite("workloads/saxpy/saxpy.ptx", "-DX"), dir + "/suite.toml:4:14: nvcc_flags is for a ptx workload given as CUDA source");
}

TEST_F(CudaCli, SourceNvccRejectsIsOneLocatedLine) {
  expect_input_error("simulate tests/cli/cuda/undeclared.cu --gpu h100 --grid 1 --block 32 --tp 5 --tm 31",
                     "tests/cli/cuda/undeclared.cu:4: identifier \"z\" is undefined");
  expect_input_error("lower tests/cli/cuda/undeclared.cu --grid 1 --block 32", "tests/cli/cuda/undeclared.cu:4: ");
  expect_input_error("simulate " + kScale + " --gpu h100" + kLaunch + " --nvcc-flags '-DFACTOR=\"unclosed'",
                     "--nvcc-flags ");
  expect_input_error("simulate workloads/saxpy/saxpy.ptx --gpu h100" + kLaunch + " --nvcc-flags -DX",
                     "--nvcc-flags is for a CUDA source kernel (.cu)");
  if (std::filesystem::exists(cache_ + "/nvcc")) {
    for (const auto& entry : std::filesystem::directory_iterator(cache_ + "/nvcc")) {
      EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << "left behind: " << entry.path();
    }
  }
}

TEST_F(CudaCli, WithoutNvccTheErrorSaysWhatToRun) {
  setenv("WARPSIM_NVCC", "/nonexistent/nvcc", 1);
  expect_input_error("simulate " + kScale + " --gpu h100" + kLaunch,
                     kScale + ":1: this is CUDA source, not PTX: run `nvcc -ptx -arch=sm_75 " + kScale);
  unsetenv("WARPSIM_NVCC");
}

}  // namespace

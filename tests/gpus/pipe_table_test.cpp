#include "warpsim/gpus/pipe_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/located_error.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {
namespace {

using isa::Pipe;
using testing_support::BadInput;
using testing_support::expect_located_error;

TEST(PipeTables, EveryComputeCapabilityHasATableSortedByVersion) {
  const std::vector<std::string> expected = {"2.1", "3.0", "3.2", "3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2",
                                             "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0", "10.0", "12.0"};
  EXPECT_EQ(pipe_table_capabilities(), expected);
}

// Every built-in table parses (pipe_table parses them all on first use), names its sources, has
// an FP32 rate, and gives a latency to exactly the pipes it has.
TEST(PipeTables, EveryBuiltInTableIsComplete) {
  for (const std::string& cc : pipe_table_capabilities()) {
    const PipeTable& table = pipe_table(cc);
    EXPECT_EQ(table.compute_capability, cc);
    EXPECT_TRUE(table.schedulers_per_sm == 2 || table.schedulers_per_sm == 4) << cc;
    EXPECT_GT(table.throughput_of(Pipe::fp32), 0) << cc;
    for (const char* key : {"throughput", "tensor", "latency", "schedulers_per_sm"}) {
      EXPECT_TRUE(table.sources.count(key)) << cc << " lacks sources." << key;
    }
    for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
      EXPECT_EQ(table.throughput[i] > 0, table.latency[i] > 0) << cc << " " << isa::to_string(isa::pipe_at(i));
    }
    if (std::stoi(cc) < 7) {  // tensor cores came with Volta (7.0)
      for (Pipe pipe : {Pipe::tensor_f16, Pipe::tensor_tf32, Pipe::tensor_i8, Pipe::tensor_fp8, Pipe::tensor_f64}) {
        EXPECT_EQ(table.throughput_of(pipe), 0) << cc;
      }
    }
  }
}

// Spot values, as the files cite them (CUDA C++ Programming Guide, "Throughput of Native
// Arithmetic Instructions"; the whitepapers for the tensor cores).
TEST(PipeTables, SpotValuesAsCited) {
  EXPECT_EQ(pipe_table("8.6").throughput_of(Pipe::fp64), 2);
  EXPECT_EQ(pipe_table("8.6").throughput_of(Pipe::fp32), 128);
  EXPECT_EQ(pipe_table("8.6").throughput_of(Pipe::fp16), 256);
  EXPECT_EQ(pipe_table("8.0").throughput_of(Pipe::fp64), 32);
  EXPECT_EQ(pipe_table("8.0").throughput_of(Pipe::fp32), 64);
  EXPECT_EQ(pipe_table("8.0").throughput_of(Pipe::tensor_f16), 1024);
  EXPECT_EQ(pipe_table("8.0").throughput_of(Pipe::tensor_f64), 64);
  EXPECT_EQ(pipe_table("7.0").throughput_of(Pipe::sfu), 16);
  EXPECT_EQ(pipe_table("7.0").throughput_of(Pipe::tensor_f16), 512);
  EXPECT_EQ(pipe_table("7.5").throughput_of(Pipe::fp64), 2);
  EXPECT_EQ(pipe_table("6.0").throughput_of(Pipe::fp16), 128);
  EXPECT_EQ(pipe_table("6.0").schedulers_per_sm, 2);
  EXPECT_EQ(pipe_table("6.1").throughput_of(Pipe::fp16), 2);
  EXPECT_EQ(pipe_table("5.2").throughput_of(Pipe::sfu), 32);
  EXPECT_EQ(pipe_table("3.5").throughput_of(Pipe::fp32), 192);
  EXPECT_EQ(pipe_table("3.5").throughput_of(Pipe::fp64), 64);
  EXPECT_EQ(pipe_table("3.0").throughput_of(Pipe::fp64), 8);
  EXPECT_EQ(pipe_table("3.0").throughput_of(Pipe::int32), 160);
  EXPECT_EQ(pipe_table("8.9").throughput_of(Pipe::fp16), 128);
  EXPECT_EQ(pipe_table("9.0").throughput_of(Pipe::fp64), 64);
  EXPECT_EQ(pipe_table("9.0").throughput_of(Pipe::tensor_fp8), 4096);
  EXPECT_EQ(pipe_table("10.0").throughput_of(Pipe::fp64), 64);
  EXPECT_EQ(pipe_table("12.0").throughput_of(Pipe::fp64), 2);
  EXPECT_EQ(pipe_table("8.6").throughput_of(Pipe::shfl), 32);
  EXPECT_EQ(pipe_table("8.0").latency_of(Pipe::fp32), 4);
  EXPECT_EQ(pipe_table("6.0").latency_of(Pipe::fp32), 6);
  EXPECT_EQ(pipe_table("3.7").latency_of(Pipe::fp32), 9);
}

TEST(PipeTables, ACapabilityWithoutAFileTakesTheNearestLowerMinorOfItsMajor) {
  EXPECT_EQ(pipe_table("7.7").compute_capability, "7.5");
  EXPECT_EQ(pipe_table("8.8").compute_capability, "8.7");
  EXPECT_EQ(pipe_table("5.1").compute_capability, "5.0");
  EXPECT_EQ(pipe_table("9.5").compute_capability, "9.0");
  EXPECT_EQ(pipe_table("12.1").compute_capability, "12.0");
  EXPECT_EQ(&pipe_table("8.6"), &pipe_table("8.6"));
  EXPECT_EQ(pipe_table("2.1").compute_capability, "2.1");  // Fermi (the paper's GT 720M)
  for (const char* unknown : {"2.0", "11.0", "4.0", "13.0", "8", "", "eight.six", "8.x"}) {
    try {
      pipe_table(unknown);
      ADD_FAILURE() << "accepted " << unknown;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("no pipe table for compute capability"), std::string::npos) << what;
      EXPECT_NE(what.find("2.1, 3.0, 3.2"), std::string::npos) << what;
      EXPECT_NE(what.find("12.0"), std::string::npos) << what;
    }
  }
}

std::string pipes(const std::string& section, const std::string& skip = "", const std::string& fp32 = "1") {
  std::string text = "[" + section + "]\n";
  for (std::size_t i = 0; i < isa::kPipeCount; ++i) {
    const std::string word = isa::to_string(isa::pipe_at(i));
    if (word == skip) continue;
    text += word + " = " + (word == "fp32" ? fp32 : "1") + "\n";
  }
  return text;
}

const std::string kHead = "compute_capability = \"8.6\"\nschedulers_per_sm = 4\n";  // lines 1-2
const std::string kSources = "[sources]\nthroughput = \"t\"\nlatency = \"l\"\nschedulers_per_sm = \"s\"\n";

TEST(PipeTables, AWellFormedTextParses) {
  const PipeTable table = parse_pipe_table(kHead + pipes("throughput", "", "64.5") + pipes("latency") + kSources, "t.toml");
  EXPECT_EQ(table.compute_capability, "8.6");
  EXPECT_EQ(table.schedulers_per_sm, 4);
  EXPECT_EQ(table.throughput_of(Pipe::fp32), 64.5);
  EXPECT_EQ(table.latency_of(Pipe::control), 1);
  EXPECT_EQ(table.sources.at("latency"), "l");
}

TEST(PipeTables, MalformedTextsAreRejectedWithTheirLine) {
  const std::string body = pipes("throughput") + pipes("latency") + kSources;
  // [throughput] starts on line 3 and holds 15 pipes (lines 4-18); [latency] on line 19, [sources] on 35.
  const BadInput cases[] = {
      {kHead + "frequency = 3\n" + body, 3, "unknown key 'frequency'"},
      {kHead + "[throughput]\nfp33 = 1\n", 4, "unknown pipe 'fp33'"},
      {kHead + pipes("throughput", "sfu") + pipes("latency") + kSources, 3, "[throughput] lacks sfu"},
      {kHead + pipes("throughput") + pipes("latency", "control") + kSources, 19, "[latency] lacks control"},
      {"compute_capability = \"8.6\"\nschedulers_per_sm = 0\n" + body, 2, "schedulers_per_sm = 0 must be in [1, 64]"},
      {"compute_capability = \"8.6\"\nschedulers_per_sm = -4\n" + body, 2, "must be in [1, 64]"},
      {"compute_capability = \"8.6\"\nschedulers_per_sm = 4.5\n" + body, 2, "schedulers_per_sm must be a whole number"},
      {kHead + pipes("throughput", "", "0") + pipes("latency") + kSources, 4, "throughput.fp32 must be positive"},
      {kHead + pipes("throughput", "", "-1") + pipes("latency") + kSources, 4, "throughput.fp32 cannot be negative"},
      {kHead + "[latency]\nfp32 = -4\n", 4, "latency.fp32 cannot be negative"},
      {kHead + "[throughput]\nfp32 = \"fast\"\n", 4, "throughput.fp32 must be a number"},
      {kHead + "[throughput]\nfp32 = nan\n", 4, "throughput.fp32 must be a finite number"},
      {"compute_capability = 8.6\nschedulers_per_sm = 4\n" + body, 1, "compute_capability must be a string"},
      {"compute_capability = \"sm_86\"\nschedulers_per_sm = 4\n" + body, 1, "compute_capability must be MAJOR.MINOR"},
      {"schedulers_per_sm = 4\n" + body, 0, "missing required key 'compute_capability'"},
      {kHead + pipes("latency") + kSources, 0, "missing required table [throughput]"},
      {kHead + pipes("throughput") + pipes("latency"), 0, "missing required table [sources]"},
      {kHead + body + "fp99 = \"x\"\n", 39, "[sources] names 'fp99'"},
      {kHead + pipes("throughput") + pipes("latency") + "[sources]\nthroughput = \"t\"\nlatency = \"l\"\n", 35,
       "[sources] needs schedulers_per_sm"},
      {kHead + "throughput = 5\n", 3, "[throughput] must be a table"},
      {kHead + "[throughput\n", 3, ""},
  };
  for (const BadInput& input : cases) expect_located_error(parse_pipe_table, input, "bad.toml");
}

}  // namespace
}  // namespace warpsim::gpus

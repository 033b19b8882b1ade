#include "warpsim/gpus/profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "warpsim/gpus/toml_reader.hpp"
#include "warpsim/isa/input_error.hpp"
#include "support/located_error.hpp"

namespace warpsim::gpus {
namespace {

const std::string kSourceDir = WARPSIM_SOURCE_DIR;

TEST(Profiles, BuiltInSetHasThePaperGpusAndCurrentOnes) {
  const std::vector<std::string> ids = builtin_profile_ids();
  for (const char* id : {"gt720m", "k1000m", "gtx860m", "gtx1070", "rtx2060", "rtx2080", "v100", "a100", "h100",
                         "l40s", "rtx3090", "rtx4090"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
  EXPECT_GE(ids.size(), 12u);
}

// The 11 GPUs of shared/data/measured/gpus.csv: the profile's name is the data set's `gpu` string,
// so measurements join on it.
TEST(Profiles, BuiltInSetHasTheMeasuredDataSetGpus) {
  const std::pair<const char*, const char*> measured[] = {
      {"gtx680", "GeForce GTX 680"},         {"gtx750", "GeForce GTX 750"},
      {"gtx970", "GeForce GTX 970"},         {"gtx980", "GeForce GTX 980"},
      {"quadro_k5200", "Quadro K5200"},      {"tesla_k20c", "Tesla K20c"},
      {"tesla_k40c", "Tesla K40c"},          {"gtx_titan", "GeForce GTX TITAN"},
      {"gtx_titan_black", "GeForce GTX TITAN Black"}, {"gtx_titan_x", "GeForce GTX TITAN X"},
      {"p100_sxm2", "Tesla P100-SXM2-16GB"}};
  for (const auto& [id, name] : measured) EXPECT_EQ(load_profile(id).name, name) << id;
  EXPECT_EQ(builtin_profile_ids().size(), 45u);
}

// What the memory-aware model needs: every built-in profile carries each of these figures, and
// names a source for each.
TEST(Profiles, EveryProfileHasTheMemoryModelFiguresWithSources) {
  const char* needed[] = {"dram_latency_cycles", "l2_latency_cycles",
                          "l1_latency_cycles", "shared_latency_cycles", "constant_latency_cycles",
                          "texture_latency_cycles", "l1_cache_kib", "shared_memory_banks",
                          "warp_schedulers_per_sm", "launch_overhead_us", "max_registers_per_block"};
  for (const std::string& id : builtin_profile_ids()) {
    const Profile gpu = load_profile(id);
    for (const std::string figure : needed) {
      EXPECT_TRUE(gpu.figures.count(figure)) << id << " lacks " << figure;
      EXPECT_TRUE(gpu.sources.count(figure)) << id << " gives no source for " << figure;
    }
    if (gpu.figures.count("shared_memory_banks")) {
      EXPECT_EQ(gpu.figures.at("shared_memory_banks"), 32) << id;
    }
    if (gpu.figures.count("warp_schedulers_per_sm")) {
      const double schedulers = gpu.figures.at("warp_schedulers_per_sm");
      EXPECT_TRUE(schedulers == 2 || schedulers == 4) << id;
    }
    // Latencies are ordered as the hierarchy is: L1 and shared below L2, L2 below DRAM.
    if (gpu.figures.count("dram_latency_cycles") && gpu.figures.count("l2_latency_cycles") &&
        gpu.figures.count("l1_latency_cycles")) {
      EXPECT_LT(gpu.figures.at("l2_latency_cycles"), gpu.figures.at("dram_latency_cycles")) << id;
      EXPECT_LT(gpu.figures.at("l1_latency_cycles"), gpu.figures.at("l2_latency_cycles")) << id;
      EXPECT_LT(gpu.figures.at("shared_latency_cycles"), gpu.figures.at("l2_latency_cycles")) << id;
    }
  }
}

TEST(Profiles, EveryProfileLoadsValidatesAndCitesEachFigure) {
  for (const std::string& id : builtin_profile_ids()) {
    const Profile gpu = load_profile(id);
    EXPECT_EQ(gpu.id, id);
    EXPECT_FALSE(gpu.name.empty()) << id;
    EXPECT_EQ(gpu.warp_size, 32) << id;
    EXPECT_GE(gpu.core_packages_per_sm(), 1) << id;
    EXPECT_GE(gpu.max_warps_per_sm * 32, gpu.max_threads_per_block) << id << ": a full block must fit on an SM";
    for (const char* figure : {"clock_mhz", "sm_count", "cores_per_sm", "max_blocks_per_sm", "max_warps_per_sm",
                               "max_threads_per_block", "warp_size"}) {
      EXPECT_TRUE(gpu.sources.count(figure)) << id << " gives no source for " << figure;
    }
    for (const auto& [figure, value] : gpu.figures) {
      EXPECT_TRUE(gpu.sources.count(figure)) << id << " gives no source for " << figure;
    }
    // The same profile read from its file, by path, is the same profile.
    const Profile from_path = load_profile(kSourceDir + "/gpus/" + id + ".toml");
    EXPECT_EQ(from_path.sm_count, gpu.sm_count);
    EXPECT_EQ(from_path.calibrations.size(), gpu.calibrations.size());
  }
}

// Table 3 of the paper, exactly.
TEST(Profiles, PaperGpusMatchTable3) {
  struct Row {
    const char* id;
    double F;
    std::int64_t n_sm, n_c, l_b, l_w;
    double matrix_tp, matrix_tm, lattice_tp, lattice_tm;
  };
  const Row table3[] = {{"gt720m", 1550, 2, 32, 8, 48, 18.7, 9.5, 11.0, 33.0},
                        {"k1000m", 706, 2, 192, 16, 64, 11.2, 33.0, 11.2, 47.0},
                        {"gtx860m", 1020, 5, 128, 32, 64, 8.7, 17.0, 7.9, 15.0},
                        {"gtx1070", 1760, 10, 128, 32, 64, 6.3, 18.5, 5.8, 19.0},
                        {"rtx2060", 1200, 30, 64, 16, 32, 5.2, 1.1, 5.0, 12.5},
                        {"rtx2080", 1545, 68, 64, 16, 32, 5.2, 1.1, 5.6, 12.3}};
  for (const Row& row : table3) {
    const Profile gpu = load_profile(row.id);
    EXPECT_EQ(gpu.clock_mhz, row.F) << row.id;
    EXPECT_EQ(gpu.sm_count, row.n_sm) << row.id;
    EXPECT_EQ(gpu.cores_per_sm, row.n_c) << row.id;
    EXPECT_EQ(gpu.max_blocks_per_sm, row.l_b) << row.id;
    EXPECT_EQ(gpu.max_warps_per_sm, row.l_w) << row.id;
    ASSERT_NE(gpu.calibration("dwt_matrix"), nullptr);
    ASSERT_NE(gpu.calibration("dwt_lattice"), nullptr);
    EXPECT_EQ(gpu.calibration("dwt_matrix")->tp_us, row.matrix_tp) << row.id;
    EXPECT_EQ(gpu.calibration("dwt_matrix")->tm, std::llround(row.matrix_tm * 1000)) << row.id;
    EXPECT_EQ(gpu.calibration("dwt_lattice")->tp_us, row.lattice_tp) << row.id;
    EXPECT_EQ(gpu.calibration("dwt_lattice")->tm, std::llround(row.lattice_tm * 1000)) << row.id;
  }
}

const char* kMinimal = R"(name = "X"
clock_mhz = 1000
sm_count = 2
cores_per_sm = 64
max_blocks_per_sm = 4
max_warps_per_sm = 16
max_threads_per_block = 1024
warp_size = 32
)";

TEST(Profiles, HostTableCarriesSystemFiguresWithTheirSource) {
  const Profile gpu = parse_profile(std::string(kMinimal) + "[host]\nhost_link_gbs = 31.5\nshared_link = true\nsource = \"spec\"\n", "x.toml", "x");
  EXPECT_EQ(gpu.host.host_link_gbs, 31.5);
  EXPECT_EQ(gpu.host.shared_link, true);
  EXPECT_FALSE(gpu.host.network_gbs);
  EXPECT_EQ(gpu.host_source, "spec");
  EXPECT_TRUE(parse_profile(kMinimal, "x.toml", "x").host.empty());
  EXPECT_EQ(load_profile("h100").host.host_link_gbs, 63.0);  // PCIe 5.0 x16, cited in the profile
}

TEST(Profiles, MinimalProfileNeedsNoOptionalFigures) {
  const Profile gpu = parse_profile(kMinimal, "x.toml", "x");
  EXPECT_EQ(gpu.core_packages_per_sm(), 2);
  EXPECT_TRUE(gpu.calibrations.empty());
}

using testing_support::BadInput;

class ProfileErrors : public testing::TestWithParam<BadInput> {};

TEST_P(ProfileErrors, NameTheLineAndTheProblem) {
  const auto parse = [](const std::string& text, const std::string& file) { return parse_profile(text, file, "bad"); };
  testing_support::expect_located_error(parse, GetParam(), "bad.toml");
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, ProfileErrors,
    testing::Values(BadInput{std::string(kMinimal) + "colour = 3\n", 9, "unknown key 'colour'"},
                    BadInput{std::string(kMinimal) + "[calibration.k]\ntp_us = 1\n", 9, "needs both"},
                    BadInput{std::string(kMinimal) + "[calibration.k]\ntp_us = 1\ntm = 1.00001\n", 11, "three decimals"},
                    BadInput{std::string(kMinimal) + "[calibration.k]\ntp_us = -1\ntm = 1\n", 10, "negative"},
                    BadInput{std::string(kMinimal) + "[calibration.k]\ntp_us = 1\ntm = 1\nx = 2\n", 12, "unknown key 'x'"},
                    BadInput{std::string(kMinimal) + "[sources]\ncolour = \"me\"\n", 10, "not a figure"},
                    BadInput{std::string(kMinimal) + "registers_per_sm = 1.5\n", 9, "whole number"},
                    BadInput{std::string(kMinimal) + "[host]\nhost_link_gbs = 12\n", 9, "[host] needs source"},
                    BadInput{std::string(kMinimal) + "[host]\nhost_link_gbs = -1\nsource = \"x\"\n", 10, "host_link_gbs must be in (0, 10^6]"},
                    BadInput{std::string(kMinimal) + "[host]\nnetwork_latency_us = 1e10\nsource = \"x\"\n", 10, "network_latency_us must be in [0, 10^9]"},
                    BadInput{std::string(kMinimal) + "[host]\ngpus = [1]\nsource = \"x\"\n", 10, "unknown key 'gpus' in [host]"},
                    BadInput{"name = \"X\"\nclock_mhz = 1000\n", 0, "missing required key"},
                    BadInput{"name = \"X\"\nsm_count = 0\n", 2, "out of range"},
                    BadInput{"name = \"X\"\ncores_per_sm = 16\n", 2, "out of range"},
                    BadInput{"name = \"X\"\nwarp_size = 64\n", 2, "out of range"},
                    BadInput{"name = \"X\"\nclock_mhz = -5\n", 2, "clock_mhz"},
                    BadInput{"name = \"X\"\nclock_mhz = \"fast\"\n", 2, "must be a number"},
                    BadInput{"name = \"X\nclock_mhz = 1\n", 1, ""}));

TEST(Profiles, UnknownIdsAndUnreadablePathsAreInputErrors) {
  try {
    load_profile("gtx9999");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown GPU 'gtx9999'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("rtx2080"), std::string::npos);  // lists the known ones
  }
  EXPECT_THROW(load_profile("/nonexistent/gpu.toml"), InputError);
  EXPECT_EQ(load_profile("RTX2080").id, "rtx2080");  // ids are case-insensitive
}

TEST(Calibration, FlagsBeatProfileWhichBeatsProgram) {
  const Profile gpu = load_profile("rtx2080");
  EXPECT_EQ(resolve_calibration(gpu, "dwt_matrix", {}, 31'000).tm, 1'100);
  EXPECT_EQ(resolve_calibration(gpu, "dwt_matrix", {.tp_us = 1.0, .tm = 7'000}, 31'000).tm, 7'000);
  EXPECT_EQ(resolve_calibration(gpu, "mtx_mul_vec", {.tp_us = 1.0}, 31'000).tm, 31'000);
  EXPECT_THROW(resolve_calibration(gpu, "mtx_mul_vec", {}, 31'000), InputError);          // no t_p
  EXPECT_THROW(resolve_calibration(gpu, "mtx_mul_vec", {.tp_us = 1.0}, {}), InputError);  // no t_m
}


// ---- nesting ------------------------------------------------------------------------------------
// toml++ bounds brackets but not dotted keys and table headers, and recurses over the tree it
// builds: half a million key parts once ran it off the stack (SIGSEGV). TomlReader refuses a
// document more than 64 deep before toml++ sees it, at the part or bracket that goes past.

std::string dotted(int parts, const std::string& part = "a") {
  std::string key = part;
  for (int i = 1; i < parts; ++i) key += "." + part;
  return key;
}

void expect_too_deep(const std::string& text, int line, int column) {
  SCOPED_TRACE(text.substr(0, 200));
  try {
    TomlReader("deep.toml").parse(text);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "deep.toml");
    EXPECT_EQ(e.location().line, line) << e.describe();
    EXPECT_EQ(e.location().column, column) << e.describe();
    EXPECT_STREQ(e.what(), "tables, arrays and dotted keys nested more than 64 deep");
  }
}

TEST(TomlReader, NestingIsBoundedWithALocatedError) {
  expect_too_deep(dotted(500'000) + " = 1\n", 1, 2 * 64 + 1);                     // the 65th part
  expect_too_deep("x = 1\n[" + dotted(500'000) + "]\ny = 2\n", 2, 2 + 2 * 64);     // a header
  expect_too_deep("[[" + dotted(64) + "]]\ny = 2\n", 1, 3 + 2 * 63);               // its array is a level
  expect_too_deep("[" + dotted(60) + "]\n" + dotted(5) + " = 1\n", 2, 2 * 4 + 1);  // header + key
  expect_too_deep("a = " + std::string(1'000'000, '[') + "\n", 1, 5 + 64);
  expect_too_deep("a = " + std::string(1'000'000, '{') + "\n", 1, 5 + 64);  // a '{' without a key is still a level
  std::string inline_tables = "a = ";
  for (int i = 0; i < 100'000; ++i) inline_tables += "{b = ";  // 5 columns a level
  expect_too_deep(inline_tables, 1, 5 + 63 * 5 + 1);  // the 'b' in the 64th table
  expect_too_deep("\"q\".'r'." + dotted(63, "\"x.y\"") + " = 1\n", 1, 9 + 62 * 6);  // quoted parts
}

TEST(TomlReader, NestingUpToTheLimitAndLookalikesParse) {
  EXPECT_NO_THROW(TomlReader("ok.toml").parse(dotted(64) + " = 1\n"));
  EXPECT_NO_THROW(TomlReader("ok.toml").parse("[" + dotted(63) + "]\nb = 1\n[[" + dotted(62, "c") + "]]\nd = 2\n"));
  EXPECT_NO_THROW(TomlReader("ok.toml").parse("a = " + std::string(64, '[') + std::string(64, ']') + "\n"));
  // Dots and brackets in strings, comments and numbers are not nesting.
  const std::string many_dots = std::string(200, '.');
  EXPECT_NO_THROW(TomlReader("ok.toml").parse("a = \"" + many_dots + "[[[{{{\"\nb = '" + many_dots + "'\n# [" + dotted(100) +
                                              "] = 1\nc = \"\"\"\n" + dotted(100) + " = [[[\n\"\"\"\"\nd = '''\n[" + dotted(100) +
                                              "]\n'''\ne = [1.5, 2.5e3, \"x\\\"[\", {f.g = 1}]\n[h.i]\nj = 1979-05-27T07:32:00.5Z\n"));
}

}  // namespace
}  // namespace warpsim::gpus

// Whole applications (docs/apps.md): seed 003's formulas on hand-worked rows, kernel steps equal
// to the workload's own prediction, the speed-up, and located errors for malformed app files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "warpsim/app/app.hpp"
#include "warpsim/app/app_report.hpp"
#include "warpsim/app/app_run.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/workload/named_workload_model.hpp"

namespace {

using namespace warpsim;
using namespace warpsim::sim::app;

const std::string kSystem = R"(
gpu = "rtx2080"
[system]
host_link_gbs = 12.0
host_link_latency_us = 8.0
shared_link = true
network_gbs = 0.125
network_latency_us = 50.0
)";

// The rows' times only: their `gpu` points into the app, gone when this returns.
AppRun run(const std::string& text) { return run_app(parse_app(text, "app.toml")); }

const AppRow& row_at(const AppRun& run, std::int64_t gpus, std::int64_t n = -1) {
  for (const AppRow& row : run.rows) {
    if (row.gpu_count == gpus && (n < 0 || row.axes.at(0).second == n)) return row;
  }
  throw std::runtime_error("no row");
}

TEST(AppFormulas, TreeRoundsAreCeilLog2) {
  const std::int64_t expected[] = {0, 1, 2, 2, 3, 3, 3, 3, 4};  // M = 1..9 (seed 003, note 5.7)
  for (std::int64_t m = 1; m <= 9; ++m) EXPECT_EQ(tree_rounds(m), expected[m - 1]) << m;
  EXPECT_EQ(tree_rounds(1024), 10);
  EXPECT_EQ(tree_rounds(1025), 11);
}

TEST(AppFormulas, CopyOnSharedAndOwnLinks) {
  // 4 MiB to 4 GPUs over a 12 GB/s link with 8 us per copy: each GPU moves 1 MiB.
  const AppRun shared = run(kSystem + "gpus = [1, 4]\n[axes]\nN = [1048576]\n[[step]]\ncopy = \"h2d\"\nbytes = \"4*N\"\n");
  EXPECT_EQ(row_at(shared, 1).steps[0].time_us, 8.0 + 4194304.0 / 12000.0);
  EXPECT_EQ(row_at(shared, 4).steps[0].time_us, 8.0 + 1048576.0 / 3000.0);  // the link split four ways: 3 GB/s each
  EXPECT_EQ(row_at(shared, 4).steps[0].bytes, 4194304);
  std::string own = kSystem + "gpus = [4]\n[axes]\nN = [1048576]\n[[step]]\ncopy = \"d2h\"\nbytes = \"4*N\"\n";
  own.replace(own.find("shared_link = true"), 18, "shared_link = false");
  EXPECT_EQ(row_at(run(own), 4).steps[0].time_us, 8.0 + 1048576.0 / 12000.0);
}

TEST(AppFormulas, Collectives) {
  const AppRun r = run(kSystem + R"(gpus = [1, 2, 4, 5, 8]
[[step]]
broadcast = "1024*M"
[[step]]
gather = 4000
[[step]]
allreduce = 1000
[[step]]
alltoall = 16000
[[step]]
scatter = 4000
)");
  EXPECT_EQ(row_at(r, 1).total_us, 0.0);  // one GPU: nothing to send
  EXPECT_TRUE(std::isnan(row_at(r, 1).speedup));  // 0 us over 0 us: null in JSON
  EXPECT_EQ(row_at(r, 2).steps[0].time_us, 1 * (50 + 2048 / 125.0));
  EXPECT_DOUBLE_EQ(row_at(r, 8).steps[0].time_us, 346.608);     // 3 rounds x (50 + 8192 B / 125 B/us)
  EXPECT_DOUBLE_EQ(row_at(r, 5).steps[0].time_us, 3 * 90.96);   // ceil(log2 5) = 3 rounds of 5120 B
  EXPECT_DOUBLE_EQ(row_at(r, 4).steps[1].time_us, 3 * 58.0);    // the root receives 3 shares of 1000 B
  EXPECT_DOUBLE_EQ(row_at(r, 4).steps[2].time_us, 2 * 2 * 58.0);  // reduce then broadcast, 2 rounds each
  EXPECT_DOUBLE_EQ(row_at(r, 4).steps[3].time_us, 3 * 58.0);    // 3 exchange rounds of 16000 / 16 B
  EXPECT_DOUBLE_EQ(row_at(r, 4).steps[4].time_us, 3 * 58.0);    // the root sends 3 shares of 1000 B
  const AppRow& four = row_at(r, 4);
  EXPECT_DOUBLE_EQ(four.total_us, four.steps[0].time_us + 174 + 232 + 174 + 174);
}

TEST(AppFormulas, CpuRepeatTotalAndSpeedup) {
  const AppRun r = run(kSystem + R"(gpus = [2, 4]
[axes]
N = [3000]
[[step]]
cpu_us = 12.5
repeat = 3
[[step]]
name = "prep"
cpu_us = "N / M"
[[step]]
copy = "h2d"
bytes = "N"
repeat = "M"
)");
  ASSERT_EQ(r.rows.size(), 2u);  // M = 1 is the speed-up's baseline, not a row of its own
  const AppRow& two = row_at(r, 2);
  EXPECT_EQ(two.steps[0].time_us, 37.5);
  EXPECT_EQ(two.steps[1].time_us, 1500.0);
  const double copy_two = 2 * (8.0 + 1500.0 / 6000.0);
  EXPECT_EQ(two.steps[2].time_us, copy_two);
  EXPECT_EQ(two.total_us, 37.5 + 1500.0 + copy_two);
  const double one = 37.5 + 3000.0 + (8.0 + 3000.0 / 12000.0);
  EXPECT_DOUBLE_EQ(two.speedup, one / two.total_us);
  EXPECT_DOUBLE_EQ(row_at(r, 4).speedup, one / row_at(r, 4).total_us);
}

TEST(AppFormulas, OverlappingStepsCostTheirLongest) {
  const App app = parse_app(kSystem + R"([[step]]
cpu_us = 10
[[step]]
cpu_us = 30
overlap = true
[[step]]
cpu_us = 5
[[step]]
cpu_us = 2
overlap = true
[[step]]
name = "last"
cpu_us = 7
overlap = true
)", "app.toml");
  const AppRun r = run_app(app);
  EXPECT_EQ(r.rows.at(0).total_us, 30.0 + 7.0);  // max(10, 30) + max(5, 2, 7)
  EXPECT_EQ(r.rows[0].steps[1].time_us, 30.0);    // each step still reports its own time
  const auto json = app_json(app, r);
  EXPECT_EQ(json["rows"][0]["steps"][1]["overlap"], true);
  EXPECT_FALSE(json["rows"][0]["steps"][0].contains("overlap"));
}

TEST(AppKernels, KernelStepIsTheWorkloadsPredictionOfEachShare) {
  const App app = parse_app(kSystem + R"(gpus = [1, 4]
[axes]
N = [1048576]
[[step]]
workload = "dwt_matrix"
params = { K = 8, N = "N/M" }
)", "app.toml");
  const AppRun r = run_app(app);
  const sim::workload::NamedWorkloadModel model(sim::workload::find_workload("dwt_matrix"));
  sim::workload::CoreTimeCache cache;
  for (const std::int64_t m : {1, 4}) {
    const auto expected = model.predict(app.gpus[0], {{"K", 8}, {"N", 1048576 / m}}, {}, cache);
    EXPECT_EQ(row_at(r, m).steps[0].time_us, expected.time_us) << m;
    EXPECT_EQ(row_at(r, m).total_us, expected.time_us);
  }
}

// A repeated kernel step runs back to back in one stream: on the H100 (launch_overhead_us 5.25,
// launch_overhead_back_to_back_us 4.518) each repeat after the first pays 4.518 for its t_p.
TEST(AppKernels, RepeatedKernelStepPaysTheBackToBackOverhead) {
  std::string system = kSystem;
  system.replace(system.find("rtx2080"), 7, "h100");
  const App app = parse_app(system + "[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8, N = 65536 }\nrepeat = 3\n", "app.toml");
  const AppRun r = run_app(app);
  const sim::workload::NamedWorkloadModel model(sim::workload::find_workload("dwt_matrix"));
  sim::workload::CoreTimeCache cache;
  const auto once = model.predict(app.gpus[0], {{"K", 8}, {"N", 65536}}, {}, cache);
  ASSERT_DOUBLE_EQ(once.calibration.tp_us, 5.25);
  EXPECT_DOUBLE_EQ(r.rows.at(0).total_us, 3 * once.time_us - 2 * (5.25 - 4.518));
}

TEST(AppKernels, AxesOfTheWorkloadComeFromTheAppWhenNotBound) {
  const App app = parse_app(kSystem + "[axes]\nK = [8]\nN = [4096]\n[[step]]\nworkload = \"dwt_lattice\"\n", "app.toml");
  const AppRun r = run_app(app);  // its rows point at the app's GPUs: the app outlives them
  const sim::workload::NamedWorkloadModel model(sim::workload::find_workload("dwt_lattice"));
  sim::workload::CoreTimeCache cache;
  EXPECT_EQ(r.rows.at(0).total_us, model.predict(app.gpus[0], {{"K", 8}, {"N", 4096}}, {}, cache).time_us);
}

TEST(AppSystem, ProfileHostTableFillsWhatTheAppLeavesOut) {
  const std::string profile = R"(name = "test"
clock_mhz = 1000
sm_count = 2
cores_per_sm = 64
max_blocks_per_sm = 16
max_warps_per_sm = 32
max_threads_per_block = 1024
warp_size = 32
[host]
host_link_gbs = 10.0
host_link_latency_us = 5.0
source = "test figures"
)";
  const std::string dir = testing::TempDir() + "/warpsim_app_host";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/test.toml") << profile;
  const std::string app = "gpu = \"test.toml\"\n[system]\nhost_link_latency_us = 1.0\ngpus = [2]\n[[step]]\ncopy = \"h2d\"\nbytes = 20000\n";
  std::ofstream(dir + "/app.toml") << app;
  const AppRun r = run_app(load_app(dir + "/app.toml"));
  EXPECT_EQ(r.rows.at(0).steps[0].time_us, 1.0 + 10000.0 / 10000.0);  // the app's latency, the profile's bandwidth
}

TEST(AppOutputs, JsonCsvAndChart) {
  const App app = parse_app("name = \"x\"\n" + kSystem + "gpus = [1, 2]\n[axes]\nN = [1000]\n[[step]]\ncopy = \"h2d\"\nbytes = \"N\"\n", "app.toml");
  const AppRun r = run_app(app);
  const auto json = app_json(app, r);
  EXPECT_EQ(json["rows"].size(), 2u);
  EXPECT_EQ(json["rows"][1]["gpus"], 2);
  EXPECT_EQ(json["rows"][1]["N"], 1000);
  EXPECT_EQ(json["rows"][1]["steps"][0]["kind"], "h2d");
  EXPECT_EQ(json["rows"][1]["steps"][0]["time_us"].get<double>(), 8.0 + 500.0 / 6000.0);  // full precision
  const std::string csv = app_csv(app, r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "gpu,gpus,N,h2d_us,total_us,speedup");
  EXPECT_NE(csv.find("rtx2080,2,1000," + sim::report::shortest(8.0 + 500.0 / 6000.0)), std::string::npos);
  EXPECT_EQ(parse_app(kSystem + "[[step]]\ncpu_us = 1\n", "dir/my-app.toml").name, "my-app");  // no name: the file's
  const std::string svg = scaling_chart_svg(app, r);
  EXPECT_NE(svg.find("speed-up"), std::string::npos);
  EXPECT_NE(svg.find("ideal (M)"), std::string::npos);
}

TEST(AppErrors, RowLimitIsAMillion) {
  const auto app = [](int to) {
    return "gpu = \"rtx2080\"\n[system]\ngpus = [1, 2]\n[axes]\nN = { from = 1, to = " + std::to_string(to) + " }\n[[step]]\ncpu_us = \"N\"\n";
  };
  EXPECT_EQ(parse_app(app(500000), "app.toml").row_count(), kMaxAppRows);
  try {
    parse_app(app(500001), "app.toml");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "the app has 1000002 rows, above the limit of 1000000 (split it into smaller apps)");
  }
}

// Each malformed app: the error's file, line and column, and the start of its message.
struct BadApp {
  std::string text;
  int line, column;
  std::string message;
};

TEST(AppErrors, MalformedAppsAreLocated) {
  const BadApp cases[] = {
      {"gpu = \"rtx2080\"\nstep = 1\n", 2, 8, "'step' must be a non-empty array"},
      {"[[step]]\ncpu_us = 1\n", 0, 0, "the app names no GPU"},
      {"gpu = \"nope\"\n[[step]]\ncpu_us = 1\n", 1, 7, "unknown GPU"},
      {"gpu = \"rtx2080\"\n", 0, 0, "the app has no step"},
      {"gpu = \"rtx2080\"\ncolour = 1\n[[step]]\ncpu_us = 1\n", 2, 10, "unknown key 'colour'"},
      {"gpu = \"rtx2080\"\n[system]\nhost_link_gbs = 0\n[[step]]\ncpu_us = 1\n", 3, 17, "host_link_gbs must be in (0, 10^6]"},
      {"gpu = \"rtx2080\"\n[system]\nlink = 1\n[[step]]\ncpu_us = 1\n", 3, 8, "unknown key 'link' in [system]"},
      {"gpu = \"rtx2080\"\n[system]\ngpus = [0]\n[[step]]\ncpu_us = 1\n", 3, 8, "gpus: 0 is out of range"},
      {"gpu = \"rtx2080\"\n[system]\ngpus = [2, 2]\n[[step]]\ncpu_us = 1\n", 3, 8, "gpus: 2 is given twice"},
      {"gpu = \"rtx2080\"\n[axes]\nM = [1]\n[[step]]\ncpu_us = \"M\"\n", 3, 5, "M is the number of GPUs"},
      {"gpu = \"rtx2080\"\n[axes]\nN = [1]\n[[step]]\ncpu_us = 1\n", 3, 5, "axis 'N' is read by no step"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = \"2*Q\"\n", 3, 11, "cpu_us reads 'Q', which is not an axis"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = \"2*\"\n", 3, 13, "cpu_us '2*'"},
      {"gpu = \"rtx2080\"\n[[step]]\nname = \"x\"\n", 2, 1, "a [[step]] needs one of copy"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = 1\ngather = 1\n", 4, 10, "a [[step]] is one of"},
      {"gpu = \"rtx2080\"\n[[step]]\ncopy = \"h2h\"\nbytes = 1\n", 3, 8, "copy must be \"h2d\" or \"d2h\""},
      {"gpu = \"rtx2080\"\n[system]\nhost_link_gbs = 1\n[[step]]\ncopy = \"h2d\"\n", 4, 1, "a copy step needs bytes"},
      {"gpu = \"gtx980\"\n[[step]]\ncopy = \"h2d\"\nbytes = 1\n", 2, 1, "step 'h2d' needs host_link_gbs: give it in [system] (profile gtx980 has no"},
      {"gpu = \"rtx2080\"\n[[step]]\nbroadcast = 1\n", 2, 1, "step 'broadcast' needs network_gbs"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = 1\nbytes = 2\n", 4, 9, "bytes is for copy steps"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = -1\n", 3, 10, "cpu_us cannot be negative"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = 1\noverlap = true\n", 4, 11, "the first step has no step before it"},
      {"gpu = \"rtx2080\"\n[[step]]\ncpu_us = 1\n[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8, N = 64 }\noverlap = 1\n", 7, 11, "overlap must be true or false"},
      {"gpu = \"rtx2080\"\n[[step]]\nname = \"a\"\ncpu_us = 1\n[[step]]\nname = \"a\"\ncpu_us = 1\n", 5, 1, "step name 'a' is used"},
      {"gpu = \"rtx2080\"\n[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8 }\n", 2, 1, "workload 'dwt_matrix' needs axis 'N'"},
      {"gpu = \"rtx2080\"\n[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8, N = 1, Z = 2 }\n", 4, 30, "params: workload 'dwt_matrix' has no axis 'Z'"},
      {"gpu = \"rtx2080\"\n[[step]]\nworkload = \"dwt_nope\"\n", 3, 12, "unknown workload"},
      {"gpu = \"rtx2080\"\n[[step]]\nptx = \"workloads/saxpy/saxpy.ptx\"\nparams = [\"Q/M\"]\nlaunch = { threads = 64 }\n", 4, 12,
       "workload 'saxpy' needs axis 'Q' (read by 'Q/M'): give it in [axes]"},
      {"gpu = \"rtx2080\"\n[[step]]\nptx = \"workloads/saxpy/saxpy.ptx\"\nparams = { N = 64 }\nlaunch = { threads = 64 }\n", 4, 10,
       "a PTX kernel's params are a list"},
      {"gpu = \"rtx2080\"\n[[step]]\nworkload = \"dwt_matrix\"\ncolour = 1\n", 4, 10, "unknown key 'colour' in [[step]]"},
      {"gpu = \"rtx2080\"\n[axes]\nN = [1]\n[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8 }\naxes = { N = [2] }\n", 4, 1, "a step has no axes of its own"},
      // At a row: located at the expression's operator, naming the row.
      {"gpu = \"rtx2080\"\n[axes]\nN = [0]\n[[step]]\ncpu_us = \"10 / N\"\n", 5, 14, "rtx2080 M=1 N=0: cpu_us '10 / N': division by zero"},
      {"gpu = \"rtx2080\"\n[axes]\nN = [1]\n[[step]]\ncpu_us = \"N - 2\"\n", 5, 11, "rtx2080 M=1 N=1: cpu_us 'N - 2' is -1, below 0"},
      {"gpu = \"rtx2080\"\n[[step]]\nworkload = \"dwt_matrix\"\nparams = { K = 8, N = \"64 / (M - 1)\" }\n", 4, 27, "rtx2080 M=1: params.N"},
  };
  for (const BadApp& c : cases) {
    try {
      run(c.text);
      ADD_FAILURE() << "accepted:\n" << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().file, "app.toml") << c.text;
      EXPECT_EQ(e.location().line, c.line) << c.text << "\n" << e.what();
      EXPECT_EQ(e.location().column, c.column) << c.text << "\n" << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << c.text << "\n" << e.what();
    }
  }
}

}  // namespace

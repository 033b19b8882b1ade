// Reading kernel times from nvprof and nsys CSV output (hand-written samples in
// tests/evaluate/data, see its README) and writing measurement rows.
#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/evaluate/profiler_import.hpp"
#include "support/located_error.hpp"

namespace warpsim::sim::evaluate {
namespace {

const std::string kData = std::string(WARPSIM_SOURCE_DIR) + "/tests/evaluate/data/";

KernelTime read_file(const std::string& name, Profiler from, const std::string& kernel = "") {
  return read_profile(read_text_file(kData + name), name, from, kernel);
}

TEST(ProfilerImport, NvprofSummaryAverageAndLaunchOverhead) {
  // Avg is in us by the units row (the Time column, in ms, agrees: 0.124 ms / 20 = 6.2 us);
  // cudaLaunchKernel's average 5.2 us fills launch_us.
  const KernelTime t = read_file("nvprof_summary.csv", Profiler::nvprof);
  EXPECT_EQ(t.kernel, "mtx(int, int, float const *, float*, float const *, int)");
  EXPECT_EQ(t.time_us, 6.2);
  EXPECT_FALSE(t.median);
  EXPECT_EQ(t.samples, 20);
  ASSERT_TRUE(t.launch_us.has_value());
  EXPECT_EQ(*t.launch_us, 5.2);
}

TEST(ProfilerImport, NvprofTraceMedianOfTheLaunches) {
  // Six launches: 6.144 6.400 5.984 6.208 6.048 6.336 us -> median (6.144 + 6.208) / 2 = 6.176;
  // the memory copies are not kernels.
  const KernelTime t = read_file("nvprof_trace.csv", Profiler::nvprof, "mtx");
  EXPECT_DOUBLE_EQ(t.time_us, 6.176);
  EXPECT_TRUE(t.median);
  EXPECT_EQ(t.samples, 6);
  EXPECT_FALSE(t.launch_us.has_value());
}

TEST(ProfilerImport, NvprofUnitsAreHonoured) {
  const std::string trace =
      "==1== Profiling result:\n\"Start\",\"Duration\",\"Name\"\ns,ms,\n0.5,0.006,\"k\"\n0.6,0.008,\"k\"\n0.7,0.007,\"k\"\n";
  EXPECT_DOUBLE_EQ(read_profile(trace, "t.csv", Profiler::nvprof, "").time_us, 7);
  const std::string seconds = "\"Start\",\"Duration\",\"Name\"\nms,s,\n1,0.000002,\"k\"\n";
  EXPECT_DOUBLE_EQ(read_profile(seconds, "t.csv", Profiler::nvprof, "").time_us, 2);
  const std::string nanoseconds = "\"Start\",\"Duration\",\"Name\"\nms,ns,\n1,2500,\"k\"\n";
  EXPECT_EQ(read_profile(nanoseconds, "t.csv", Profiler::nvprof, "").time_us, 2.5);
}

TEST(ProfilerImport, NsysKernelSummaryMedian) {
  const KernelTime ltt = read_file("nsys_kern_sum.csv", Profiler::nsys, "ltt");
  EXPECT_EQ(ltt.time_us, 25.584);  // Med (ns) 25584.0
  EXPECT_TRUE(ltt.median);
  EXPECT_EQ(ltt.samples, 24);
  const KernelTime mtx = read_file("nsys_kern_sum.csv", Profiler::nsys, "mtx(");
  EXPECT_EQ(mtx.time_us, 5.536);
  EXPECT_EQ(mtx.samples, 40);
}

TEST(ProfilerImport, NsysKernelAndApiSummariesInOneFile) {
  // `nsys stats --report cuda_gpu_kern_sum,cuda_api_sum --format csv`: cudaLaunchKernel's median.
  const KernelTime t = read_file("nsys_kern_and_api_sum.csv", Profiler::nsys);
  EXPECT_EQ(t.time_us, 6.144);
  EXPECT_EQ(t.samples, 200);
  ASSERT_TRUE(t.launch_us.has_value());
  EXPECT_EQ(*t.launch_us, 5.216);
}

TEST(ProfilerImport, OlderNsysGpukernsumAverageInNanoseconds) {
  const KernelTime t = read_file("nsys_gpukernsum_old.csv", Profiler::nsys);
  EXPECT_EQ(t.time_us, 6.208);  // "Average" 6208.0 ns
  EXPECT_FALSE(t.median);
  EXPECT_EQ(t.samples, 20);
}

TEST(ProfilerImport, ErrorsNameTheFileAndLine) {
  const auto nsys = [](const std::string& text, const std::string& file) { return read_profile(text, file, Profiler::nsys, ""); };
  const auto nvprof = [](const std::string& text, const std::string& file) { return read_profile(text, file, Profiler::nvprof, ""); };
  using testing_support::expect_located_error;
  const std::string two = read_text_file(kData + "nsys_kern_sum.csv");
  expect_located_error(nsys, {two, 0, "several kernels; choose one with --kernel NAME"}, "k.csv");
  expect_located_error(nvprof, {two, 4, "no units row"}, "k.csv");
  expect_located_error(nsys, {read_text_file(kData + "nvprof_summary.csv"), 4, "use --from nvprof"}, "k.csv");
  expect_located_error(nvprof, {"==1== Profiling result:\nnothing\n", 0, "no nvprof table"}, "k.csv");
  expect_located_error(nvprof, {"\"Start\",\"Duration\",\"Name\"\nms,KB,\n1,2,\"k\"\n", 2, "unit 'KB'"}, "k.csv");
  expect_located_error(nvprof, {"\"Start\",\"Duration\",\"Name\"\nms,us,\n1,2,\"k\"\n1,x,\"k\"\n", 4, "Duration 'x'"}, "k.csv");
  expect_located_error(nvprof, {"\"Start\",\"Duration\",\"Name\"\nms,us,\n1,2,\"[CUDA memset]\"\n", 0, "no kernel"}, "k.csv");
  expect_located_error(nsys, {"\"Time (%)\",\"Avg (ns)\",\"Name\"\n1,2,\"k\"\n1,3,\"k\"\n", 3, "a second summary row"}, "k.csv");
  EXPECT_THROW(read_file("nsys_kern_sum.csv", Profiler::nsys, "fft"), InputError);
  EXPECT_THROW(parse_profiler("ncu"), InputError);
  EXPECT_EQ(parse_profiler("nsys"), Profiler::nsys);
}

TEST(ProfilerImport, MeasurementRows) {
  MeasurementRow row{"h100", "dwt_matrix", {{"K", "8"}, {"N", "1024"}}, 6.176, 6, std::nullopt};
  EXPECT_EQ(measurement_header(row), "gpu,workload,K,N,time_us,samples\n");
  EXPECT_EQ(measurement_line(row), "h100,dwt_matrix,8,1024,6.176,6\n");
  row.launch_us = 5.2;
  row.time_us = 0.1 + 0.2;  // full precision
  EXPECT_EQ(measurement_header(row), "gpu,workload,K,N,time_us,samples,launch_us\n");
  EXPECT_EQ(measurement_line(row), "h100,dwt_matrix,8,1024,0.30000000000000004,6,5.2\n");
  row.parameters = {{"time_us", "1"}};
  EXPECT_THROW(measurement_header(row), InputError);
  row.parameters = {{"K", "8,9"}};
  EXPECT_THROW(measurement_line(row), InputError);
  row.parameters = {};
  row.gpu = "";
  EXPECT_THROW(measurement_line(row), InputError);
}

}  // namespace
}  // namespace warpsim::sim::evaluate

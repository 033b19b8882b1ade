// Joining predictions with measurements: key columns, experiments, and located errors.
#include <gtest/gtest.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/evaluate/join.hpp"
#include "support/located_error.hpp"

namespace warpsim::sim::evaluate {
namespace {

using report::parse_csv;

const std::string kPredicted =
    "gpu,workload,K,N,blocks,time_us,launches\n"
    "g,M,8,64,2,11,1\n"
    "g,M,8,128,4,18,1\n"
    "g,M,8,256,8,40,1\n"
    "g,M,14,64,2,15,1\n"
    "g,L,8,64,1,30,5\n";

JoinedData join_text(const std::string& measured, const JoinOptions& options = {}) {
  return join(parse_csv(kPredicted, "p.csv"), parse_csv(measured, "m.csv"), options);
}

TEST(Join, KeysAreTheSharedParameterColumns) {
  EXPECT_TRUE(is_result_column("time_us"));
  EXPECT_TRUE(is_result_column("blocks"));
  EXPECT_TRUE(is_result_column("launches"));
  EXPECT_TRUE(is_result_column("samples"));
  EXPECT_TRUE(is_result_column("launch_us"));
  EXPECT_TRUE(is_result_column("time_us_sd"));
  EXPECT_FALSE(is_result_column("K"));
  EXPECT_FALSE(is_result_column("N"));
  EXPECT_FALSE(is_result_column("gpu"));
  EXPECT_FALSE(is_result_column("M"));
  // The measured file's column order, N before K; blocks and samples are not keys.
  const JoinedData d = join_text("gpu,workload,N,K,blocks,time_us,samples\ng,M,128,8.0,4,20,5\ng,M,64,8,2,10,5\n");
  EXPECT_EQ(d.keys, (std::vector<std::string>{"gpu", "workload", "N", "K"}));
  ASSERT_EQ(d.experiments.size(), 1u);
  const Experiment& e = d.experiments[0];
  EXPECT_EQ(e.gpu, "g");
  EXPECT_EQ(e.workload, "M");
  EXPECT_EQ(e.keys, (std::vector<std::pair<std::string, std::string>>{{"K", "8"}}));  // "8.0" matched "8"
  ASSERT_EQ(e.points.size(), 2u);  // in x order
  EXPECT_EQ(e.points[0].x, 64);
  EXPECT_EQ(e.points[0].predicted_us, 11);
  EXPECT_EQ(e.points[0].measured_us, 10);
  EXPECT_EQ(e.points[1].x, 128);
  EXPECT_EQ(e.points[1].predicted_us, 18);
  EXPECT_EQ(d.points, 2u);
}

TEST(Join, ExperimentsInMeasuredOrderGroupedWithoutX) {
  const JoinedData d = join_text("gpu,workload,K,N,time_us\ng,L,8,64,40\ng,M,8,64,10\ng,M,14,64,12\ng,M,8,256,40\n");
  ASSERT_EQ(d.experiments.size(), 3u);
  EXPECT_EQ(d.experiments[0].workload, "L");
  EXPECT_EQ(d.experiments[1].keys[0].second, "8");
  EXPECT_EQ(d.experiments[1].points.size(), 2u);
  EXPECT_EQ(d.experiments[2].keys[0].second, "14");
}

TEST(Join, ExplicitKeysAndX) {
  JoinOptions options;
  options.keys = {"gpu", "workload", "N", "K"};
  options.x = "K";  // experiments along K, one per N
  const JoinedData d = join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\ng,M,14,64,12\ng,M,8,128,20\n", options);
  ASSERT_EQ(d.experiments.size(), 2u);
  EXPECT_EQ(d.experiments[0].keys[0], (std::pair<std::string, std::string>{"N", "64"}));
  EXPECT_EQ(d.experiments[0].points.size(), 2u);
  options.keys = {"gpu", "workload", "N"};  // then K must not vary: predicted rows collide
  options.x = "N";
  try {
    join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\n", options);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(),
              "p.csv:5: duplicate row: gpu=g workload=M N=64 is also on line 2 (joined on gpu,workload,N; the rows "
              "differ in K, not a key: the other file lacks it, or name it with --keys)");
  }
}

TEST(Join, MalformedInputNamesFileAndLine) {
  const auto measured = [](const std::string& text, const std::string& file) {
    return join(parse_csv(kPredicted, "p.csv"), parse_csv(text, file), {});
  };
  using testing_support::expect_located_error;
  expect_located_error(measured, {"gpu,workload,K,N,kernel_us\ng,M,8,64,1\n", 1, "no column 'time_us'"}, "m.csv");
  expect_located_error(measured, {"gpu,workload,K,N,time_us\ng,M,8,64,10\ng,M,8,128,fast\n", 3, "'fast' is not a number"}, "m.csv");
  expect_located_error(measured, {"gpu,workload,K,N,time_us\ng,M,8,64,0\n", 2, "is not positive"}, "m.csv");
  expect_located_error(measured, {"gpu,workload,K,N,time_us\ng,M,8,64,-1\n", 2, "is not positive"}, "m.csv");
  expect_located_error(measured, {"gpu,workload,K,N,time_us\ng,M,8,64,inf\n", 2, "is not a number"}, "m.csv");
  expect_located_error(measured, {"gpu,workload,K,N,time_us\ng,M,8,x64,10\n", 2, "N 'x64' is not a number"}, "m.csv");
  expect_located_error(measured,
                       {"gpu,workload,K,N,time_us\ng,M,8,64,10\ng,M,8,128,20\ng,M,8.0,64,11\n", 4,
                        "duplicate row: gpu=g workload=M K=8 N=64 is also on line 2"},
                       "m.csv");
  expect_located_error(measured,
                       {"gpu,workload,K,N,time_us\ng,M,8,64,10\ng,M,8,512,20\n", 3,
                        "no prediction for gpu=g workload=M K=8 N=512 in p.csv"},
                       "m.csv");
  expect_located_error(measured, {"gpu,K,N,time_us\ng,8,64,10\n", 1, "no column 'workload'"}, "m.csv");
  // A duplicate in the predictions is reported in that file.
  const auto predicted = [](const std::string& text, const std::string& file) {
    return join(parse_csv(text, file), parse_csv("gpu,workload,K,N,time_us\ng,M,8,64,10\n", "m.csv"), {});
  };
  expect_located_error(predicted, {"gpu,workload,K,N,time_us\ng,M,8,64,1\ng,M,8,64,2\n", 3, "duplicate row"}, "p.csv");
}

TEST(Join, AllowMissingSkipsAndStillNeedsOneRowInCommon) {
  JoinOptions options;
  options.allow_missing = true;
  const JoinedData d = join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\ng,M,8,512,20\ng,X,8,64,1\n", options);
  EXPECT_EQ(d.skipped_lines, (std::vector<int>{3, 4}));
  EXPECT_EQ(d.points, 1u);
  testing_support::expect_located_error(
      [&](const std::string& text, const std::string& file) { return join(parse_csv(kPredicted, "p.csv"), parse_csv(text, file), options); },
      {"gpu,workload,K,N,time_us\nh,M,8,64,10\n", 0, "no measured row has a prediction in p.csv"}, "m.csv");
}

// With no row in common, the error says what the join tried and what each file holds, not the
// first measured row's miss.
TEST(Join, NoRowInCommonSaysWhatEachFileHas) {
  try {
    join_text("gpu,workload,K,N,time_us\nh100,dwt,8,64,10\nh100,dwt,8,128,20\n", {});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), "m.csv: no measured row has a prediction in p.csv: joined on gpu,workload,K,N; gpu: predicted g, "
                            "measured h100; workload: predicted L M, measured dwt");
  }
}

TEST(Join, FlagsThatCannotWork) {
  JoinOptions options;
  options.x = "M";
  EXPECT_THROW(join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\n", options), InputError);
  options.x = "N";
  options.keys = {"gpu", "N"};
  EXPECT_THROW(join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\n", options), InputError);
  options.keys = {"gpu", "workload", "K", "N", "M"};  // a key one file lacks
  EXPECT_THROW(join_text("gpu,workload,K,N,time_us\ng,M,8,64,10\n", options), InputError);
}

}  // namespace
}  // namespace warpsim::sim::evaluate

// cp.async under the pipes model (review 2026-11-sass-and-memory-seams 4.2): a copy is timed as
// asynchronous, waited for where its group is (cp.async.wait_group), so a double-buffered loop
// gains over its ld.global + st.shared twin; before, the copy was a blocking load and the two
// came out within 0.5%.
#include <gtest/gtest.h>

#include <string>

#include "warpsim/warpsim.hpp"

namespace {

using namespace warpsim;

double time_us(const std::string& kernel) {
  SimulateRequest request;
  request.program = "tests/ptx/cases/copy_pipeline.sm_80.ptx";
  request.ptx.kernel = kernel;
  request.nvdisasm = "none";  // PTX order: the same answer with or without the SASS tools
  request.gpu = "a100";
  request.grid = Dim3{1, 1, 1};
  request.block = Dim3{128, 1, 1};
  request.params = {{"2", "64"}};
  request.model = Model::pipes;
  request.registers = 32;
  return simulate(request).time_us;
}

TEST(AsyncCopy, ADoubleBufferedLoopGainsOverItsSynchronousTwin) {
  const double async = time_us("copy_pipeline_async");
  const double sync = time_us("copy_pipeline_sync");
  // The lone block's 4 warps cannot hide the load latency of each tile: the copy overlaps part of
  // the tile's work (its wait counted statically, docs/ptx.md), the twin waits in full.
  EXPECT_LT(async, 0.95 * sync);
}

TEST(AsyncCopy, TheLoweredCopyIsAsynchronousAndUsedAtTheNextIterationsWait) {
  LowerRequest request;
  request.ptx = "tests/ptx/cases/copy_pipeline.sm_80.ptx";
  request.options.kernel = "copy_pipeline_async";
  request.grid = Dim3{1, 1, 1};
  request.block = Dim3{128, 1, 1};
  request.params = {{"2", "64"}};
  const std::string text = to_kp(lower(request));
  // The loop's copy: 16 sectors (a warp's float4s), asynchronous; its wait_group 1 is in the next
  // iteration: the 43 PTX instructions after it (the inner loop's body counted once).
  EXPECT_NE(text.find("  load 60 global sectors=16 async use=43"), std::string::npos) << text;
}

}  // namespace

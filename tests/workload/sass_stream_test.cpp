// SASS as the pipes model's timed stream (docs/sass.md): the line markers, the mapping of SASS to
// PTX instructions on committed listings of our own kernels (no CUDA needed), the lowering's
// exactness with it, and the fallback to PTX order without the tools.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "support/source_dir.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/line_markers.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx/sass_costs.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/sass/listing.hpp"
#include "warpsim/workload/ptx_source.hpp"
#include "warpsim/workload/sass_stream.hpp"

namespace {

using namespace warpsim;
using testing_support::kSourceDir;

const std::string kKernels = kSourceDir + "/tests/sass/kernels/";
const std::string kFixtures = kSourceDir + "/tests/sass/fixtures/";

struct Marked {
  std::string ptx, marked, listing;  // the PTX, its line-marked copy, the listing of that copy at sm_80
};
const Marked kMarked[] = {
    {kKernels + "mapping.sm_80.ptx", kKernels + "mapping.sm_80.marked.ptx", kFixtures + "mapping.sm_80.sass"},
    {kSourceDir + "/workloads/sgemm/sgemm.ptx", kKernels + "sgemm.sm_80.marked.ptx", kFixtures + "sgemm_marked.sm_80.sass"},
    {kKernels + "ifconv.ptx", kKernels + "ifconv.marked.ptx", kFixtures + "ifconv.sm_80.sass"},
};

// The marked copies are what with_line_markers writes (WARPSIM_UPDATE_SASS_FIXTURES=1 rewrites
// them; scripts/sass-fixtures.sh then lists them).
TEST(LineMarkers, CommittedCopiesAreCurrent) {
  for (const Marked& m : kMarked) {
    const std::string text = read_text_file(m.ptx);
    const std::string marked = ptx::with_line_markers(text, ptx::parse_ptx(text, m.ptx));
    if (std::getenv("WARPSIM_UPDATE_SASS_FIXTURES") != nullptr) std::ofstream(m.marked, std::ios::binary) << marked;
    EXPECT_EQ(marked, read_text_file(m.marked)) << m.marked;
  }
}

TEST(LineMarkers, OneMarkerPerInstructionLineAndNoOtherLoc) {
  const std::string text = read_text_file(kSourceDir + "/tests/ptx/nvcc/device_call.sm_80.lineinfo.ptx");
  const ptx::Module module = ptx::parse_ptx(text, "device_call");
  const std::string marked = ptx::with_line_markers(text, module);
  std::size_t instructions = 0, markers = 0, files = 0;
  for (const ptx::Function& f : module.functions) {
    for (const ptx::Statement& s : f.body) instructions += std::holds_alternative<ptx::Instruction>(s) ? 1 : 0;
  }
  std::istringstream lines(marked);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("\t.loc 1 ")) ++markers;
    if (line.find(".file") != std::string::npos) ++files;
    EXPECT_FALSE(line.find(".loc") != std::string::npos && !line.starts_with("\t.loc 1 ")) << line;
  }
  EXPECT_EQ(markers, instructions);  // nvcc writes one instruction a line
  EXPECT_EQ(files, 1U);
  // Marked PTX parses, and its instructions are the original's.
  const ptx::Module again = ptx::parse_ptx(marked, "marked");
  ASSERT_EQ(again.functions.size(), module.functions.size());
}

struct Priced {
  ptx::DecodedModule decoded;
  ptx::SassCoverage coverage;
  std::uint32_t entry = 0;
};

Priced priced(const Marked& m, const std::string& kernel) {
  const ptx::Module module = ptx::parse_ptx(read_text_file(m.ptx), m.ptx);
  const sass::Listing listing = sass::read_listing(read_text_file(m.listing), m.listing);
  Priced p;
  p.entry = ptx::select_kernel(module, kernel);
  p.decoded = ptx::decode_kernel(module, p.entry);
  p.coverage = ptx::apply_sass_costs(p.decoded, listing, 80);
  return p;
}

std::int64_t fp32_of(const ptx::DecodedInstruction& in) { return in.pipes.work[static_cast<std::size_t>(isa::Pipe::fp32)]; }

// The issue's facts on sgemm at sm_80: each of sgemm_tiled's 16 FMAs is one FFMA; sgemm_naive's
// loop body of 4 FMAs appears 7 times (unrolled and peeled), still one FFMA per PTX FMA executed.
TEST(SassCosts, EachSgemmFmaIsOneFfmaPerExecution) {
  for (const std::string kernel : {"sgemm_tiled", "sgemm_naive"}) {
    const Priced p = priced(kMarked[1], kernel);
    int fmas = 0;
    for (const ptx::DecodedInstruction& in : p.decoded.functions[p.entry].code) {
      if (!in.text.starts_with("fma")) continue;
      ++fmas;
      EXPECT_EQ(fp32_of(in), 1) << kernel << " line " << in.pos.line;
      EXPECT_EQ(in.pipes.issue, 1) << kernel << " line " << in.pos.line;
    }
    EXPECT_EQ(fmas, kernel == "sgemm_tiled" ? 16 : 5);  // sgemm_naive: 4 in nvcc's unrolled body, 1 in its remainder
    EXPECT_EQ(p.coverage.unmapped_blocks, 0) << kernel;
    EXPECT_EQ(p.coverage.without_line, 0) << kernel;
    EXPECT_EQ(p.coverage.unrolled_blocks, kernel == "sgemm_naive" ? 1 : 0) << kernel;
  }
  const sass::Listing listing = sass::read_listing(read_text_file(kMarked[1].listing), kMarked[1].listing);
  const sass::Function* naive = listing.find("_Z11sgemm_naiveiPKfS0_Pf");
  ASSERT_NE(naive, nullptr);
  for (const std::uint32_t line : {204U, 208U, 212U, 217U}) {
    int ffma = 0;
    for (const sass::Instruction& in : naive->code) ffma += in.ptx_line == line && in.opcode == "FFMA" ? 1 : 0;
    EXPECT_EQ(ffma, 7) << "line " << line;
  }
}

// Address arithmetic ptxas folds into the loads' immediate offsets costs nothing per execution;
// the block's SASS is conserved: its instructions' issue sums to its SASS over its copies.
TEST(SassCosts, BlockTotalsAreTheSassOverItsCopies) {
  const Priced p = priced(kMarked[0], "dot_rows");
  std::int64_t issue = 0, table = 0;
  const ptx::Module module = ptx::parse_ptx(read_text_file(kMarked[0].ptx), kMarked[0].ptx);
  const ptx::DecodedModule plain = ptx::decode_kernel(module, p.entry);
  for (std::size_t i = 0; i < plain.functions[p.entry].code.size(); ++i) {
    issue += p.decoded.functions[p.entry].code[i].pipes.issue;
    table += plain.functions[p.entry].code[i].pipes.issue;
  }
  EXPECT_LT(issue, table);  // ptxas folds the PTX's address arithmetic
  EXPECT_GT(p.coverage.loads, 0);
  for (const ptx::DecodedInstruction& in : p.decoded.functions[p.entry].code) {
    if (in.text.starts_with("fma")) {
      EXPECT_EQ(fp32_of(in), 1) << "line " << in.pos.line;
    }
    if (in.text.starts_with("cvta")) {
      EXPECT_EQ(in.pipes.issue, 0) << "line " << in.pos.line;  // a constant operand in SASS
    }
  }
}

// If-conversion: the branch's block becomes predicated SASS (@P0 FADD, @P0 FMUL) that every warp
// issues; the PTX block keeps its instructions' prices from those, charged where the emulation
// runs it (docs/sass.md: a warp that skips it entirely is not charged).
TEST(SassCosts, IfConvertedBlockIsPricedFromItsPredicatedSass) {
  const Priced p = priced(kMarked[2], "odd_double");
  EXPECT_EQ(p.coverage.unmapped_blocks, 0);
  int priced_arithmetic = 0;
  for (const ptx::DecodedInstruction& in : p.decoded.functions[p.entry].code) {
    if (in.text == "add.f32" || in.text == "mul.f32") {
      EXPECT_EQ(fp32_of(in), 1) << in.text;
      ++priced_arithmetic;
    }
    if (in.text.starts_with("bra")) {
      EXPECT_EQ(in.pipes.issue, 0) << "ptxas removed the branch";
    }
  }
  EXPECT_EQ(priced_arithmetic, 2);
  const sass::Listing listing = sass::read_listing(read_text_file(kMarked[2].listing), kMarked[2].listing);
  int predicated = 0;
  for (const sass::Instruction& in : listing.functions.at(0).code) predicated += in.predicate == "@P0" && in.base() != "EXIT" ? 1 : 0;
  EXPECT_EQ(predicated, 2);
}

// The class path equals --emulate-all with SASS costs as without: they are a function of the PTX
// instruction, so every warp's path prices the same.
TEST(SassCosts, FastPathEqualsEmulateAll) {
  const ptx::Module module = ptx::parse_ptx(read_text_file(kMarked[0].ptx), kMarked[0].ptx);
  const auto listing = std::make_shared<const sass::Listing>(sass::read_listing(read_text_file(kMarked[0].listing), "fixture"));
  for (const std::string kernel : {"dot_rows", "odd_lanes", "fixed_trip"}) {
    ptx::LoweringOptions options;
    options.kernel = kernel;
    options.grid = {4, 1, 1};
    options.block = {96, 1, 1};
    if (kernel == "dot_rows") options.parameters = {{"0", "37"}};
    options.sass = listing;
    options.sass_compute_capability = 80;
    options.sass_identity = "fixture";
    const ptx::LoweredKernel fast = ptx::lower_kernel(module, options);
    options.emulate_all = true;
    const ptx::LoweredKernel all = ptx::lower_kernel(module, options);
    ASSERT_EQ(fast.programs.size(), all.programs.size()) << kernel;
    for (std::size_t i = 0; i < fast.programs.size(); ++i) {
      EXPECT_EQ(fast.programs[i].program.timing_identity(), all.programs[i].program.timing_identity()) << kernel;
    }
    ASSERT_TRUE(fast.sass.has_value());
    EXPECT_EQ(fast.sass, all.sass);
    options.sass = nullptr;
    options.emulate_all = false;
    const ptx::LoweredKernel ptx_order = ptx::lower_kernel(module, options);
    EXPECT_FALSE(ptx_order.sass.has_value());
  }
}

sim::workload::PtxSource mapping_source() { return sim::workload::load_ptx_source(kMarked[0].ptx); }

TEST(SassStream, WithoutNvdisasmThePtxOrderStreamSaysWhy) {
  const auto source = mapping_source();
  const sim::workload::SassStream none = sim::workload::sass_stream({"ptxas", "none", false}, source, "_Z8dot_rowsiPKfS0_Pf", "8.0");
  EXPECT_EQ(none.listing, nullptr);
  EXPECT_EQ(none.note, "--nvdisasm none");
  const sim::workload::SassStream missing =
      sim::workload::sass_stream({"ptxas", "/nonexistent/nvdisasm", false}, source, "_Z8dot_rowsiPKfS0_Pf", "8.0");
  EXPECT_EQ(missing.listing, nullptr);
  EXPECT_NE(missing.note.find("not found"), std::string::npos) << missing.note;
}

TEST(SassStream, WithTheToolsTheListingIsTheKernels) {
  const auto source = mapping_source();
  const sim::workload::SassStream s = sim::workload::sass_stream({}, source, "_Z8dot_rowsiPKfS0_Pf", "8.0");
  if (s.listing == nullptr) GTEST_SKIP() << "no SASS here: " << s.note;
  EXPECT_EQ(s.arch, "sm_80");
  EXPECT_EQ(s.compute_capability, 80);
  EXPECT_NE(s.listing->find("_Z8dot_rowsiPKfS0_Pf"), nullptr);
  EXPECT_TRUE(s.registers.has_value());
  EXPECT_FALSE(s.identity.empty());
  EXPECT_EQ(s.note, "");
  // sm_80 PTX does not compile for sm_75: PTX order, and the note says why.
  const sim::workload::SassStream refused = sim::workload::sass_stream({}, source, "_Z8dot_rowsiPKfS0_Pf", "7.5");
  EXPECT_EQ(refused.listing, nullptr);
  EXPECT_NE(refused.note.find("ptxas -arch=sm_75 -lineinfo failed"), std::string::npos) << refused.note;
  // An older GPU's SASS: sm_75's, said.
  const auto saxpy = sim::workload::load_ptx_source(kSourceDir + "/workloads/saxpy/saxpy.ptx");
  const sim::workload::SassStream older = sim::workload::sass_stream({}, saxpy, saxpy.module->functions[0].name, "6.1");
  ASSERT_NE(older.listing, nullptr) << older.note;
  EXPECT_EQ(older.arch, "sm_75");
  EXPECT_EQ(older.note, "sm_75 stands in for sm_61 (CUDA 13's oldest)");
}

}  // namespace

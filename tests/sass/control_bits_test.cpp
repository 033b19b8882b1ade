// decode_control on known words, and the layout checked on ptxas's own code: every variable-
// latency instruction's write barrier is waited on by the first later instruction that reads
// one of its destination registers (in its block).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>

#include "fixture.hpp"
#include "warpsim/sass/control_bits.hpp"

namespace warpsim::sass {
namespace {

TEST(SassControlBits, KnownWords) {
  const ControlBits ffma = decode_control(0x004fc6000000001c);  // FFMA after a load on barrier 2
  EXPECT_EQ(ffma.stall, 3);
  EXPECT_EQ(ffma.wait_mask, 0b000100);
  EXPECT_TRUE(ffma.waits_on(2));
  EXPECT_EQ(ffma.write_barrier, -1);
  EXPECT_EQ(ffma.read_barrier, -1);
  const ControlBits s2r = decode_control(0x000e280000002500);  // S2R R0, SR_CTAID.X
  EXPECT_EQ(s2r.stall, 4);
  EXPECT_EQ(s2r.write_barrier, 0);
  EXPECT_TRUE(s2r.yield);
  EXPECT_EQ(s2r.wait_mask, 0);
  const ControlBits imad = decode_control(0x001fca00078e0205);  // IMAD reading that S2R's R0
  EXPECT_EQ(imad.wait_mask, 0b000001);
  EXPECT_EQ(imad.stall, 5);
  const ControlBits reuse = decode_control(0x040fe40007ffe0ff);  // IADD3 R4, R2.reuse, -0x1, RZ
  EXPECT_EQ(reuse.reuse, 0b0001);
  const ControlBits all = decode_control(~std::uint64_t{0});
  EXPECT_EQ(all, (ControlBits{15, true, -1, -1, 0x3f, 0xf}));
  EXPECT_EQ(decode_control(0), (ControlBits{0, false, 0, 0, 0, 0}));
}

// Per fixture: the reads of a barrier's registers checked, and how many waited on it.
struct Tally {
  int checked = 0;
  int waited = 0;
};

Tally check_waits(const Function& f) {
  Tally tally;
  // Per barrier, the registers of the instruction that set it last and are not read yet.
  std::array<std::vector<RegisterRange>, 6> pending;
  std::vector<bool> block_start(f.code.size() + 1, false);
  for (const auto& [label, index] : f.labels) block_start[index] = true;
  for (std::size_t i = 0; i < f.code.size(); ++i) {
    const Instruction& in = f.code[i];
    if (block_start[i]) pending = {};  // another path may have waited already
    for (int b = 0; b < 6; ++b) {
      bool reads = false;
      for (const RegisterRange& w : pending[b]) {
        for (const RegisterRange& r : in.reads) reads = reads || (r.first < w.first + w.count && w.first < r.first + r.count);
      }
      if (reads) {
        ++tally.checked;
        tally.waited += in.control.waits_on(b) ? 1 : 0;
        EXPECT_TRUE(in.control.waits_on(b)) << f.name << " +" << std::hex << in.offset << " " << in.opcode << " " << in.operands;
      }
      if (reads || in.control.waits_on(b)) pending[b].clear();
    }
    if (in.control.write_barrier >= 0) pending[in.control.write_barrier] = in.writes;
  }
  return tally;
}

TEST(SassControlBits, ReadersWaitOnTheWriteBarrier) {
  for (const std::string& name : testing::fixture_names()) {
    Tally total;
    for (const Function& f : testing::fixture(name).functions) {
      const Tally t = check_waits(f);
      total.checked += t.checked;
      total.waited += t.waited;
    }
    std::printf("%-24s %d reads of a barrier's registers, %d waited on it\n", name.c_str(), total.checked, total.waited);
    EXPECT_GT(total.checked, 0) << name;
  }
}

}  // namespace
}  // namespace warpsim::sass

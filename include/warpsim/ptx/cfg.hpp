// The control-flow graph of a decoded function (Boost.Graph) and what the warp emulator needs
// from it: for every branch, the instruction where its diverged lanes reconverge, which is the
// start of the branch block's immediate post-dominator.
#pragma once

#include <cstdint>
#include <vector>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

struct BasicBlock {
  std::uint32_t first = 0;  // instruction indices [first, last]
  std::uint32_t last = 0;
  std::vector<std::uint32_t> successors;  // block indices; exit_block() for ret/exit
};

class ControlFlowGraph {
 public:
  explicit ControlFlowGraph(const DecodedFunction& function);

  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  std::uint32_t exit_block() const { return static_cast<std::uint32_t>(blocks_.size()); }
  // Immediate post-dominator of each block (exit_block() when only the exit post-dominates it).
  const std::vector<std::uint32_t>& immediate_post_dominators() const { return ipdom_; }
  // For instruction i: the instruction index where lanes that diverge at i meet again;
  // code.size() stands for the function's exit.
  std::uint32_t reconvergence_point(std::uint32_t instruction) const { return reconvergence_[instruction]; }

  // For a conditional branch at instruction i: which way leaves the innermost loop that holds
  // it (natural loops of the dominator tree), if exactly one way does.
  enum class LoopExit : std::uint8_t { none, taken, fallthrough };
  LoopExit loop_exit(std::uint32_t instruction) const { return loop_exit_[instruction]; }

 private:
  std::vector<BasicBlock> blocks_;
  std::vector<std::uint32_t> ipdom_;
  std::vector<std::uint32_t> reconvergence_;
  std::vector<LoopExit> loop_exit_;

  void find_loop_exits(const DecodedFunction& function);
};

}  // namespace warpsim::ptx

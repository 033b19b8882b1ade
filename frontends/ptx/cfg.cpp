#include "frontends/ptx/cfg.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>

namespace warpsim::ptx {
namespace {

bool ends_block(const DecodedInstruction& in) {
  switch (in.opcode) {
    case Opcode::bra:
    case Opcode::brx:
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap: return true;
    default: return false;
  }
}

bool falls_through(const DecodedInstruction& in) {
  switch (in.opcode) {
    case Opcode::bra: return in.has_guard;
    case Opcode::brx: return false;
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap: return in.has_guard;
    default: return true;
  }
}

}  // namespace

ControlFlowGraph::ControlFlowGraph(const DecodedFunction& function) {
  const std::vector<DecodedInstruction>& code = function.code;
  const auto size = static_cast<std::uint32_t>(code.size());
  std::vector<bool> leader(size + 1, false);
  leader[0] = true;
  for (std::uint32_t i = 0; i < size; ++i) {
    if (code[i].opcode == Opcode::bra) leader[code[i].target] = true;
    for (const std::uint32_t t : code[i].branch_table) leader[t] = true;
    if (ends_block(code[i])) leader[i + 1] = true;
  }
  std::vector<std::uint32_t> block_of(size + 1, 0);
  for (std::uint32_t i = 0; i < size; ++i) {
    if (leader[i]) blocks_.push_back(BasicBlock{i, i, {}});
    blocks_.back().last = i;
    block_of[i] = static_cast<std::uint32_t>(blocks_.size() - 1);
  }
  const std::uint32_t exit = exit_block();
  block_of[size] = exit;  // falling off the end, or a branch to just past the last instruction
  for (BasicBlock& block : blocks_) {
    const DecodedInstruction& in = code[block.last];
    if (in.opcode == Opcode::bra) block.successors.push_back(block_of[in.target]);
    for (const std::uint32_t t : in.branch_table) block.successors.push_back(block_of[t]);
    if (in.opcode == Opcode::ret || in.opcode == Opcode::exit || in.opcode == Opcode::trap) block.successors.push_back(exit);
    if (falls_through(in)) block.successors.push_back(block_of[block.last + 1]);
    std::sort(block.successors.begin(), block.successors.end());
    block.successors.erase(std::unique(block.successors.begin(), block.successors.end()), block.successors.end());
  }

  // Post-dominators are dominators of the reversed graph rooted at the exit.
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  Graph reversed(blocks_.size() + 1);
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    for (const std::uint32_t s : blocks_[b].successors) boost::add_edge(s, b, reversed);
  }
  std::vector<Vertex> dominator(boost::num_vertices(reversed), boost::graph_traits<Graph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      reversed, boost::vertex(exit, reversed),
      boost::make_iterator_property_map(dominator.begin(), boost::get(boost::vertex_index, reversed)));
  ipdom_.resize(blocks_.size(), exit);
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    // A block that cannot reach the exit (an endless loop) has no post-dominator: use the exit.
    if (dominator[b] != boost::graph_traits<Graph>::null_vertex()) ipdom_[b] = static_cast<std::uint32_t>(dominator[b]);
  }
  reconvergence_.resize(size, size);
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) {
    const std::uint32_t at = ipdom_[b] == exit ? size : blocks_[ipdom_[b]].first;
    for (std::uint32_t i = blocks_[b].first; i <= blocks_[b].last; ++i) reconvergence_[i] = at;
  }
}

}  // namespace warpsim::ptx

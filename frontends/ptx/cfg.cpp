#include "warpsim/ptx/cfg.hpp"

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
  find_loop_exits(function);
}

void ControlFlowGraph::find_loop_exits(const DecodedFunction& function) {
  const auto size = static_cast<std::uint32_t>(function.code.size());
  loop_exit_.assign(size, LoopExit::none);
  if (blocks_.empty()) return;
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  const std::size_t n = blocks_.size();
  Graph forward(n);
  std::vector<std::vector<std::uint32_t>> predecessors(n);
  for (std::uint32_t b = 0; b < n; ++b) {
    for (const std::uint32_t s : blocks_[b].successors) {
      if (s == exit_block()) continue;
      boost::add_edge(b, s, forward);
      predecessors[s].push_back(b);
    }
  }
  std::vector<Vertex> idom(n, boost::graph_traits<Graph>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(forward, boost::vertex(0, forward),
                                        boost::make_iterator_property_map(idom.begin(), boost::get(boost::vertex_index, forward)));
  const auto dominates = [&](std::uint32_t h, std::uint32_t b) {
    for (Vertex v = b; v != boost::graph_traits<Graph>::null_vertex(); v = idom[v]) {
      if (v == h) return true;
    }
    return false;
  };
  // Natural loops: for each back edge u -> h, the blocks that reach u without passing h.
  std::vector<std::vector<bool>> loops;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (const std::uint32_t h : blocks_[u].successors) {
      if (h == exit_block() || !dominates(h, u)) continue;
      std::vector<bool> body(n, false);
      body[h] = true;
      std::vector<std::uint32_t> work{u};
      while (!work.empty()) {
        const std::uint32_t b = work.back();
        work.pop_back();
        if (body[b]) continue;
        body[b] = true;
        for (const std::uint32_t p : predecessors[b]) work.push_back(p);
      }
      loops.push_back(std::move(body));
    }
  }
  for (std::uint32_t b = 0; b < n; ++b) {
    const DecodedInstruction& in = function.code[blocks_[b].last];
    if (in.opcode != Opcode::bra || !in.has_guard) continue;
    const std::uint32_t taken = in.target < size ? in.target : size;
    const std::uint32_t fall = blocks_[b].last + 1;
    const auto block_at = [&](std::uint32_t instruction) -> std::uint32_t {
      for (std::uint32_t k = 0; k < n; ++k) {
        if (blocks_[k].first == instruction) return k;
      }
      return exit_block();
    };
    const std::uint32_t taken_block = block_at(taken), fall_block = block_at(fall);
    std::size_t innermost = 0, smallest = n + 1;
    for (std::size_t l = 0; l < loops.size(); ++l) {
      const auto count = static_cast<std::size_t>(std::count(loops[l].begin(), loops[l].end(), true));
      if (loops[l][b] && count < smallest) {
        smallest = count;
        innermost = l;
      }
    }
    if (smallest > n) continue;
    const auto inside = [&](std::uint32_t block) { return block != exit_block() && loops[innermost][block]; };
    if (inside(taken_block) && !inside(fall_block)) loop_exit_[blocks_[b].last] = LoopExit::fallthrough;
    if (!inside(taken_block) && inside(fall_block)) loop_exit_[blocks_[b].last] = LoopExit::taken;
  }
}

}  // namespace warpsim::ptx

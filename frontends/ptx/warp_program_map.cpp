#include "warpsim/ptx/warp_program_map.hpp"

#include <algorithm>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {

WarpProgramMap::WarpProgramMap(std::array<std::int64_t, 3> grid, std::int64_t warps_per_block)
    : grid_(grid), warps_per_block_(warps_per_block) {
  BlockBox whole;
  for (std::size_t d = 0; d < 3; ++d) whole.dims[d] = IndexRange{0, 1, grid[d]};
  for (std::int64_t w = 0; w < warps_per_block; ++w) {
    roots_.push_back(static_cast<NodeId>(nodes_.size()));
    Node node;
    node.box = whole;
    nodes_.push_back(std::move(node));
  }
}

WarpProgramMap::WarpProgramMap(std::array<std::int64_t, 3> grid, std::int64_t warps_per_block,
                               std::vector<std::uint32_t> per_warp)
    : grid_(grid), warps_per_block_(warps_per_block), per_warp_(std::move(per_warp)) {}

std::vector<BlockBox> WarpProgramMap::cut(const BlockBox& box, SplitKind kind, int dim, std::int64_t parameter) {
  const IndexRange range = box.dims[static_cast<std::size_t>(dim)];
  std::vector<BlockBox> children;
  const auto with = [&](IndexRange r) {
    BlockBox child = box;
    child.dims[static_cast<std::size_t>(dim)] = r;
    children.push_back(child);
  };
  switch (kind) {
    case SplitKind::prefix:
      with(IndexRange{range.start, range.stride, parameter});
      with(IndexRange{range.start + parameter * range.stride, range.stride, range.count - parameter});
      break;
    case SplitKind::residue:
      for (std::int64_t r = 0; r < parameter && r < range.count; ++r) {
        with(IndexRange{range.start + r * range.stride, range.stride * parameter, (range.count - r + parameter - 1) / parameter});
      }
      break;
    case SplitKind::each:
      for (std::int64_t i = 0; i < range.count; ++i) with(IndexRange{range.start + i * range.stride, range.stride, 1});
      break;
  }
  return children;
}

std::vector<WarpProgramMap::NodeId> WarpProgramMap::split(NodeId node, SplitKind kind, int dim, std::int64_t parameter) {
  std::vector<BlockBox> boxes = cut(nodes_[node].box, kind, dim, parameter);
  std::vector<NodeId> ids;
  for (BlockBox& b : boxes) {
    ids.push_back(static_cast<NodeId>(nodes_.size()));
    Node child;
    child.box = b;
    nodes_.push_back(std::move(child));
  }
  Node& n = nodes_[node];
  n.leaf = false;
  n.kind = kind;
  n.dim = static_cast<std::uint8_t>(dim);
  n.parameter = parameter;
  n.children = ids;
  return ids;
}

std::uint32_t WarpProgramMap::program_of(std::int64_t block, std::int64_t warp) const {
  if (!per_warp_.empty()) return per_warp_[static_cast<std::size_t>(block * warps_per_block_ + warp)];
  const std::int64_t coordinate[3] = {block % grid_[0], (block / grid_[0]) % grid_[1], block / (grid_[0] * grid_[1])};
  const Node* n = &nodes_[roots_[static_cast<std::size_t>(warp)]];
  while (!n->leaf) {
    const IndexRange& r = n->box.dims[n->dim];
    const std::int64_t i = (coordinate[n->dim] - r.start) / r.stride;
    std::int64_t child = 0;
    switch (n->kind) {
      case SplitKind::prefix: child = i < n->parameter ? 0 : 1; break;
      case SplitKind::residue: child = i % n->parameter; break;
      case SplitKind::each: child = i; break;
    }
    n = &nodes_[n->children[static_cast<std::size_t>(child)]];
  }
  return n->program;
}

std::int64_t WarpProgramMap::bytes() const {
  std::size_t total = sizeof(*this) + per_warp_.capacity() * sizeof(std::uint32_t) + roots_.capacity() * sizeof(NodeId) +
                      nodes_.capacity() * sizeof(Node);
  for (const Node& n : nodes_) total += n.children.capacity() * sizeof(NodeId);
  return static_cast<std::int64_t>(total);
}

std::vector<std::uint32_t> WarpProgramMap::expand() const {
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(warps()));
  for (std::int64_t b = 0; b < blocks(); ++b) {
    for (std::int64_t w = 0; w < warps_per_block_; ++w) out.push_back(program_of(b, w));
  }
  return out;
}

std::optional<std::uint32_t> WarpProgramMap::uniform_program() const {
  if (!per_warp_.empty()) {
    const bool same = std::all_of(per_warp_.begin(), per_warp_.end(), [&](std::uint32_t id) { return id == per_warp_.front(); });
    return same ? std::optional<std::uint32_t>(per_warp_.front()) : std::nullopt;
  }
  std::optional<std::uint32_t> only;
  for (const Node& n : nodes_) {
    if (!n.leaf || n.box.blocks() == 0) continue;
    if (only && *only != n.program) return std::nullopt;
    only = n.program;
  }
  return only;
}

std::vector<WarpProgramMap::NodeId> WarpProgramMap::leaves() const {
  std::vector<NodeId> out;
  for (NodeId i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].leaf) out.push_back(i);
  }
  return out;
}

void WarpProgramMap::renumber(const std::vector<std::uint32_t>& new_id) {
  for (std::uint32_t& id : per_warp_) id = new_id[id];
  for (Node& n : nodes_) {
    if (n.leaf) n.program = new_id[n.program];
  }
}

}  // namespace warpsim::ptx

// Which program each warp of a launch runs. The fast lowering finds classes of blocks that
// behave alike as boxes of block indices (per dimension an arithmetic progression), split from
// the whole grid; the map keeps that split tree per warp of a block, so its size grows with the
// number of distinct behaviours, not with the grid. `--emulate-all` keeps one id per warp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace warpsim::ptx {

// Block indices start, start + stride, ... (count of them) along one grid dimension.
struct IndexRange {
  std::int64_t start = 0;
  std::int64_t stride = 1;
  std::int64_t count = 1;
  bool operator==(const IndexRange&) const = default;
};

// A box of blocks: the product of one range per dimension (x, y, z).
struct BlockBox {
  std::array<IndexRange, 3> dims;
  std::int64_t blocks() const { return dims[0].count * dims[1].count * dims[2].count; }
  bool operator==(const BlockBox&) const = default;
};

// How a box is cut in the split tree.
enum class SplitKind : std::uint8_t {
  prefix,   // child 0: the first `parameter` indices along `dim`, child 1: the rest
  residue,  // child r: the indices congruent to r modulo `parameter` along `dim`
  each,     // child i: index i alone along `dim`
};

class WarpProgramMap {
 public:
  using NodeId = std::uint32_t;

  WarpProgramMap() = default;
  // A split tree per warp of a block, each rooted at the whole grid `grid` (x, y, z counts).
  WarpProgramMap(std::array<std::int64_t, 3> grid, std::int64_t warps_per_block);
  // One program id per warp, block-major (the per-warp emulation).
  WarpProgramMap(std::array<std::int64_t, 3> grid, std::int64_t warps_per_block, std::vector<std::uint32_t> per_warp);

  std::int64_t warps_per_block() const { return warps_per_block_; }
  std::int64_t blocks() const { return grid_[0] * grid_[1] * grid_[2]; }
  std::int64_t warps() const { return blocks() * warps_per_block_; }

  // The program of warp `warp` of block `block` (linear, x fastest).
  std::uint32_t program_of(std::int64_t block, std::int64_t warp) const;
  // The memory the map holds, in bytes (for caches that bound what they keep).
  std::int64_t bytes() const;
  // One id per warp, block-major (for tests and small launches).
  std::vector<std::uint32_t> expand() const;
  // The program every warp runs, when they all run the same one.
  std::optional<std::uint32_t> uniform_program() const;

  // Building the trees (the lowering).
  NodeId root(std::int64_t warp) const { return roots_[static_cast<std::size_t>(warp)]; }
  const BlockBox& box(NodeId node) const { return nodes_[node].box; }
  // Cuts `node` (a leaf) and returns its children's ids in child order.
  std::vector<NodeId> split(NodeId node, SplitKind kind, int dim, std::int64_t parameter);
  void set_program(NodeId node, std::uint32_t program) { nodes_[node].program = program; }
  // Leaves in node order, and the program ids renumbered through `new_id`.
  std::vector<NodeId> leaves() const;
  std::uint32_t program(NodeId leaf) const { return nodes_[leaf].program; }
  void renumber(const std::vector<std::uint32_t>& new_id);

  // The children a cut gives, without cutting: the boxes in child order.
  static std::vector<BlockBox> cut(const BlockBox& box, SplitKind kind, int dim, std::int64_t parameter);

 private:
  struct Node {
    BlockBox box;
    bool leaf = true;
    SplitKind kind = SplitKind::prefix;
    std::uint8_t dim = 0;
    std::int64_t parameter = 0;
    std::uint32_t program = 0;
    std::vector<NodeId> children;
  };
  std::array<std::int64_t, 3> grid_{1, 1, 1};
  std::int64_t warps_per_block_ = 1;
  std::vector<Node> nodes_;
  std::vector<NodeId> roots_;
  std::vector<std::uint32_t> per_warp_;  // the per-warp form, when set
};

}  // namespace warpsim::ptx

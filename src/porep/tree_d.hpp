// tree_d: the binary SHA-256 Merkle tree over the (fr32-padded) sector data, whose root is comm_d
// (rust-fil-proofs filecoin-hashers src/sha256.rs hash2 / Algorithm::node,
// filecoin-proofs DefaultPieceHasher = Sha256Hasher, BinaryMerkleTree).
//
// Leaves are the 32-byte data nodes themselves (not hashed). An inner node is
// SHA-256(left ‖ right) with byte 31 &= 0x3f. The leaf count must be a power of two ≥ 1; depth =
// log2(leaves) (6 for 2 KiB). All levels are kept: level 0 = leaves, level depth = the root.
// A path lists the sibling at each level from the leaves up; bit t of the leaf index says
// whether the node at level t is a right child. Immutable after build; thread-safe to read.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "porep/sector_ids.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

Node sha256_tree_node(const Node& left, const Node& right);

class TreeD {
   public:
    // data.size() = leaves · 32 with leaves a power of two.
    static util::Result<TreeD> build(std::span<const uint8_t> data);

    uint64_t leaves() const { return leaves_; }
    uint32_t depth() const { return depth_; }
    const Node& root() const { return levels_.back().front(); }
    const Node& node(uint32_t level, uint64_t index) const { return levels_[level][index]; }

    // Siblings from the leaf level up (depth entries).
    util::Result<std::vector<Node>> path(uint64_t leaf) const;

    static bool verify_path(const Node& leaf_value, uint64_t leaf, std::span<const Node> path,
                            const Node& root);

   private:
    uint64_t leaves_ = 0;
    uint32_t depth_ = 0;
    std::vector<std::vector<Node>> levels_;
};

}  // namespace cuzk::porep

// Poseidon Merkle trees as Filecoin builds them (rust-fil-proofs filecoin-hashers poseidon.rs
// `multi_node` / `node`, merkletree crate): a complete arity-ary tree (arity 2, 4 or 8) whose
// leaves are field elements and whose every inner node is Poseidon_arity(children in order)
// (MerkleTree tag, Standard strength). tree_c and tree_r_last of a sector are arity-8 ("oct")
// trees; their sub/top trees are arity-2/4/8 trees over the base roots.
//
// Layout: levels[0] = the leaves, levels[h] = the nodes at height h, levels.back() = {root}.
// Thread-safe; large levels are hashed on the given thread pool (none: the calling thread).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::poseidon {

using ff::Fr;

// All levels of the tree over `leaves`; an error unless arity ∈ {2, 4, 8} and leaves.size() is
// a power of arity (1 leaf: the tree is the leaf itself).
util::Result<std::vector<std::vector<Fr>>> merkle_tree_levels(std::span<const Fr> leaves,
                                                              size_t arity,
                                                              util::ThreadPool* pool = nullptr);

// The root only.
util::Result<Fr> merkle_root(std::span<const Fr> leaves, size_t arity,
                             util::ThreadPool* pool = nullptr);

// Roots of all-zero subtrees: result[h] = root of the arity^h-leaf tree whose leaves are 0
// (result[0] = 0, result[h] = Poseidon_arity(result[h−1], …, result[h−1])), h = 0..max_height.
util::Result<std::vector<Fr>> zero_subtree_roots(size_t arity, size_t max_height);

}  // namespace cuzk::poseidon

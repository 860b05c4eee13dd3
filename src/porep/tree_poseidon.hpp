// tree_c and tree_r_last: the Poseidon Merkle trees of a sealed sector, and
// their inclusion proofs in the C1 MerkleProof form (c1_types.hpp).
//
// Shape (rust-fil-proofs storage-proofs-core src/merkle/builders.rs,
// filecoin-proofs constants.rs SectorShape*): the nodes are split into
// base_tree_count consecutive chunks; each chunk is a complete arity-8 tree
// (the "base" trees); for a (8,8,0) shape the 8 base roots are hashed by one
// arity-8 "sub" level; for (8,8,2) groups of 8 base roots form 2 sub trees
// whose roots are hashed by one arity-2 "top" level. Seen from the leaves this
// is one mixed-arity tree whose level t has arity arities[t]: the base levels,
// then the sub level, then the top level — so the parent of node i at level t
// is i / arities[t], and the leaf index is the path's per-level positions read
// as mixed-radix digits (base digits least significant). Every inner node is
// Poseidon_arity(children in order) (filecoin-hashers poseidon.rs multi_node,
// MerkleTree tag, Standard strength).
//
// A MerkleProof (storage-proofs-core src/merkle/proof.rs) is Single for
// (8,0,0), Sub for (8,8,0) and Top for (8,8,2); each path element lists the
// arity − 1 siblings in order (the path node left out) and the path node's
// position among its arity siblings.
//
// PoseidonTree keeps every level (small sectors). SparsePoseidonTree keeps only
// the nodes above a given set of leaves; every other leaf is 0 and every
// untouched subtree is the precomputed root of an all-zero subtree of its
// height, so paths of any leaf lead to the same root. Both are immutable after
// build and safe to read from several threads.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ff/fr.hpp"
#include "porep/c1_types.hpp"
#include "porep/registered_proof.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

using ff::Fr;

// Domain (32 bytes, little-endian) ↔ Fr. domain_to_fr rejects values ≥ r.
Domain fr_to_domain(const Fr& v);
util::Result<Fr> domain_to_fr(const Domain& d);

struct PoseidonTreeLayout {
    TreeShape shape{8, 0, 0};
    uint64_t leaves = 0;
    uint32_t base_levels = 0;       // levels of each base tree
    std::vector<uint32_t> arities;  // per level, leaves upwards (base, then sub, then top)

    // leaves = base_tree_count · base^k for the shape's base_tree_count (1, sub,
    // or sub·top).
    static util::Result<PoseidonTreeLayout> create(uint64_t leaves, TreeShape shape);
    static util::Result<PoseidonTreeLayout> for_proof(RegisteredSealProof proof);

    MerkleProofKind kind() const;
    uint32_t levels() const { return static_cast<uint32_t>(arities.size()); }
};

// Poseidon_arity(children); arity ∈ {2, 4, 8} here (tree nodes).
Fr poseidon_node(const Fr* children, uint32_t arity);

class PoseidonTree {
   public:
    // leaves.size() == layout.leaves. Levels with many nodes are hashed on `pool`
    // (if given).
    static util::Result<PoseidonTree> build(const PoseidonTreeLayout& layout,
                                            std::vector<Fr> leaves,
                                            util::ThreadPool* pool = nullptr);

    const PoseidonTreeLayout& layout() const { return layout_; }
    const Fr& root() const { return levels_.back().front(); }
    const Fr& leaf(uint64_t index) const { return levels_[0][index]; }
    util::Result<MerkleProof> proof(uint64_t leaf) const;

   private:
    PoseidonTreeLayout layout_;
    std::vector<std::vector<Fr>> levels_;
};

class SparsePoseidonTree {
   public:
    // `leaves`: the non-zero leaves by index (< layout.leaves); all others are 0.
    static util::Result<SparsePoseidonTree> build(const PoseidonTreeLayout& layout,
                                                  const std::map<uint64_t, Fr>& leaves);

    const PoseidonTreeLayout& layout() const { return layout_; }
    const Fr& root() const { return root_; }
    Fr node(uint32_t level, uint64_t index) const;
    util::Result<MerkleProof> proof(uint64_t leaf) const;

   private:
    PoseidonTreeLayout layout_;
    std::vector<Fr> defaults_;  // defaults_[h] = root of an all-zero subtree at level h
    std::vector<std::unordered_map<uint64_t, Fr>> levels_;
    Fr root_;
};

// Checks a Poseidon MerkleProof against the layout: kind, level count, arity −
// 1 hashes and an index < arity at every level, canonical field elements, and
// that hashing the leaf up the path gives proof.root. Returns the leaf index
// the path proves. Errors name the first problem
// ("path does not lead to its root", "base_proof level 3: index 9 >= arity 8").
util::Result<uint64_t> verify_poseidon_proof(const MerkleProof& proof,
                                             const PoseidonTreeLayout& layout);

// The same for a tree_d proof (binary SHA-256, Single, one hash per level,
// `depth` levels).
util::Result<uint64_t> verify_sha256_proof(const MerkleProof& proof, uint32_t depth);

}  // namespace cuzk::porep

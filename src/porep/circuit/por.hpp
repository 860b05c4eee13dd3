// Merkle inclusion (proof of retrievability) in R1CS, as storage-proofs-core `gadgets/por.rs`
// PoRCircuit synthesizes it in the stacked circuit: leaf and root are already allocated
// (Root::Var) and the root is private (not re-exposed), so the only public input is the packed
// path index.
//
// Order, per path (por.rs PoRCircuit::synthesize; namespaces in quotes):
//   "base", then "sub", then "top" (SubPath::synthesize; an absent sub/top tree adds nothing),
//   each level in "merkle tree hash i":
//     log2(arity) AllocatedBits "index bit j" (bit j of the position among the arity children),
//     arity − 1 AllocatedNums "path element j" (the siblings in order),
//     insert (insertion.rs: insert_2 / insert_4 / insert_8), then the node hash
//     "computation of commitment hash" of the arity children:
//       SHA-256 trees (filecoin-hashers sha256.rs hash_multi_leaf_circuit): per child
//         to_bits_le ("i_num_into_bits"), padded to 256 with constant false, bits reversed in
//         each byte; sha256 of the concatenation ("hash"); output bits reversed per byte, the
//         first 254 packed ("pack_le", multipack pack_bits);
//       Poseidon trees: neptune legacy poseidon_hash of the arity children.
//   "path": pack_into_inputs of all index bits (base, sub, top; LE) — one public input equal to
//   the leaf index;
//   "enforce root is correct": A = computed root, B = ONE, C = root (constraint.rs equal).
// Costs: binary SHA-256 level 45,382 constraints (1 + 2 + 2·256 + 44,866 + 1); Poseidon level
// log2(a) + (a − 1 picks of insert) + Poseidon_a; +2 per path (packing, root equality).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gadgets/num.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

using ff::Fr;

enum class TreeHasher : uint8_t { kSha256, kPoseidon };

// A Merkle tree's hash and arities: base ∈ {2, 4, 8}; sub, top ∈ {0, 2, 4, 8} (0 = absent;
// top > 0 requires sub > 0). comm_d: {kSha256, 2, 0, 0}; tree_c / tree_r_last: {kPoseidon,
// 8, 0|8, 0|2}.
struct PorTree {
    TreeHasher hasher = TreeHasher::kPoseidon;
    uint32_t base = 8;
    uint32_t sub = 0;
    uint32_t top = 0;
};

// One level of a path: the arity − 1 siblings and the position (0..arity−1) of the path's node
// among its siblings; nullopt = unknown (shape-only synthesis).
struct PathLevel {
    std::vector<std::optional<Fr>> siblings;
    std::optional<uint64_t> index;
};

// A full path, leaf to root: base levels, then ≤ 1 sub level and ≤ 1 top level.
struct AuthPath {
    std::vector<PathLevel> base;
    std::vector<PathLevel> sub;
    std::vector<PathLevel> top;
};

// Base levels of a tree with `leaves` leaves (merkle/proof.rs base_path_length:
// log_base(leaves / sub / top)). Errors: leaves not a power of the arities.
util::Result<uint32_t> base_path_length(const PorTree& tree, uint64_t leaves);

// The blank path (all values unknown) of a tree with `leaves` leaves (por.rs AuthPath::blank).
util::Result<AuthPath> blank_auth_path(const PorTree& tree, uint64_t leaves);

// Checks the arities and that the path's level counts and sibling counts fit `tree`.
util::Status check_auth_path(const PorTree& tree, const AuthPath& path);

// Synthesizes the inclusion of `leaf` under `root` along `path`, inside namespace `name`
// (params.rs enforce_inclusion → PoRCircuit::synthesize, private = true).
util::Status enforce_inclusion(r1cs::ConstraintSystem& cs, const r1cs::Name& name,
                               const PorTree& tree, const AuthPath& path,
                               const gadgets::AllocatedNum& root,
                               const gadgets::AllocatedNum& leaf);

// The SHA-256 node hash gadget alone (hash_multi_leaf_circuit over allocated children), in
// namespace `name`. Exposed for tests.
util::Result<gadgets::AllocatedNum> sha256_node_circuit(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::AllocatedNum> leaves);

// A = a, B = ONE, C = b (storage-proofs-core constraint.rs equal).
void enforce_equal(r1cs::ConstraintSystem& cs, const r1cs::Name& name,
                   const gadgets::AllocatedNum& a, const gadgets::AllocatedNum& b);

}  // namespace cuzk::porep

// The legacy neptune Poseidon circuit (neptune 11 `src/circuit.rs` `poseidon_hash`, "retained
// for backwards compatibility with extant trusted setups") — the one Filecoin PoRep synthesizes
// (filecoin-hashers poseidon.rs hash2_circuit / hash_multi_leaf_circuit / hash_md_circuit),
// ported so that its R1CS is row-by-row identical: same allocation order, same constraint
// order, same operand sides and coefficients.
//
// It runs the optimised permutation (compressed constants, pre-sparse and sparse matrices) on
// "elements" that are either allocated variables or linear combinations (neptune `Elt`), and
// allocates only at S-boxes:
//   tag (element 0) in the first round: a constant, (tag + k)^5 + k' — no constraint;
//   other first-round S-boxes (inputs are allocated):
//       square_sum:  (x + k)·(x + k) = l2            [A = x + k·ONE, B = same, C = l2]
//       square:      l2·l2 = l4
//       mul_sum:     (x + k)·l4 = l5 − k'            [A = x + k·ONE, B = l4, C = l5 − k'·ONE]
//   every later S-box (input is a linear combination):
//       ensure_allocated: lc·ONE = x                 [A = lc, B = ONE, C = x]
//       square, square, mul_sum: x·l4 = l5 − k'      [A = x, B = l4, C = l5 (− k'·ONE)]
//   result: ensure_allocated(state[1]).
// One aux variable per constraint: 3a + 4(t·R_F + R_P − 1 − a) + 1 constraints for arity a
// (311 / 377 / 505 / 598 for arity 2 / 4 / 8 / 11, Standard), plus nothing else.
//
// Linear combinations keep bellpepper's semantics (terms merged by variable, zero coefficients
// kept), so coefficients are the exact products neptune forms. Works in every backend; in
// shape-only modes no value is read. Backends without names (proving, witness, shape, counter)
// get the same rows by replaying a per-arity template (circuit_template.hpp) when the
// preimage variables are distinct; TestConstraintSystem gets the direct, named synthesis.
#pragma once

#include <optional>
#include <span>

#include "gadgets/num.hpp"
#include "poseidon/constants.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

// neptune `circuit::poseidon_hash` with MerkleTree constants for arity = preimage.size(),
// synthesized inside namespace `name` (what the Rust caller's cs.namespace(...) does).
util::Result<gadgets::AllocatedNum> poseidon_hash_circuit(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::AllocatedNum> preimage, Strength strength = Strength::kStandard);

// The same with explicit constants; an error when preimage.size() != c.arity.
util::Result<gadgets::AllocatedNum> poseidon_hash_circuit(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::AllocatedNum> preimage, const PoseidonConstants& c);

// neptune circuit.rs `square_sum`: res = (num + to_add)², one constraint (in namespace name).
util::Result<gadgets::AllocatedNum> square_sum(r1cs::ConstraintSystem& cs, const r1cs::Name& name,
                                               const Fr& to_add, const gadgets::AllocatedNum& num);

// neptune circuit.rs `mul_sum`: res = a·(b + pre_add) + post_add, one constraint
// A = b (+ pre·ONE), B = a, C = res (− post·ONE) (in namespace name).
util::Result<gadgets::AllocatedNum> mul_sum(r1cs::ConstraintSystem& cs, const r1cs::Name& name,
                                            const gadgets::AllocatedNum& a,
                                            const gadgets::AllocatedNum& b,
                                            const std::optional<Fr>& pre_add,
                                            const std::optional<Fr>& post_add);

}  // namespace cuzk::poseidon

// Out-of-circuit Poseidon hash (neptune 11, HashType::MerkleTree): state = [tag, x_1..x_arity],
// the permutation, output = state[1]. Arity = number of inputs.
//
// Two permutations, equal on every input:
//  - reference (neptune `poseidon_alt.rs` `hash_correct`): per round add t round constants,
//    S-box x^5 on all (full) or on state[0] (partial) elements, state ← state·M;
//    R_F/2 full, R_P partial, R_F/2 full rounds.
//  - optimised (neptune `Poseidon::hash_optimized_static`, the default mode): add the first t
//    compressed constants; full rounds: S-box then add t compressed constants (none in the very
//    last round); partial rounds: S-box on state[0] then add one constant; the linear layer
//    after round r is the pre-sparse matrix P for r = R_F/2 − 1, the sparse matrix
//    sparse[r − R_F/2] for the partial rounds, and M otherwise. Dense layers multiply the state
//    as a row vector (state·A); a sparse layer is s'_0 = Σ ŵ_i·s_i, s'_j = s_j + v_{j−1}·s_0.
//
// Thread-safe (constants are immutable once built). Field elements in and out are ff::Fr.
#pragma once

#include <span>

#include "ff/fr.hpp"
#include "poseidon/constants.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

// Poseidon with arity = preimage.size() (1..36), MerkleTree tag, optimised permutation.
util::Result<Fr> hash(std::span<const Fr> preimage, Strength strength = Strength::kStandard);

// The same with given constants; an error when preimage.size() != c.arity.
util::Result<Fr> hash_optimized(const PoseidonConstants& c, std::span<const Fr> preimage);
util::Result<Fr> hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage);

// Hot-loop form: preimage points at exactly c.arity elements (not checked).
Fr hash_unchecked(const PoseidonConstants& c, const Fr* preimage);

// Poseidon2 (arity 2, Standard) — filecoin-hashers `hash2`, comm_r = H(comm_c, comm_r_last).
Fr hash2(const Fr& a, const Fr& b);

}  // namespace cuzk::poseidon

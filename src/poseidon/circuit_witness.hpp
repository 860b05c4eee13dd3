// Native witness for the legacy Poseidon circuit (circuit.hpp): the aux values
// poseidon_hash_circuit allocates, in allocation order, computed by running the optimised
// permutation and recording its S-box intermediates — no linear combinations, no constraint
// system. For a witness generator that fills the compiled circuit's aux vector directly.
//
// Order (each S-box input x is the permutation state before that S-box):
//   first round, elements 1..arity:  (x + k)², (x + k)⁴, (x + k)⁵ + k'
//   every later S-box:                x, x², x⁴, x⁵ (+ k' unless terminal round)
//     (full rounds: elements 0..t−1; partial rounds: element 0)
//   result:                           state[1] after the last linear layer = the hash
// Count: legacy_circuit_aux_count(c) = 3·arity + 4·(t·R_F + R_P − 1 − arity) + 1.
#pragma once

#include <cstddef>
#include <span>

#include "poseidon/constants.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

size_t legacy_circuit_aux_count(const PoseidonConstants& c);

// Writes legacy_circuit_aux_count(c) values to aux and returns the hash; an error if the sizes
// do not match (preimage.size() != c.arity or aux.size() != legacy_circuit_aux_count(c)).
util::Result<Fr> legacy_circuit_witness(const PoseidonConstants& c, std::span<const Fr> preimage,
                                        std::span<Fr> aux);

}  // namespace cuzk::poseidon

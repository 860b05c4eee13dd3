// PoseidonConstants: everything the permutation and the legacy circuit read, for one arity and
// strength, built exactly as neptune 11 `PoseidonConstants::new_with_strength` with
// HashType::MerkleTree (the Filecoin instantiation, rust-fil-proofs filecoin-hashers).
//
//   width t = arity + 1; state = [domain tag, x_1..x_arity]; tag = 2^arity − 1 (hash_type.rs)
//   (R_F, R_P) = round_numbers(arity, strength)                (round_numbers.hpp)
//   round_constants: (R_F + R_P)·t Grain values, n = 255        (grain.hpp)
//   mds: the Cauchy matrix and its derived matrices             (mds.hpp)
//   compressed_round_constants: R_F·t + R_P values              (preprocessing.hpp)
//   pre_sparse_matrix, sparse_matrixes[R_P]                     (mds.hpp factorisation)
//
// Constants are computed at first use, once per (arity, strength), thread-safe (std::call_once),
// and live for the whole process; the returned reference stays valid. Arities 1..36 (neptune's
// typenum range); Filecoin uses 2, 4, 8, 11, 16, 24, 36.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"
#include "poseidon/mds.hpp"
#include "poseidon/round_numbers.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

inline constexpr size_t kMinArity = 1;
inline constexpr size_t kMaxArity = 36;

struct PoseidonConstants {
    size_t arity = 0;
    size_t width = 0;  // arity + 1
    Strength strength = Strength::kStandard;
    size_t full_rounds = 0;
    size_t half_full_rounds = 0;
    size_t partial_rounds = 0;
    Fr domain_tag;
    std::vector<Fr> round_constants;  // (R_F + R_P)·width, round-major
    MdsMatrices mds;
    std::vector<Fr> compressed_round_constants;  // R_F·width + R_P
    Matrix pre_sparse_matrix;
    std::vector<SparseMatrix> sparse_matrixes;  // R_P, in application order
};

// HashType::MerkleTree domain tag 2^arity − 1 (neptune `Arity::tag`).
Fr merkle_tree_domain_tag(size_t arity);

// Builds the constants (uncached; the cached accessor below calls this once).
util::Result<PoseidonConstants> build_constants(size_t arity, Strength strength);

// The process-wide constants for (arity, strength), built on first use. An error for an arity
// outside [kMinArity, kMaxArity].
util::Result<const PoseidonConstants*> constants(size_t arity,
                                                 Strength strength = Strength::kStandard);

}  // namespace cuzk::poseidon

// Groth16 keys and proofs over BLS12-381, in bellperson's shape (filecoin-project/bellperson
// src/groth16/{params.rs,verifying_key.rs,proof.rs}; spec/porep-c2-circuit.md §4.3–4.5).
//
// Representation: every point is an affine ec::G1Affine / ec::G2Affine — Fp limbs little-endian,
// Montgomery form — the storage layout shared by host and device (DESIGN.md §3), so a section
// such as `h` can be copied to the GPU as one contiguous buffer without conversion. The identity
// is (0, 0) (see ec/point.hpp).
//
// Indexing conventions (what the prover relies on), with num_inputs counting ONE:
//   ic   : num_inputs points, ic[0] for ONE; the verifier computes Σ x_i·ic_i with x_0 = 1.
//   h    : m − 1 points, m = the evaluation domain size (a power of two ≥ #constraints +
//          #inputs); H scalars are the first m − 1 coefficients of (a·b − c)/Z.
//   l    : num_aux points, one per aux variable (the generator rejects unconstrained aux, so none
//          is the identity).
//   a    : inputs first (all of them), then the aux variables whose A density bit is set, in
//          order — bellperson filters identity points out, so the count is inputs + dense aux.
//   b_g1 : the inputs with a B density bit, then the aux with a B density bit; b_g2 has exactly
//          the same index set (same count).
// Invariants of keys produced by a (bellperson-compatible) generator and enforced by the reader
// (params_io.hpp): no identity point in ic, h, l, a, b_g1, b_g2; δ₁ and δ₂ are not the identity
// (the prover rejects identity δ, spec §4.4); all points lie in the order-r subgroups.
// α₁, β₁, β₂, γ₂ are read as they are (bellperson does not reject identity there).
#pragma once

#include <cstddef>
#include <vector>

#include "ec/curves.hpp"

namespace cuzk::groth16 {

using ec::G1Affine;
using ec::G2Affine;

// The verifying key (bellperson `VerifyingKey<Bls12>`; `.vk` files). β₁ and δ₁
// are not used by the verifier but by the prover (C contains r·β₁ and r·s·δ₁),
// so they live here as in bellperson.
struct VerifyingKey {
    G1Affine alpha_g1;
    G1Affine beta_g1;
    G2Affine beta_g2;
    G2Affine gamma_g2;
    G1Affine delta_g1;
    G2Affine delta_g2;
    std::vector<G1Affine> ic;

    size_t num_inputs() const { return ic.size(); }  // ONE included
    bool operator==(const VerifyingKey&) const = default;
};

// The proving key (bellperson `Parameters<Bls12>`; `.params` files): the
// verifying key and the five query vectors, see the indexing conventions above.
struct Parameters {
    VerifyingKey vk;
    std::vector<G1Affine> h;
    std::vector<G1Affine> l;
    std::vector<G1Affine> a;
    std::vector<G1Affine> b_g1;
    std::vector<G2Affine> b_g2;

    size_t domain_size() const { return h.size() + 1; }  // m
    size_t num_aux() const { return l.size(); }
    bool operator==(const Parameters&) const = default;
};

// A Groth16 proof (bellperson `Proof<Bls12>`): A ∈ G1, B ∈ G2, C ∈ G1.
// Serialized as 192 bytes (proof_io.hpp). A proof returned by the prover never
// has an identity component.
struct Proof {
    G1Affine a;
    G2Affine b;
    G1Affine c;

    bool operator==(const Proof&) const = default;
};

}  // namespace cuzk::groth16

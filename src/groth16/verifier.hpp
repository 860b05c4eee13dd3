// Groth16 verification over BLS12-381 (bellperson src/groth16/verifier.rs; spec §4.5).
//
// A proof (A, B, C) for public inputs x_1..x_n (ONE = x_0 = 1 is implicit, NOT passed) is valid
// iff
//     e(A, B) · e(−Σ_{i=0..n} x_i·ic_i, γ) · e(−C, δ) = e(α, β),
// checked with one multi-Miller loop over three pairs and one final exponentiation (γ and δ
// are prepared negated, so the G1 sides need no negation: e(P, −Q) = e(−P, Q)).
//
// Batch verification of proofs (A_j, B_j, C_j) with inputs x_j under one key draws random
// non-zero 128-bit r_j and checks
//     Π_j e(r_j·A_j, B_j) · e(Σ_j r_j·IC_j, −γ) · e(Σ_j r_j·C_j, −δ) = e(α, β)^(Σ_j r_j),
// IC_j = Σ_i x_ji·ic_i: one multi-Miller loop over n + 2 pairs, one final exponentiation and one
// exponentiation in GT. If every proof is valid it accepts; if any is invalid it rejects except
// with probability ≈ 2^−128 over the r_j (which must be unpredictable to the prover of the
// proofs: by default they come from the OS CSPRNG; a TestRng may be passed for tests).
//
// GT convention: pairing::final_exponentiation returns the cube of the textbook reduced pairing;
// e(α, β) is computed with the same function, so the comparisons are unaffected.
//
// Points are taken as they are: callers pass proofs and keys decoded by proof_io / params_io,
// which check that every point is on its curve and in the order-r subgroup. An identity
// component is not rejected here (it pairs to 1; such a proof simply fails the equation unless
// it is genuinely valid).
//
// Errors (util::Status): the number of public inputs is not ic.size() − 1; in batch_verify,
// proofs and inputs of different lengths. A proof that does not verify is NOT an error:
// the result is false.
#pragma once

#include <span>
#include <vector>

#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "pairing/pairing.hpp"
#include "util/rng.hpp"
#include "util/status.hpp"

namespace cuzk::groth16 {

struct PreparedVerifyingKey {
    ff::Fp12 alpha_g1_beta_g2;           // e(α, β) in GT (same convention as pairing::pairing)
    pairing::G2Prepared neg_gamma_g2;    // −γ
    pairing::G2Prepared neg_delta_g2;    // −δ
    std::vector<G1Affine> ic;            // ic[0] for ONE

    size_t num_public_inputs() const { return ic.empty() ? 0 : ic.size() - 1; }  // ONE excluded
};

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

// public_inputs: x_1..x_n, ONE excluded; error unless n == ic.size() − 1.
util::Result<bool> verify(const PreparedVerifyingKey& pvk, const Proof& proof,
                          std::span<const ff::Fr> public_inputs);

// inputs[j] are proof j's public inputs (ONE excluded). Empty batch → true. rng: the source of
// the r_j; nullptr = the OS CSPRNG (use that whenever the proofs come from elsewhere).
util::Result<bool> batch_verify(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                                std::span<const std::vector<ff::Fr>> inputs,
                                util::TestRng* rng = nullptr);

}  // namespace cuzk::groth16

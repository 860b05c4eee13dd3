// The Groth16 prover on the CPU: bellperson 0.27's algorithm (src/groth16/prover/native.rs;
// spec/porep-c2-circuit.md §4.1–4.4), the reference for the GPU prover.
//
// Per circuit:
//   1. Synthesis into an r1cs::ProvingAssignment pre-sized from the parameters (rows ≈ m,
//      aux = l.size(), inputs = ic.size()), then finish() (the x_i·0 = 0 input rows).
//   2. Shape checks against the parameters, each a clear kInvalidArgument error prefixed by
//      "circuit K: " (e.g. "circuit 0: circuit has 41 inputs but the verifying key has 40"):
//      inputs vs ic, aux vs l, inputs + popcount(a_aux) vs a, popcount(b_input) +
//      popcount(b_aux) vs b_g1 and b_g2, domain size m vs h.size() + 1.
//   3. Optionally (ProverOptions::check_satisfied, on by default) a·b = c on every row; the first
//      failing row is named. bellperson does NOT check: an unsatisfied witness silently gives a
//      proof that fails verification. The daemon must never return a bad proof, hence the check
//      (O(n) field products, small next to the NTTs).
//   4. H: a, b, c zero-padded to m; iNTT each (×1/m); coset NTT each (coefficient i ×= g^i,
//      g = 7); a·b − c pointwise; ×(g^m − 1)⁻¹; inverse coset NTT; the first m − 1 coefficients
//      are the H scalars.
//   5. MSMs (msm::msm): h with the H scalars; l with the aux assignment; a with all the inputs
//      followed by the aux whose A density bit is set; b_g1 and b_g2 with the inputs whose
//      b_input bit is set followed by the aux whose b_aux bit is set. For l, a, b_g1, b_g2 the
//      bases of scalars equal to one are summed by msm::batch_add (ProverOptions).
//   6. Assembly with r, s (δ₁, δ₂ must not be the identity):
//        A  = α₁ + ΣA + r·δ₁,   B = β₂ + ΣB₂ + s·δ₂,   B₁ = β₁ + ΣB₁ + s·δ₁,
//        C  = s·A + r·B₁ − r·s·δ₁ + ΣH + ΣL
//      (= sΣA + rΣB₁ + r·s·δ₁ + s·α₁ + r·β₁ + ΣH + ΣL, the form of spec §4.4).
//
// Several circuits (one parameter set, each circuit with its own randomness): steps 1–4 run per
// circuit, then step 5 passes over each parameter section once for all of them
// (msm::msm_many: every base read once, added into the buckets of each circuit), so the
// parameter bytes — the dominant memory traffic — are streamed once per call rather than once
// per circuit (ProverOptions::share_parameter_passes). All circuits' scalar vectors are held at
// once (≈ (m + 2·aux + a + b)·32 bytes each). The result is the proofs in circuit order; the
// first error aborts the call.
//
// Verification equation (verifier.rs): e(A, B) = e(α₁, β₂)·e(Σ x_i·ic_i, γ₂)·e(C, δ₂), x_0 = 1.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/circuit.hpp"
#include "groth16/keys.hpp"
#include "r1cs/proving_assignment.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

// The per-proof blinding scalars.
struct ProverRandomness {
    ff::Fr r, s;
    // From the OS CSPRNG (util::os_random_bytes): 255-bit draws rejected until below the modulus
    // (uniform), zero rejected too. This is what production proofs use.
    static ProverRandomness from_os();
    // Deterministic from a seed (util::TestRng): INSECURE, for tests and reproducible runs only.
    static ProverRandomness from_seed(uint64_t seed);
};

// Wall-clock milliseconds per phase, summed over the circuits of one call; total is the whole
// call. `assembly` covers the shape checks, the satisfaction check, the scalar gathering for the
// density-filtered MSMs and the final group arithmetic; msm_l/a/b1/b2 include the unit-scalar
// split (ProverOptions::split_unit_scalars).
struct ProverTimings {
    double synthesis = 0, ntt = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b1 = 0, msm_b2 = 0,
           assembly = 0, total = 0;

    // Phase-wise sum (timings of several circuits or calls add up).
    ProverTimings& operator+=(const ProverTimings& o) {
        synthesis += o.synthesis;
        ntt += o.ntt;
        msm_h += o.msm_h;
        msm_l += o.msm_l;
        msm_a += o.msm_a;
        msm_b1 += o.msm_b1;
        msm_b2 += o.msm_b2;
        assembly += o.assembly;
        total += o.total;
        return *this;
    }
};

struct ProverOptions {
    // Check a·b = c on every row before proving; error "circuit K: constraint row R is not
    // satisfied (a*b != c)" on the first failing row R (rows counted from 0 in enforce order,
    // the input rows last).
    bool check_satisfied = true;
    // Sum the bases of unit scalars (bits) by batch addition instead of through Pippenger's
    // buckets (L, A, B_G1, B_G2). The result is the same; off only for comparison.
    bool split_unit_scalars = true;
    // Several circuits in one call: one pass over each parameter section for all of them
    // (msm::msm_many) instead of one MSM per circuit. Same proofs; off only for comparison.
    bool share_parameter_passes = true;
};

util::Result<std::vector<Proof>> prove(const Parameters& params, std::span<const Circuit> circuits,
                                       std::span<const ProverRandomness> randomness,
                                       const ProverOptions& options,
                                       ProverTimings* timings = nullptr,
                                       util::ThreadPool* pool = nullptr);

// Default options (check_satisfied on).
util::Result<std::vector<Proof>> prove(const Parameters& params, std::span<const Circuit> circuits,
                                       std::span<const ProverRandomness> randomness,
                                       ProverTimings* timings = nullptr,
                                       util::ThreadPool* pool = nullptr);

// Steps 2–6 for one already synthesized and finished assignment (consumed: a, b, c are moved
// out). For callers that produce the assignment themselves. `index` only labels errors.
util::Result<Proof> prove_assignment(const Parameters& params, r1cs::ProvingAssignment& assignment,
                                     const ProverRandomness& randomness,
                                     const ProverOptions& options = {},
                                     ProverTimings* timings = nullptr,
                                     util::ThreadPool* pool = nullptr, size_t index = 0);

// Step 4 alone: the m − 1 H scalars from a, b, c (each of length ≤ m, zero-padded here; the
// vectors are consumed). m is the domain size for the longest of them.
util::Result<std::vector<ff::Fr>> compute_h_scalars(std::vector<ff::Fr> a, std::vector<ff::Fr> b,
                                                    std::vector<ff::Fr> c,
                                                    util::ThreadPool* pool = nullptr);

}  // namespace cuzk::groth16

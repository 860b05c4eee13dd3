// The CPU-independent steps of the Groth16 prover (see prover.hpp for the algorithm), shared by
// the CPU prover (prover.cpp) and the GPU prover (gpu/prover.cpp), which differ only in where
// the H polynomial and the MSMs are computed:
//   synthesize_into       — a circuit into a presized ProvingAssignment, input rows appended;
//   check_assignment      — its counts against the parameters' sections, and optionally a·b = c
//                           on every row (the first failing row named);
//   gather_msm_scalars    — the L, A, B scalar vectors aligned with the parameter sections;
//   assemble_proof        — A, B, C from the five MSM results and r, s.
// Errors are kInvalidArgument prefixed "circuit K: " (K = the index given).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "groth16/circuit.hpp"
#include "groth16/keys.hpp"
#include "r1cs/proving_assignment.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

struct ProverRandomness;

// The section sizes of a parameter set (host Parameters or resident ones).
struct ParamsShape {
    size_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
    size_t domain_size() const { return h + 1; }
    static ParamsShape of(const Parameters& p) {
        return {p.vk.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
    }
};

// "circuit K: "
std::string circuit_prefix(size_t index);

// ProvingAssignment options presized for circuits of these parameters (rows, inputs, aux).
r1cs::ProvingAssignment::Options presized_assignment_options(const ParamsShape& shape);
// Synthesizes `circuit` into `pa` and finishes it (input rows appended); errors prefixed.
util::Status synthesize_into(const Circuit& circuit, r1cs::ProvingAssignment& pa, size_t index);

util::Status check_assignment(const ParamsShape& shape, const r1cs::ProvingAssignment& pa,
                              bool check_satisfied, util::ThreadPool& pool, size_t index);

struct MsmScalars {
    std::vector<ff::Fr> l, a, b;  // aux; inputs then A-dense aux; B-dense inputs then aux
};
MsmScalars gather_msm_scalars(const r1cs::ProvingAssignment& pa, const ParamsShape& shape);
// The same, moving the aux assignment into l instead of copying it (pa's aux is left empty;
// saves aux·32 bytes — 4 GiB per 32 GiB partition).
MsmScalars take_msm_scalars(r1cs::ProvingAssignment& pa, const ParamsShape& shape);

struct MsmSums {
    ec::G1Jacobian h, l, a, b1;
    ec::G2Jacobian b2;
};
util::Result<Proof> assemble_proof(const VerifyingKey& vk, const MsmSums& sums,
                                   const ProverRandomness& randomness, size_t index);

// δ₁ and δ₂ must not be the identity.
util::Status check_delta(const VerifyingKey& vk);

}  // namespace cuzk::groth16

// Groth16 parameter generation from known toxic waste — a TEST CEREMONY, INSECURE by design:
// whoever knows the seed can forge proofs. It exists to make parameters for our own circuits
// (tests, benchmarks, the 2 KiB demo); production Filecoin parameters come from the public
// ceremony's files.
//
// Conventions follow bellperson's generator (src/groth16/generator.rs) so that the output has
// the layout of Filecoin's parameter files and our prover's density bookkeeping applies:
//   domain: ntt::EvaluationDomain of size m ≥ #constraints + #inputs (input rows included);
//   L_i(τ): the Lagrange basis of that domain at τ (powers of τ through the inverse NTT);
//   u_j(τ) = Σ_i A_ij L_i(τ), v_j(τ) = Σ_i B_ij L_i(τ), w_j(τ) = Σ_i C_ij L_i(τ);
//   ic_j = (β u_j + α v_j + w_j)/γ · G1 (inputs), l_j = (β u_j + α v_j + w_j)/δ · G1 (aux),
//   h_i = τ^i · Z(τ)/δ · G1 for i < m − 1 with Z(τ) = τ^m − 1,
//   a = u_j·G1 for inputs and for aux with a non-zero u_j; b_g1/b_g2 = v_j·G1/G2 for the
//   inputs and aux with a non-zero v_j (identity points are left out, as bellperson does;
//   "non-zero" is decided by the density bits, see below).
//
// Which a/b entries are present is decided by the r1cs DENSITY bits (a variable is dense iff it
// occurs in that matrix with a non-zero coefficient), not by testing u_j(τ) ≠ 0: the two agree
// except when τ happens to be a root of a non-zero u_j (probability ≈ m/r), and the density
// bits are what the prover uses to pick its scalars, so they must define the layout. Every
// input is in `a` (the input rows put x_i in A). A scalar that is zero for a point that must be
// present (u_j, v_j of a dense variable, an ic/l scalar, Z(τ)) is reported as an error rather
// than written as an identity point; with random toxic waste this does not happen.
//
// Errors (util::Status): synthesis errors (as returned by the circuit); a domain too large
// (more than 2^31 rows); an unconstrained aux variable (no non-zero entry in A, B or C — its l
// point would be the identity; bellperson's generator rejects it too), named by its aux index;
// zero toxic waste or a degenerate τ (τ^m = 1 or a zero scalar as above).
//
// Two steps: compute_parameter_scalars (record, evaluate the QAP at τ, form every point's scalar
// — the part shared with the GPU setup, gpu/resident_setup.hpp) and the fixed-base scalar
// multiplications of the generators (ec/fixed_base.hpp), in parallel over `pool` (nullptr =
// util::ThreadPool::global()). Phase milliseconds go to `times` when given: setup_record,
// setup_evaluate, setup_scalars, setup_g1, setup_g2.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/circuit.hpp"
#include "groth16/coset_bases.hpp"
#include "groth16/keys.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/thread_pool.hpp"
#include "util/trace.hpp"

namespace cuzk::groth16 {

// The secrets of a test ceremony; all non-zero.
struct ToxicWaste {
    ff::Fr tau, alpha, beta, gamma, delta;
    // Deterministic from a seed (util::TestRng): INSECURE, for tests and demos only.
    static ToxicWaste from_seed(uint64_t seed);
};

// The scalar of every point of the parameter set, section by section in file order, and the
// verifying key's α₁, β₁, δ₁, β₂, γ₂, δ₂ (vk.ic left empty: its points are ic·G1).
//   ic[j] = (β u_j + α v_j + w_j)/γ (inputs), l[j] = (…)/δ (aux), h[i] = τ^i Z(τ)/δ (i < m − 1),
//   a = u_j of the inputs and the A-dense aux, b = v_j of the B-dense inputs and aux (the
//   scalars of both b_g1 and b_g2).
// With HBasis::kCosetLagrange (coset_bases.hpp): h holds the m scalars q_k of the coset's
// Lagrange bases, l[j] the aux scalar minus s_j (C folded in), and c_input the ni inputs' s_i;
// with kMonomial c_input is empty.
struct ParameterScalars {
    size_t num_inputs = 0, num_aux = 0, domain_size = 0;
    std::vector<ff::Fr> ic, l, h, a, b;
    HBasis h_basis = HBasis::kMonomial;
    std::vector<ff::Fr> c_input;
    VerifyingKey vk;
};
util::Result<ParameterScalars> compute_parameter_scalars(const Circuit& circuit,
                                                       const ToxicWaste& toxic,
                                                       util::ThreadPool* pool = nullptr,
                                                       util::PhaseTimes* times = nullptr,
                                                       HBasis basis = HBasis::kMonomial);
// The same from a shape already recorded and finished (e.g. a CompiledCircuit's): no
// "setup_record" step — the circuit is recorded once for setup and compiled synthesis alike.
// `basis` (both overloads) picks the H bases (coset_bases.hpp); generate_parameters makes
// kMonomial sets only (the file format's).
util::Result<ParameterScalars> compute_parameter_scalars(const r1cs::ShapeRecorder& shape,
                                                       const ToxicWaste& toxic,
                                                       util::ThreadPool* pool = nullptr,
                                                       util::PhaseTimes* times = nullptr,
                                                       HBasis basis = HBasis::kMonomial);

// A kMonomial set's scalars made the kCosetLagrange set's — equal to compute_parameter_scalars
// with kCosetLagrange for the same shape and toxic waste — without evaluating the QAP again
// (an A/B of the two bases from one setup). Errors: not a monomial set of this shape, or
// degenerate toxic waste (as compute_parameter_scalars).
util::Status convert_to_coset_lagrange(const r1cs::ShapeRecorder& shape, const ToxicWaste& toxic,
                                       ParameterScalars& scalars,
                                       util::ThreadPool* pool = nullptr);

util::Result<Parameters> generate_parameters(const Circuit& circuit, const ToxicWaste& toxic,
                                             util::ThreadPool* pool = nullptr,
                                             util::PhaseTimes* times = nullptr);

namespace detail {

// The QAP of a circuit evaluated at τ — the scalars behind the generated points; exported for
// tests. u/v/w have one entry per variable in z order (inputs, ONE first, then aux).
struct QapEvaluation {
    size_t num_inputs = 0;   // ONE included
    size_t num_aux = 0;
    size_t num_rows = 0;     // constraints + input rows
    size_t domain_size = 0;  // m
    ff::Fr z_tau;            // Z(τ) = τ^m − 1
    std::vector<ff::Fr> u, v, w;
};
util::Result<QapEvaluation> evaluate_qap(const Circuit& circuit, const ff::Fr& tau,
                                         util::ThreadPool* pool = nullptr);

}  // namespace detail

}  // namespace cuzk::groth16

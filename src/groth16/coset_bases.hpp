// H in the coset's Lagrange basis, C folded into L: proving-key bases derived from a parameter
// set so that a prover needs four of the H step's six transforms. Same proofs, byte for byte.
//
// The H term of Groth16's C (bellperson's execute_fft, spec/porep-c2-circuit.md §4.2): a, b, c
// are the rows' values on the domain {ω^k} of m = 2^n; a_c = coset(iNTT(a)) (values at g·ω^k,
// g = 7), b_c likewise, Z_g = g^m − 1, and
//   h = (icoset(a_c·b_c) − iNTT(c)) / Z_g,   H term = Σ_{j<m−1} h_j·H_j,
// with icoset(v)_j = g^−j·(1/m)·Σ_k ω^−jk·v_k and iNTT(c)_j = (1/m)·Σ_k ω^−jk·c_k. Both parts are
// linear in their vectors, so with the bases (k < m)
//   Q_k = Σ_{j<m−1} g^−j·ω^−jk / (m·Z_g) · H_j,      R_k = Σ_{j<m−1} ω^−jk / (m·Z_g) · H_j,
// H term = Σ_k (a_c·b_c)_k·Q_k − Σ_k c_k·R_k — exactly, whatever the top coefficient h_{m−1}
// (H_{m−1} is taken as the identity on both sides). And c = C·z (z = inputs, ONE first, then aux),
// so Σ_k c_k·R_k = Σ_i z_i·S_i with S_i = Σ_k C_ki·R_k: a fixed point per variable. Hence the
// derived set (HBasis::kCosetLagrange):
//   h  ← Q (m points, one per coset point, instead of m − 1);
//   l  ← L_i − S_{ni+i} for each aux variable i (z_i is already L's scalar);
//   c_input ← S_i for the ni inputs, kept apart: the prover subtracts Σ_{i<ni} x_i·S_i from its
//       H sum (PoRep packs its public inputs through C, so these are not the identity).
// The prover's H step is then a, b → iNTT → coset NTT → a_c·b_c, the H MSM's scalars: neither c's
// transform nor the inverse coset transform (2 of 6), nor c itself beyond the satisfaction check.
//
// When τ is known (a test ceremony, H_j = τ^j·t with t = Z(τ)/δ), each base's scalar has a
// closed form, Σ_{j<m−1} x^j = (x^(m−1) − 1)/(x − 1) with x^(m−1) = x^m/x:
//   q_k = t/(m·Z_g)·(X/x − 1)/(x − 1),  x = τ/(g·ω^k), X = x^m = (τ/g)^m   (ω^km = 1),
//   r_k = t/(m·Z_g)·(Y/y − 1)/(y − 1),  y = τ/ω^k,     Y = τ^m,
// and s_i = Σ_k C_ki·r_k. (x = 1 means τ = g·ω^k; y = 1 means Z(τ) = 0 — degenerate toxic waste,
// an error.) A real parameter file (unknown τ) needs the maps applied to its points: Q is the
// transform Σ_j ω^−jk·H'_j of H'_j = g^−j/(m·Z_g)·H_j, R that of H_j/(m·Z_g) — m·log₂(m)/2
// variable-base scalar multiplications each — and S = Cᵀ·R. derive_coset_lagrange_sections does
// that on the host, a reference for small sets (at 32 GiB it would take days on a CPU; a GPU
// version is not built yet).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "ntt/domain.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/status.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::groth16 {

enum class HBasis : uint8_t {
    kMonomial,       // the parameter file's h: τ^j·t, m − 1 points; L as in the file
    kCosetLagrange,  // the derived set above: Q (m points), L − S, the inputs' S apart
};
const char* h_basis_name(HBasis basis);                 // "monomial", "coset-lagrange"
util::Result<HBasis> parse_h_basis(std::string_view name);  // the names above, or an error

// The scalars of Q and R for the domain `d` (m each, k = 0 … m−1), from τ and t = Z(τ)/δ, by the
// closed forms above. Errors: τ on the domain or on the coset (a zero denominator).
struct CosetLagrangeScalars {
    std::vector<ff::Fr> q, r;
};
util::Result<CosetLagrangeScalars> coset_lagrange_scalars(const ntt::EvaluationDomain& d,
                                                          const ff::Fr& tau, const ff::Fr& t,
                                                          util::ThreadPool* pool = nullptr);

// The derived sections of a monomial parameter set (its points; τ unknown) for the circuit of
// `shape` (recorded and finished): h (Q, m points), l (L − S, one per aux), c_input (S of the
// inputs; identity where an input is not in C). In parallel over `pool`. Errors
// (kInvalidArgument): the set does not fit the shape (inputs, aux or domain differ).
struct CosetLagrangeSections {
    std::vector<ec::G1Affine> h, l, c_input;
};
util::Result<CosetLagrangeSections> derive_coset_lagrange_sections(
    const Parameters& params, const r1cs::ShapeRecorder& shape, util::ThreadPool* pool = nullptr);

// −Σ_i inputs[i]·c_input[i] (inputs with ONE first, as z): what a prover over a kCosetLagrange
// set adds to its H sum. The sizes must agree (kInvalidArgument otherwise); identity points
// (inputs absent from C) are allowed.
util::Result<ec::G1Jacobian> input_c_correction(std::span<const ec::G1Affine> c_input,
                                                std::span<const ff::Fr> inputs);

}  // namespace cuzk::groth16

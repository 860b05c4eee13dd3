// EvaluationDomain: the radix-2 multiplicative subgroup that the Groth16 H computation works in,
// with bellperson's conventions (spec: porep-c2-circuit.md §4.2, bellperson `src/domain.rs`).
//
// For a requested size n ≥ 1 the domain has m = the smallest power of two ≥ n elements,
// {1, ω, ω², …, ω^(m−1)} with ω = ROOT_OF_UNITY^(2^(32−log m)) = ff::fr_root_of_unity(log m)
// (the setup's Lagrange basis uses this very ω, so no other primitive root may be substituted).
// The coset used for the quotient is g·{ω^i} with g = 7, Fr's multiplicative generator; on it
// the vanishing polynomial Z(x) = x^m − 1 is the constant g^m − 1, never zero.
//
// Size limits. bellperson rejects a domain whose exponent reaches Fr's two-adicity S = 32
// (`if exp >= S { PolynomialDegreeTooLarge }`), so log m ≤ 31 here too: kMaxLogSize. bellperson
// accepts an empty coefficient vector (m = 1); this type rejects n = 0 as a caller error.
// Inputs that are not a power of two are zero-padded to m, as bellperson's `from_coeffs` does:
// see pad_to_domain.
//
// All field values are Montgomery-form ff::Fr. The object is a small value type (no tables).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "util/status.hpp"

namespace cuzk::ntt {

class EvaluationDomain {
   public:
    static constexpr unsigned kMaxLogSize = 31;  // log m < S = 32, as bellperson
    static constexpr uint64_t kCosetGenerator = ff::FrParams::kMultiplicativeGenerator;  // 7

    // The domain for n values: error (naming n) when n = 0 or when m would exceed 2^kMaxLogSize.
    static util::Result<EvaluationDomain> create(size_t n);

    size_t size() const { return size_; }          // m
    unsigned log_size() const { return log_size_; }  // log2 m
    const ff::Fr& omega() const { return omega_; }          // ω, a primitive m-th root of unity
    const ff::Fr& omega_inv() const { return omega_inv_; }  // ω⁻¹
    const ff::Fr& size_inv() const { return size_inv_; }    // m⁻¹ (the inverse NTT's scale)
    const ff::Fr& coset_generator() const { return g_; }          // g = 7
    const ff::Fr& coset_generator_inv() const { return g_inv_; }  // g⁻¹
    // Z(g) = g^m − 1, the vanishing polynomial's (constant) value on the coset, and its inverse.
    const ff::Fr& z_on_coset() const { return z_on_coset_; }
    const ff::Fr& z_on_coset_inverse() const { return z_on_coset_inv_; }

   private:
    EvaluationDomain() = default;

    size_t size_ = 1;
    unsigned log_size_ = 0;
    ff::Fr omega_, omega_inv_, size_inv_, g_, g_inv_, z_on_coset_, z_on_coset_inv_;
};

// Zero-pads coeffs up to the domain size, as bellperson's EvaluationDomain::from_coeffs does.
// Error when coeffs already holds more than domain.size() values.
util::Status pad_to_domain(std::vector<ff::Fr>& coeffs, const EvaluationDomain& domain);

}  // namespace cuzk::ntt

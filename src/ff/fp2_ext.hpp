// Fp2T<F> = F[u]/(u² + 1): the quadratic extension of BLS12-381's base field, written over any
// base-field type with the Field interface (the host Fp here; the device field in src/gpu).
//
// Representation: c0 + c1·u, each coefficient a base-field element (so the layout is two
// consecutive Fp values, 96 bytes). ξ = 1 + u is the non-residue used by the tower and the twist.
// Formulas: Karatsuba product and complex squaring (Devegili, Ó hÉigeartaigh, Scott, Dahab,
// "Multiplication and Squaring on Pairing-Friendly Fields", eprint 2006/471, §3).
#pragma once

#include <cstddef>

#include "util/hd.hpp"

namespace cuzk::ff {

// kLazyProduct: the product comes from F::fp2_product(a0, a1, b0, b1, c0, c1) (the device
// field's lazily reduced Karatsuba product, gpu/device_field.cuh) instead of the formula below.
template <class F, bool kLazyProduct = false>
struct Fp2T {
    F c0;
    F c1;

    static constexpr CUZK_HD Fp2T zero() { return {F::zero(), F::zero()}; }
    static constexpr CUZK_HD Fp2T one() { return {F::one(), F::zero()}; }
    template <class Rng>
    static Fp2T random(Rng& rng) {
        const F c0 = F::random(rng);
        return {c0, F::random(rng)};
    }

    friend constexpr CUZK_HD Fp2T operator+(const Fp2T& a, const Fp2T& b) {
        return {a.c0 + b.c0, a.c1 + b.c1};
    }
    friend constexpr CUZK_HD Fp2T operator-(const Fp2T& a, const Fp2T& b) {
        return {a.c0 - b.c0, a.c1 - b.c1};
    }
    constexpr CUZK_HD Fp2T operator-() const { return {-c0, -c1}; }
    friend constexpr CUZK_HD Fp2T operator*(const Fp2T& a, const Fp2T& b) {
        if constexpr (kLazyProduct) {
            Fp2T r;
            F::fp2_product(a.c0, a.c1, b.c0, b.c1, r.c0, r.c1);
            return r;
        }
        const F v0 = a.c0 * b.c0;
        const F v1 = a.c1 * b.c1;
        return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
    }
    friend constexpr CUZK_HD Fp2T operator*(const Fp2T& a, const F& k) { return {a.c0 * k, a.c1 * k}; }
    constexpr CUZK_HD Fp2T& operator+=(const Fp2T& b) { return *this = *this + b; }
    constexpr CUZK_HD Fp2T& operator-=(const Fp2T& b) { return *this = *this - b; }
    constexpr CUZK_HD Fp2T& operator*=(const Fp2T& b) { return *this = *this * b; }

    // (c0 + c1 u)² = (c0 + c1)(c0 − c1) + 2 c0 c1 u
    constexpr CUZK_HD Fp2T square() const {
        const F t = c0 * c1;
        return {(c0 + c1) * (c0 - c1), t + t};
    }
    constexpr CUZK_HD Fp2T dbl() const { return {c0.dbl(), c1.dbl()}; }
    constexpr CUZK_HD Fp2T conjugate() const { return {c0, -c1}; }
    // ·ξ = (c0 + c1 u)(1 + u) = (c0 − c1) + (c0 + c1) u
    constexpr CUZK_HD Fp2T mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
    // Frobenius x ↦ x^(p^k): conjugation for odd k.
    constexpr CUZK_HD Fp2T frobenius(unsigned k) const { return (k & 1) ? conjugate() : *this; }
    // N(a) = c0² + c1² ∈ F
    constexpr CUZK_HD F norm() const { return c0.square() + c1.square(); }
    // a^−1 = conj(a) / N(a); zero maps to zero.
    constexpr CUZK_HD Fp2T inverse() const {
        const F n = norm().inverse();
        return {c0 * n, -(c1 * n)};
    }
    constexpr CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    friend constexpr CUZK_HD bool operator==(const Fp2T& a, const Fp2T& b) {
        return a.c0 == b.c0 && a.c1 == b.c1;
    }

    template <class E>
    constexpr Fp2T pow(const E& e) const {
        Fp2T r = one();
        for (size_t i = e.bit_length(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }

    // ZCash sign rule for Fp2: compare c1 unless it is zero, then c0.
    bool is_lexicographically_largest() const {
        return c1.is_zero() ? c0.is_lexicographically_largest() : c1.is_lexicographically_largest();
    }
};

}  // namespace cuzk::ff

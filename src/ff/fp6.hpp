// Fp6 = Fp2[v]/(v³ − ξ), ξ = 1 + u: the middle of the BLS12-381 tower (host only).
//
// Representation: c0 + c1·v + c2·v², coefficients in Fp2. Formulas: Karatsuba product and
// Chung–Hasan squaring SQR2 (Devegili et al., eprint 2006/471, §4).
#pragma once

#include "ff/fp2.hpp"

namespace cuzk::ff {

struct Fp6 {
    Fp2 c0, c1, c2;

    static constexpr Fp6 zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
    static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }

    friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
    friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
    Fp6 operator-() const { return {-c0, -c1, -c2}; }
    friend Fp6 operator*(const Fp6& a, const Fp6& b);
    Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
    Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
    Fp6& operator*=(const Fp6& b) { return *this = *this * b; }
    Fp6 square() const;
    Fp6 inverse() const;
    // ·v: (c0, c1, c2) ↦ (ξ c2, c0, c1)
    Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
    // · (b0 + b1 v)
    Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const;
    // · (b1 v)
    Fp6 mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }
    Fp6 mul_by_fp2(const Fp2& k) const { return {c0 * k, c1 * k, c2 * k}; }
    // x ↦ x^(p^k)
    Fp6 frobenius(unsigned k) const;
    bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    friend bool operator==(const Fp6& a, const Fp6& b) {
        return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
    }
};

}  // namespace cuzk::ff

// Fp12 = Fp6[w]/(w² − v): the top of the BLS12-381 tower and the pairing's target group
// (host only).
//
// Representation: c0 + c1·w, coefficients in Fp6; as Fp2-coefficients of w^i (w⁶ = ξ):
// c0 = (w⁰, w², w⁴), c1 = (w¹, w³, w⁵). The "014" sparse product multiplies by an element whose
// only non-zero Fp2 coefficients are c0.c0, c0.c1 and c1.c1 (a line of the M-type twist).
#pragma once

#include "ff/bigint.hpp"
#include "ff/fp6.hpp"

namespace cuzk::ff {

struct Fp12 {
    Fp6 c0, c1;

    static constexpr Fp12 zero() { return {Fp6::zero(), Fp6::zero()}; }
    static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }

    friend Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    friend Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    friend Fp12 operator*(const Fp12& a, const Fp12& b);
    Fp12& operator*=(const Fp12& b) { return *this = *this * b; }
    Fp12 square() const;
    Fp12 inverse() const;
    // x^(p^6): c0 − c1 w; the inverse for elements of the cyclotomic subgroup.
    Fp12 conjugate() const { return {c0, -c1}; }
    // x ↦ x^(p^k)
    Fp12 frobenius(unsigned k) const;
    // · (o0 + o1 v + o4 v w)
    Fp12 mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const;
    // Squaring in the cyclotomic subgroup G_{Φ6(p²)} (Granger and Scott, "Faster squaring in the
    // cyclotomic subgroup of sixth degree extensions", eprint 2009/565, §3.2). Only valid for
    // elements of that subgroup (e.g. after the easy part of the final exponentiation).
    Fp12 cyclotomic_square() const;
    // x^|k| by cyclotomic squarings, for elements of the cyclotomic subgroup.
    Fp12 cyclotomic_pow(uint64_t k) const;

    template <size_t M>
    Fp12 pow(const BigInt<M>& e) const {
        Fp12 r = one();
        for (size_t i = e.bit_length(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }

    bool is_one() const { return *this == one(); }
    friend bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }

    // 576 bytes: the twelve Fp coefficients big-endian, in the order c0.c0.c0, c0.c0.c1,
    // c0.c1.c0, ..., c1.c2.c1.
    void to_bytes_be(uint8_t out[576]) const;
};

// Frobenius constants, derived at first use from ξ (see tower.cpp).
struct FrobeniusConstants {
    Fp2 fp6_c1[6];   // ξ^((p^k − 1)/3), k = 0..5
    Fp2 fp6_c2[6];   // ξ^(2(p^k − 1)/3)
    Fp2 fp12_c1[12]; // ξ^((p^k − 1)/6), k = 0..11
};
const FrobeniusConstants& frobenius_constants();

}  // namespace cuzk::ff

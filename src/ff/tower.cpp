// Fp6 and Fp12 arithmetic and the Frobenius constants of the tower.
#include <cstring>

#include "ff/fp12.hpp"

namespace cuzk::ff {

// ---- Fp6 ------------------------------------------------------------------------------------

Fp6 operator*(const Fp6& a, const Fp6& b) {
    const Fp2 v0 = a.c0 * b.c0;
    const Fp2 v1 = a.c1 * b.c1;
    const Fp2 v2 = a.c2 * b.c2;
    return {((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1};
}

Fp6 Fp6::square() const {
    const Fp2 s0 = c0.square();
    const Fp2 s1 = (c0 * c1).dbl();
    const Fp2 s2 = (c0 - c1 + c2).square();
    const Fp2 s3 = (c1 * c2).dbl();
    const Fp2 s4 = c2.square();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
}

Fp6 Fp6::inverse() const {
    const Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
    const Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
    const Fp2 t2 = c1.square() - c0 * c2;
    const Fp2 denom = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
    const Fp2 inv = denom.inverse();
    return {t0 * inv, t1 * inv, t2 * inv};
}

Fp6 Fp6::mul_by_01(const Fp2& b0, const Fp2& b1) const {
    const Fp2 v0 = c0 * b0;
    const Fp2 v1 = c1 * b1;
    return {((c1 + c2) * b1 - v1).mul_by_nonresidue() + v0,
            (c0 + c1) * (b0 + b1) - v0 - v1,
            (c0 + c2) * b0 - v0 + v1};
}

Fp6 Fp6::frobenius(unsigned k) const {
    const auto& fc = frobenius_constants();
    k %= 6;
    return {c0.frobenius(k), c1.frobenius(k) * fc.fp6_c1[k], c2.frobenius(k) * fc.fp6_c2[k]};
}

// ---- Fp12 -----------------------------------------------------------------------------------

Fp12 operator*(const Fp12& a, const Fp12& b) {
    const Fp6 aa = a.c0 * b.c0;
    const Fp6 bb = a.c1 * b.c1;
    return {bb.mul_by_nonresidue() + aa, (a.c0 + a.c1) * (b.c0 + b.c1) - aa - bb};
}

Fp12 Fp12::square() const {
    const Fp6 ab = c0 * c1;
    const Fp6 t = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
    return {t - ab - ab.mul_by_nonresidue(), ab + ab};
}

Fp12 Fp12::inverse() const {
    const Fp6 denom = c0.square() - c1.square().mul_by_nonresidue();
    const Fp6 inv = denom.inverse();
    return {c0 * inv, -(c1 * inv)};
}

Fp12 Fp12::frobenius(unsigned k) const {
    const auto& fc = frobenius_constants();
    k %= 12;
    return {c0.frobenius(k), c1.frobenius(k).mul_by_fp2(fc.fp12_c1[k])};
}

Fp12 Fp12::mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const {
    const Fp6 aa = c0.mul_by_01(o0, o1);
    const Fp6 bb = c1.mul_by_1(o4);
    const Fp6 mixed = (c1 + c0).mul_by_01(o0, o1 + o4);
    return {bb.mul_by_nonresidue() + aa, mixed - aa - bb};
}

namespace {
// (a + b·s)² in Fp4 = Fp2[s]/(s² − ξ): (a² + ξ b², 2ab) computed as ((a+b)² − a² − b²).
inline void fp4_square(const Fp2& a, const Fp2& b, Fp2& out0, Fp2& out1) {
    const Fp2 a2 = a.square();
    const Fp2 b2 = b.square();
    out0 = b2.mul_by_nonresidue() + a2;
    out1 = (a + b).square() - a2 - b2;
}
}  // namespace

Fp12 Fp12::cyclotomic_square() const {
    // Fp12 seen as Fp4³ with Fp4 pairs (z0, z1), (z2, z3), (z4, z5).
    Fp2 z0 = c0.c0, z4 = c0.c1, z3 = c0.c2;
    Fp2 z2 = c1.c0, z1 = c1.c1, z5 = c1.c2;
    Fp2 t0, t1, t2, t3;

    fp4_square(z0, z1, t0, t1);
    z0 = (t0 - z0).dbl() + t0;  // 3 t0 − 2 z0
    z1 = (t1 + z1).dbl() + t1;  // 3 t1 + 2 z1

    fp4_square(z2, z3, t0, t1);
    fp4_square(z4, z5, t2, t3);
    z4 = (t0 - z4).dbl() + t0;
    z5 = (t1 + z5).dbl() + t1;

    t0 = t3.mul_by_nonresidue();
    z2 = (t0 + z2).dbl() + t0;
    z3 = (t2 - z3).dbl() + t2;

    return {{z0, z4, z3}, {z2, z1, z5}};
}

Fp12 Fp12::cyclotomic_pow(uint64_t k) const {
    Fp12 r = one();
    for (int i = 63; i >= 0; --i) {
        r = r.cyclotomic_square();
        if ((k >> i) & 1) r *= *this;
    }
    return r;
}

void Fp12::to_bytes_be(uint8_t out[576]) const {
    const Fp* coeffs[12] = {&c0.c0.c0, &c0.c0.c1, &c0.c1.c0, &c0.c1.c1, &c0.c2.c0, &c0.c2.c1,
                            &c1.c0.c0, &c1.c0.c1, &c1.c1.c0, &c1.c1.c1, &c1.c2.c0, &c1.c2.c1};
    for (int i = 0; i < 12; ++i) coeffs[i]->to_bytes_be(std::span<uint8_t, 48>(out + 48 * i, 48));
}

// ---- Frobenius constants ----------------------------------------------------------------------

// γ_k = ξ^((p^k − 1)/6). Since (p^k − 1)/6 = p·(p^(k−1) − 1)/6 + (p − 1)/6,
// γ_k = γ_{k−1}^p · γ_1 = conj(γ_{k−1}) · γ_1, so only γ_1 needs an exponentiation.
// The Fp6 constants are ξ^((p^k−1)/3) = γ_k² and ξ^(2(p^k−1)/3) = γ_k⁴.
const FrobeniusConstants& frobenius_constants() {
    static const FrobeniusConstants constants = [] {
        FrobeniusConstants c;
        BigInt<6> e = Fp::modulus();
        e.sub_in_place(BigInt<6>::from_u64(1));
        e.div_small_in_place(6);  // exact: 6 | p − 1 (checked in the tests)
        const Fp2 gamma1 = kXi.pow(e);
        Fp2 gamma = Fp2::one();
        for (int k = 0; k < 12; ++k) {
            c.fp12_c1[k] = gamma;
            if (k < 6) {
                c.fp6_c1[k] = gamma.square();
                c.fp6_c2[k] = c.fp6_c1[k].square();
            }
            gamma = gamma.conjugate() * gamma1;
        }
        return c;
    }();
    return constants;
}

}  // namespace cuzk::ff

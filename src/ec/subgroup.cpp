// Endomorphisms σ (G1) and ψ (G2) and the fast subgroup checks built on them.
#include "ec/curves.hpp"

namespace cuzk::ec {

using ff::BigInt;
using ff::Fp;
using ff::Fp2;

// β: the cube root of unity in Fp for which σ(P) = [−x²]P on G1. Derived, not tabulated:
// β = g^((p−1)/3) for the first small g that gives β ≠ 1, then β or β² by testing the generator.
const Fp& sigma_beta() {
    static const Fp beta = [] {
        BigInt<6> e = Fp::modulus();
        e.sub_in_place(BigInt<6>::from_u64(1));
        e.div_small_in_place(3);
        Fp candidate = Fp::one();
        for (uint64_t g = 2; candidate == Fp::one(); ++g) candidate = Fp::from_u64(g).pow(e);
        const G1Jacobian gen = G1Jacobian::from_affine(kG1Generator);
        const G1Affine expected = (-mul_u64(mul_u64(gen, ff::kBlsX), ff::kBlsX)).to_affine();
        if (G1Affine{kG1Generator.x * candidate, kG1Generator.y} == expected) return candidate;
        return candidate.square();
    }();
    return beta;
}

SigmaSplit split_by_x_squared(const ff::Fr& k) {
    BigInt<4> q = k.to_int();
    const uint64_t c = q.div_small_in_place(ff::kBlsX);  // k = q·x + c
    const uint64_t b = q.div_small_in_place(ff::kBlsX);  // q = k2·x + b
    const ff::uint128_t k1 = static_cast<ff::uint128_t>(b) * ff::kBlsX + c;  // < x² < 2^128
    SigmaSplit out;
    out.k1.limb[0] = static_cast<uint64_t>(k1);
    out.k1.limb[1] = static_cast<uint64_t>(k1 >> 64);
    out.k2 = q.resize<2>();  // q.limb[2..3] are zero: k < r < 2^255 and x² > 2^127
    return out;
}

namespace {

struct PsiConstants {
    Fp2 cx, cy;
};
const PsiConstants& psi_constants() {
    static const PsiConstants c = [] {
        BigInt<6> p_minus_1 = Fp::modulus();
        p_minus_1.sub_in_place(BigInt<6>::from_u64(1));
        BigInt<6> third = p_minus_1;
        third.div_small_in_place(3);
        const BigInt<6> half = p_minus_1.shr(1);
        return PsiConstants{ff::kXi.pow(third).inverse(), ff::kXi.pow(half).inverse()};
    }();
    return c;
}

// [x]P for the negative BLS parameter x.
template <class J>
J mul_by_x(const J& p) {
    return -mul_u64(p, ff::kBlsX);
}

}  // namespace

G1Affine sigma(const G1Affine& p) {
    if (p.is_identity()) return p;
    return {p.x * sigma_beta(), p.y};
}

G2Affine psi(const G2Affine& p) {
    if (p.is_identity()) return p;
    const auto& c = psi_constants();
    return {p.x.conjugate() * c.cx, p.y.conjugate() * c.cy};
}

bool is_in_subgroup(const G1Affine& p) {
    if (p.is_identity()) return true;
    const G1Jacobian jp = G1Jacobian::from_affine(p);
    const G1Jacobian minus_x2_p = -mul_u64(mul_u64(jp, ff::kBlsX), ff::kBlsX);
    return G1Jacobian::from_affine(sigma(p)) == minus_x2_p;
}

bool is_in_subgroup(const G2Affine& p) {
    if (p.is_identity()) return true;
    return G2Jacobian::from_affine(psi(p)) == mul_by_x(G2Jacobian::from_affine(p));
}

G1Affine random_curve_point_g1(util::TestRng& rng) {
    for (;;) {
        const Fp x = Fp::random(rng);
        if (auto y = ff::sqrt(x.square() * x + G1Curve::b())) return {x, *y};
    }
}
G2Affine random_curve_point_g2(util::TestRng& rng) {
    for (;;) {
        const Fp2 x{Fp::random(rng), Fp::random(rng)};
        if (auto y = ff::sqrt(x.square() * x + G2Curve::b())) return {x, *y};
    }
}

bool is_in_subgroup_by_order(const G1Affine& p) {
    return mul(G1Jacobian::from_affine(p), ff::FrParams::kModulus).is_identity();
}
bool is_in_subgroup_by_order(const G2Affine& p) {
    return mul(G2Jacobian::from_affine(p), ff::FrParams::kModulus).is_identity();
}

}  // namespace cuzk::ec

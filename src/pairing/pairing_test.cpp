// The pairing: bilinearity, non-degeneracy, the exact exponent of the final exponentiation,
// multi-pairing products and the Miller loop's line formulas.
#include <gtest/gtest.h>

#include "pairing/pairing.hpp"
#include "util/rng.hpp"

namespace cuzk::pairing {
namespace {

using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::BigInt;
using ff::Fr;

G1Affine g1_times(const Fr& k) { return ec::mul(G1Jacobian::from_affine(ec::kG1Generator), k).to_affine(); }
G2Affine g2_times(const Fr& k) { return ec::mul(G2Jacobian::from_affine(ec::kG2Generator), k).to_affine(); }

Fp12 random_fp12(util::TestRng& rng) {
    Fp12 f;
    for (ff::Fp* c : {&f.c0.c0.c0, &f.c0.c0.c1, &f.c0.c1.c0, &f.c0.c1.c1, &f.c0.c2.c0,
                      &f.c0.c2.c1, &f.c1.c0.c0, &f.c1.c0.c1, &f.c1.c1.c0, &f.c1.c1.c1,
                      &f.c1.c2.c0, &f.c1.c2.c1})
        *c = ff::Fp::random(rng);
    return f;
}

TEST(Pairing, FinalExponentiationIsExactlyThreeTimesPTo12Minus1OverR) {
    // 3·(p^12 − 1)/r computed with plain big integers, independent of the x-chain.
    using Big = BigInt<80>;
    const Big p = ff::FpParams::kModulus.resize<80>();
    const Big r = ff::FrParams::kModulus.resize<80>();
    Big p12 = Big::from_u64(1);
    for (int i = 0; i < 12; ++i) p12 = p12 * p;
    p12.sub_in_place(Big::from_u64(1));
    const auto qr = ff::divmod(p12, r);
    ASSERT_TRUE(qr.remainder.is_zero());
    const Big e3 = qr.quotient + qr.quotient + qr.quotient;
    util::TestRng rng(11);
    for (int i = 0; i < 2; ++i) {
        const Fp12 f = random_fp12(rng);
        EXPECT_EQ(final_exponentiation(f), f.pow(e3));
    }
}

TEST(Pairing, BilinearAndNonDegenerate) {
    util::TestRng rng(12);
    const Fp12 e = pairing(ec::kG1Generator, ec::kG2Generator);
    EXPECT_FALSE(e.is_one());
    EXPECT_TRUE(e.pow(ff::FrParams::kModulus).is_one());  // e lies in GT (order r)
    for (int i = 0; i < 3; ++i) {
        const Fr a = Fr::random(rng), b = Fr::random(rng);
        const Fp12 lhs = pairing(g1_times(a), g2_times(b));
        EXPECT_EQ(lhs, e.pow((a * b).to_int()));
        EXPECT_EQ(pairing(g1_times(a * b), ec::kG2Generator), lhs);
        EXPECT_EQ(pairing(ec::kG1Generator, g2_times(a * b)), lhs);
    }
    // e(−P, Q) = e(P, Q)^−1 = conj(e(P, Q))
    EXPECT_EQ(pairing(-ec::kG1Generator, ec::kG2Generator), e.conjugate());
    EXPECT_TRUE(pairing(G1Affine::identity(), ec::kG2Generator).is_one());
    EXPECT_TRUE(pairing(ec::kG1Generator, G2Affine::identity()).is_one());
}

TEST(Pairing, ProductChecks) {
    util::TestRng rng(13);
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    // e(aP, bQ) · e(−abP, Q) = 1
    std::vector<std::pair<G1Affine, G2Affine>> pairs = {
        {g1_times(a), g2_times(b)}, {-g1_times(a * b), ec::kG2Generator}};
    EXPECT_TRUE(pairing_product_is_one(pairs));
    pairs[1].first = -g1_times(a * b + Fr::one());
    EXPECT_FALSE(pairing_product_is_one(pairs));
    // Identities are ignored; the empty product is one.
    pairs = {{g1_times(a), G2Affine::identity()}, {G1Affine::identity(), g2_times(b)}};
    EXPECT_TRUE(pairing_product_is_one(pairs));
    EXPECT_TRUE(pairing_product_is_one({}));
    // Three terms: e(aP, Q)·e(bP, Q)·e(−(a+b)P, Q) = 1
    pairs = {{g1_times(a), ec::kG2Generator},
             {g1_times(b), ec::kG2Generator},
             {-g1_times(a + b), ec::kG2Generator}};
    EXPECT_TRUE(pairing_product_is_one(pairs));
}

TEST(Pairing, MultiMillerLoopEqualsProductOfSingleLoops) {
    util::TestRng rng(14);
    const G1Affine p1 = g1_times(Fr::random(rng)), p2 = g1_times(Fr::random(rng));
    const G2Affine q1 = g2_times(Fr::random(rng)), q2 = g2_times(Fr::random(rng));
    const G2Prepared pq1 = prepare(q1), pq2 = prepare(q2);
    const std::pair<G1Affine, const G2Prepared*> terms[] = {{p1, &pq1}, {p2, &pq2}};
    EXPECT_EQ(final_exponentiation(multi_miller_loop(terms)),
              final_exponentiation(miller_loop(p1, q1) * miller_loop(p2, q2)));
}

}  // namespace
}  // namespace cuzk::pairing

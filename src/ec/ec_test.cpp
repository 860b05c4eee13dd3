// Group law, scalar multiplication, coordinate systems, endomorphisms and subgroup checks for
// G1 and G2, on random points and the exceptional cases.
#include <gtest/gtest.h>

#include "ec/curves.hpp"
#include "util/rng.hpp"

namespace cuzk::ec {
namespace {

using ff::BigInt;
using ff::Fr;

template <class Affine>
struct GroupOf;
template <>
struct GroupOf<G1Affine> {
    using Jac = G1Jacobian;
    using Xy = G1Xyzz;
    static G1Affine generator() { return kG1Generator; }
};
template <>
struct GroupOf<G2Affine> {
    using Jac = G2Jacobian;
    using Xy = G2Xyzz;
    static G2Affine generator() { return kG2Generator; }
};

template <class A>
class GroupTest : public ::testing::Test {};
using Groups = ::testing::Types<G1Affine, G2Affine>;
TYPED_TEST_SUITE(GroupTest, Groups);

template <class A>
typename GroupOf<A>::Jac random_point(util::TestRng& rng) {
    using J = typename GroupOf<A>::Jac;
    return mul(J::from_affine(GroupOf<A>::generator()), Fr::random(rng));
}

TYPED_TEST(GroupTest, GeneratorIsOnCurveAndHasOrderR) {
    using J = typename GroupOf<TypeParam>::Jac;
    const TypeParam g = GroupOf<TypeParam>::generator();
    EXPECT_TRUE(g.is_on_curve());
    EXPECT_TRUE(mul(J::from_affine(g), ff::FrParams::kModulus).is_identity());
    EXPECT_FALSE(J::from_affine(g).is_identity());
    EXPECT_TRUE(is_in_subgroup(g));
}

TYPED_TEST(GroupTest, JacobianGroupLaws) {
    using J = typename GroupOf<TypeParam>::Jac;
    util::TestRng rng(1);
    for (int i = 0; i < 20; ++i) {
        const J a = random_point<TypeParam>(rng), b = random_point<TypeParam>(rng),
                c = random_point<TypeParam>(rng);
        EXPECT_EQ(a + b, b + a);
        EXPECT_EQ((a + b) + c, a + (b + c));
        EXPECT_EQ(a + a, a.dbl());
        EXPECT_TRUE((a + (-a)).is_identity());
        EXPECT_EQ(a + J::identity(), a);
        EXPECT_EQ(J::identity() + a, a);
        EXPECT_TRUE(J::identity().dbl().is_identity());
        const TypeParam b_aff = b.to_affine();
        EXPECT_TRUE(b_aff.is_on_curve());
        EXPECT_EQ(a.add_mixed(b_aff), a + b);
        EXPECT_EQ(b.add_mixed(b_aff), b.dbl());
        EXPECT_TRUE((-b).add_mixed(b_aff).is_identity());
        EXPECT_EQ(J::identity().add_mixed(b_aff), b);
        EXPECT_EQ(a.add_mixed(TypeParam::identity()), a);
    }
}

TYPED_TEST(GroupTest, XyzzAgreesWithJacobian) {
    using J = typename GroupOf<TypeParam>::Jac;
    using X = typename GroupOf<TypeParam>::Xy;
    util::TestRng rng(2);
    for (int i = 0; i < 20; ++i) {
        const J a = random_point<TypeParam>(rng), b = random_point<TypeParam>(rng);
        const TypeParam a_aff = a.to_affine(), b_aff = b.to_affine();
        const X xa = X::from_affine(a_aff), xb = X::from_affine(b_aff);
        // Build a non-normalized XYZZ point (ZZ ≠ 1) by a doubling and an addition.
        const X xa3 = xa.dbl() + xa;
        const J a3 = a.dbl() + a;
        EXPECT_EQ(xa3.to_affine(), a3.to_affine());
        EXPECT_EQ(xa3.to_jacobian(), a3);
        EXPECT_EQ((xa3 + xb).to_affine(), (a3 + b).to_affine());
        EXPECT_EQ(xa3.add_mixed(b_aff).to_affine(), (a3 + b).to_affine());
        EXPECT_EQ(X::dbl_affine(a_aff).to_affine(), a.dbl().to_affine());
        // exceptional cases
        EXPECT_EQ((xa + xa).to_affine(), a.dbl().to_affine());
        EXPECT_EQ(xa.add_mixed(a_aff).to_affine(), a.dbl().to_affine());
        EXPECT_TRUE((xa + (-xa)).is_identity());
        EXPECT_TRUE(xa.add_mixed(-a_aff).is_identity());
        EXPECT_EQ(X::identity().add_mixed(a_aff).to_affine(), a_aff);
        EXPECT_EQ((X::identity() + xa3).to_affine(), a3.to_affine());
        EXPECT_TRUE(X::identity().dbl().is_identity());
        EXPECT_TRUE(X::identity().to_jacobian().is_identity());
        EXPECT_TRUE(X::identity().to_affine().is_identity());
    }
}

TYPED_TEST(GroupTest, ScalarMultiplication) {
    using J = typename GroupOf<TypeParam>::Jac;
    util::TestRng rng(3);
    const J g = J::from_affine(GroupOf<TypeParam>::generator());
    EXPECT_TRUE(mul(g, BigInt<4>{}).is_identity());
    EXPECT_EQ(mul(g, BigInt<4>::from_u64(1)), g);
    EXPECT_EQ(mul(g, BigInt<4>::from_u64(2)), g.dbl());
    EXPECT_EQ(mul_u64(g, 5), g.dbl().dbl() + g);
    // (r − 1)·G = −G; the largest 256-bit scalar 2^256 − 1 ≡ (2^256 − 1) mod r.
    EXPECT_EQ(mul(g, ff::FrParams::kModulus - BigInt<4>::from_u64(1)), -g);
    BigInt<4> all_ones;
    for (auto& l : all_ones.limb) l = ~uint64_t{0};
    EXPECT_EQ(mul(g, all_ones), mul(g, Fr::from_int(all_ones)));
    for (int i = 0; i < 10; ++i) {
        const Fr a = Fr::random(rng), b = Fr::random(rng);
        EXPECT_EQ(mul(g, a) + mul(g, b), mul(g, a + b));
        EXPECT_EQ(mul(mul(g, a), b), mul(g, a * b));
        const uint64_t k = rng.next_u64();
        EXPECT_EQ(mul_u64(g, k), mul(g, BigInt<4>::from_u64(k)));
    }
}

TYPED_TEST(GroupTest, TwoStepAffineAdditionMatchesJacobian) {
    using J = typename GroupOf<TypeParam>::Jac;
    util::TestRng rng(7);
    for (int i = 0; i < 10; ++i) {
        const TypeParam a = random_point<TypeParam>(rng).to_affine();
        const TypeParam b = random_point<TypeParam>(rng).to_affine();
        // chord
        const auto d = affine_add_denominator(a, b);
        ASSERT_FALSE(d.is_zero());
        EXPECT_EQ(affine_add_with_inverse(a, b, d.inverse()), (J::from_affine(a) + J::from_affine(b)).to_affine());
        // tangent
        const auto t = affine_add_denominator(a, a);
        ASSERT_FALSE(t.is_zero());
        EXPECT_EQ(affine_add_with_inverse(a, a, t.inverse()), J::from_affine(a).dbl().to_affine());
        // a + (−a): zero denominator signals the identity
        EXPECT_TRUE(affine_add_denominator(a, -a).is_zero());
    }
}

TYPED_TEST(GroupTest, BatchToAffine) {
    using J = typename GroupOf<TypeParam>::Jac;
    util::TestRng rng(4);
    std::vector<J> pts;
    for (int i = 0; i < 9; ++i) pts.push_back(random_point<TypeParam>(rng).dbl());
    pts.insert(pts.begin() + 3, J::identity());
    std::vector<TypeParam> out(pts.size());
    batch_to_affine(pts.data(), out.data(), pts.size());
    for (size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(out[i], pts[i].to_affine());
    EXPECT_TRUE(out[3].is_identity());
}

TEST(Subgroup, FastChecksAgreeWithOrderCheck) {
    util::TestRng rng(5);
    int outside_g1 = 0, outside_g2 = 0;
    for (int i = 0; i < 12; ++i) {
        const G1Affine p1 = random_curve_point_g1(rng);
        ASSERT_TRUE(p1.is_on_curve());
        const bool in1 = is_in_subgroup_by_order(p1);
        EXPECT_EQ(is_in_subgroup(p1), in1);
        outside_g1 += !in1;
        const G2Affine p2 = random_curve_point_g2(rng);
        ASSERT_TRUE(p2.is_on_curve());
        const bool in2 = is_in_subgroup_by_order(p2);
        EXPECT_EQ(is_in_subgroup(p2), in2);
        outside_g2 += !in2;
        // Points of the subgroup pass.
        const G1Affine q1 = mul(G1Jacobian::from_affine(kG1Generator), Fr::random(rng)).to_affine();
        EXPECT_TRUE(is_in_subgroup(q1));
        const G2Affine q2 = mul(G2Jacobian::from_affine(kG2Generator), Fr::random(rng)).to_affine();
        EXPECT_TRUE(is_in_subgroup(q2));
    }
    EXPECT_EQ(outside_g1, 12);  // random curve points are outside G1 (cofactor ≈ 2^126)
    EXPECT_EQ(outside_g2, 12);
    EXPECT_TRUE(is_in_subgroup(G1Affine::identity()));
    EXPECT_TRUE(is_in_subgroup(G2Affine::identity()));
}

TEST(Endomorphisms, ActAsEigenvaluesOnTheSubgroups) {
    util::TestRng rng(6);
    const G1Jacobian p = mul(G1Jacobian::from_affine(kG1Generator), Fr::random(rng));
    // σ³ = id, σ(P) = [−x²]P
    const G1Affine pa = p.to_affine();
    EXPECT_EQ(sigma(sigma(sigma(pa))), pa);
    EXPECT_NE(sigma(pa), pa);
    EXPECT_EQ(G1Jacobian::from_affine(sigma(pa)), -mul_u64(mul_u64(p, ff::kBlsX), ff::kBlsX));
    // ψ on G2 is [p] = [x] (mod r); ψ² − [x]ψ... check ψ(ψ(Q)) = [x²]Q.
    const G2Jacobian q = mul(G2Jacobian::from_affine(kG2Generator), Fr::random(rng));
    const G2Affine qa = q.to_affine();
    EXPECT_EQ(G2Jacobian::from_affine(psi(psi(qa))), mul_u64(mul_u64(q, ff::kBlsX), ff::kBlsX));
    EXPECT_EQ(G2Jacobian::from_affine(psi(qa)), -mul_u64(q, ff::kBlsX));
}

// The GLV split: k1 + k2·x² = k as integers, both halves < 2^128, and k·P = k1·P + k2·(−σ(P)).
TEST(Endomorphisms, SplitByXSquaredRecomposes) {
    util::TestRng rng(7);
    const G1Jacobian p = mul(G1Jacobian::from_affine(kG1Generator), Fr::random(rng));
    const G1Affine pa = p.to_affine();
    const G1Jacobian minus_sigma = G1Jacobian::from_affine(-sigma(pa));
    std::vector<Fr> scalars = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(ff::kBlsX)};
    const Fr x2 = Fr::from_u64(ff::kBlsX) * Fr::from_u64(ff::kBlsX);
    scalars.push_back(x2);
    scalars.push_back(x2 - Fr::one());
    for (int i = 0; i < 24; ++i) scalars.push_back(Fr::random(rng));
    for (const Fr& k : scalars) {
        const SigmaSplit s = split_by_x_squared(k);
        // Recomposition in Fr (k1, k2 < 2^128 < r, so their canonical values are themselves).
        const Fr k1 = Fr::from_int(s.k1.resize<4>());
        const Fr k2 = Fr::from_int(s.k2.resize<4>());
        EXPECT_EQ(k1 + k2 * x2, k);
        // k1 < x²: compared as integers.
        EXPECT_LT(compare(s.k1.resize<4>(), x2.to_int()), 0);
        EXPECT_EQ(mul(p, s.k1.resize<4>()) + mul(minus_sigma, s.k2.resize<4>()), mul(p, k));
    }
    // The largest scalar, r − 1: k2 still fits 128 bits (resize would have dropped limbs).
    const SigmaSplit top = split_by_x_squared(-Fr::one());
    EXPECT_EQ(Fr::from_int(top.k1.resize<4>()) + Fr::from_int(top.k2.resize<4>()) * x2, -Fr::one());
}

}  // namespace
}  // namespace cuzk::ec

// Coset-Lagrange H bases (coset_bases.hpp): the closed forms against the plain geometric sums,
// and the derived scalars against the CPU prover's H — the H and L terms of C, at the level of
// the points' scalars, equal for the monomial and the derived sets.
#include "groth16/coset_bases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ec/fixed_base.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/prover.hpp"
#include "groth16/prover_parts.hpp"
#include "groth16/setup.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape_recorder.hpp"
#include "util/rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// t/(m·Z_g)·Σ_{j<m−1} (base·ω^−k)^j, term by term.
Fr plain_sum(const ntt::EvaluationDomain& d, const Fr& base, const Fr& t, size_t k) {
    const size_t m = d.size();
    const Fr z_g = d.coset_generator().pow(static_cast<uint64_t>(m)) - Fr::one();
    const Fr x = base * d.omega_inv().pow(static_cast<uint64_t>(k));
    Fr sum = Fr::zero(), power = Fr::one();
    for (size_t j = 0; j + 1 < m; ++j) {
        sum += power;
        power *= x;
    }
    return sum * t * (Fr::from_u64(m) * z_g).inverse();
}

TEST(CosetBases, ClosedFormsMatchThePlainSums) {
    util::TestRng rng(5);
    for (size_t m : {2u, 8u, 64u}) {
        auto d = ntt::EvaluationDomain::create(m);
        ASSERT_TRUE(d.ok());
        const Fr tau = Fr::random(rng), t = Fr::random(rng);
        auto qr = coset_lagrange_scalars(*d, tau, t);
        ASSERT_TRUE(qr.ok()) << qr.status().message();
        ASSERT_EQ(qr->q.size(), m);
        ASSERT_EQ(qr->r.size(), m);
        for (size_t k = 0; k < m; ++k) {
            EXPECT_EQ(qr->q[k], plain_sum(*d, tau * d->coset_generator_inv(), t, k)) << m << " " << k;
            EXPECT_EQ(qr->r[k], plain_sum(*d, tau, t, k)) << m << " " << k;
        }
        if (m > 2) {  // (m = 2: both sums are the one term 1)
            EXPECT_NE(qr->q[1], qr->r[1]);
        }
    }
}

TEST(CosetBases, DegenerateTauIsAnError) {
    auto d = ntt::EvaluationDomain::create(16);
    ASSERT_TRUE(d.ok());
    const Fr t = Fr::from_u64(3);
    // τ = ω^3 (Z(τ) = 0) and τ = g·ω^5 (on the coset): a zero denominator each.
    auto in_domain = coset_lagrange_scalars(*d, d->omega().pow(3), t);
    ASSERT_FALSE(in_domain.ok());
    EXPECT_NE(in_domain.status().message().find("domain"), std::string::npos);
    auto on_coset = coset_lagrange_scalars(*d, d->coset_generator() * d->omega().pow(5), t);
    ASSERT_FALSE(on_coset.ok());
    EXPECT_NE(on_coset.status().message().find("coset"), std::string::npos);
    EXPECT_FALSE(coset_lagrange_scalars(*d, Fr::zero(), t).ok());
}

TEST(CosetBases, NamesParse) {
    for (HBasis b : {HBasis::kMonomial, HBasis::kCosetLagrange}) {
        auto parsed = parse_h_basis(h_basis_name(b));
        ASSERT_TRUE(parsed.ok());
        EXPECT_EQ(*parsed, b);
    }
    auto bad = parse_h_basis("lagrange");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().message().find("lagrange"), std::string::npos);
}

// For a satisfied circuit, the scalar of C's H and L terms (what the points' scalars sum to):
//   monomial: Σ_{j<m−1} h_j·h_j^mono + Σ_aux z_i·l_i^mono, h from the CPU prover;
//   derived:  Σ_k (a_c·b_c)_k·q_k + Σ_aux z_i·l_i' − Σ_inputs x_i·s_i.
void expect_same_c_scalar(const std::string& name, uint64_t seed) {
    auto ex = examples::make_example_circuit(name);
    ASSERT_TRUE(ex.ok()) << ex.status().message();
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(ex->circuit(shape).ok());
    shape.finish();
    const ToxicWaste toxic = ToxicWaste::from_seed(seed);
    auto mono = compute_parameter_scalars(shape, toxic);
    ASSERT_TRUE(mono.ok()) << mono.status().message();
    auto derived = compute_parameter_scalars(shape, toxic, nullptr, nullptr, HBasis::kCosetLagrange);
    ASSERT_TRUE(derived.ok()) << derived.status().message();
    const size_t m = mono->domain_size;
    ASSERT_EQ(derived->h_basis, HBasis::kCosetLagrange);
    ASSERT_EQ(derived->h.size(), m);
    ASSERT_EQ(mono->h.size(), m - 1);
    ASSERT_EQ(derived->c_input.size(), mono->num_inputs);
    EXPECT_TRUE(mono->c_input.empty());
    // The sets differ only in h, l and c_input.
    EXPECT_EQ(derived->ic, mono->ic);
    EXPECT_EQ(derived->a, mono->a);
    EXPECT_EQ(derived->b, mono->b);

    r1cs::ProvingAssignment pa;
    ASSERT_TRUE(synthesize_into(ex->circuit, pa, 0).ok());
    const std::vector<Fr>& x = pa.input_assignment();
    const std::vector<Fr>& z = pa.aux_assignment();
    auto h = compute_h_scalars(pa.a(), pa.b(), pa.c());
    ASSERT_TRUE(h.ok()) << h.status().message();
    Fr mono_sum = Fr::zero(), derived_sum = Fr::zero();
    for (size_t j = 0; j + 1 < m; ++j) mono_sum += (*h)[j] * mono->h[j];
    for (size_t i = 0; i < z.size(); ++i) {
        mono_sum += z[i] * mono->l[i];
        derived_sum += z[i] * derived->l[i];
    }
    std::vector<Fr> ac = pa.a(), bc = pa.b();
    ac.resize(m, Fr::zero());
    bc.resize(m, Fr::zero());
    for (std::vector<Fr>* v : {&ac, &bc}) {
        ASSERT_TRUE(ntt::inverse(std::span<Fr>(*v)).ok());
        ASSERT_TRUE(ntt::coset_forward(std::span<Fr>(*v)).ok());
    }
    for (size_t k = 0; k < m; ++k) derived_sum += ac[k] * bc[k] * derived->h[k];
    bool some_input_in_c = false;
    for (size_t i = 0; i < x.size(); ++i) {
        derived_sum -= x[i] * derived->c_input[i];
        some_input_in_c = some_input_in_c || !derived->c_input[i].is_zero();
    }
    EXPECT_EQ(derived_sum, mono_sum) << name;
    // A term left out must show: the check can fail.
    EXPECT_NE(derived_sum + ac[0] * bc[0] * derived->h[0], mono_sum) << name;
    if (name.rfind("sha256", 0) == 0) {
        EXPECT_TRUE(some_input_in_c) << "sha256 packs its inputs in C";
    }
}

// The conversion of a monomial set gives exactly the coset-Lagrange set made directly; it refuses
// a set that is not monomial.
TEST(CosetBases, ConvertedScalarsEqualTheDirectOnes) {
    auto ex = examples::make_example_circuit("sha256:2");
    ASSERT_TRUE(ex.ok());
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(ex->circuit(shape).ok());
    shape.finish();
    const ToxicWaste toxic = ToxicWaste::from_seed(21);
    auto direct = compute_parameter_scalars(shape, toxic, nullptr, nullptr, HBasis::kCosetLagrange);
    ASSERT_TRUE(direct.ok()) << direct.status().message();
    auto converted = compute_parameter_scalars(shape, toxic);
    ASSERT_TRUE(converted.ok());
    ASSERT_TRUE(convert_to_coset_lagrange(shape, toxic, *converted).ok());
    EXPECT_EQ(converted->h_basis, HBasis::kCosetLagrange);
    EXPECT_EQ(converted->h, direct->h);
    EXPECT_EQ(converted->l, direct->l);
    EXPECT_EQ(converted->c_input, direct->c_input);
    EXPECT_EQ(converted->ic, direct->ic);
    EXPECT_EQ(converted->a, direct->a);
    EXPECT_EQ(converted->b, direct->b);
    EXPECT_FALSE(convert_to_coset_lagrange(shape, toxic, *converted).ok());  // not monomial now
}

TEST(CosetBases, DerivedScalarsGiveTheProversCScalar) {
    expect_same_c_scalar("cubic", 3);
    expect_same_c_scalar("random:7", 11);
    expect_same_c_scalar("sha256:8", 13);
}

// The derived sections from a monomial set's points (τ unknown to the conversion) equal the
// points of the coset-Lagrange scalars (τ known), section by section.
void expect_derived_points(const std::string& name, uint64_t seed, bool inputs_in_c) {
    auto ex = examples::make_example_circuit(name);
    ASSERT_TRUE(ex.ok());
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(ex->circuit(shape).ok());
    shape.finish();
    const ToxicWaste toxic = ToxicWaste::from_seed(seed);
    auto params = generate_parameters(ex->circuit, toxic);
    ASSERT_TRUE(params.ok()) << params.status().message();
    auto derived = derive_coset_lagrange_sections(*params, shape);
    ASSERT_TRUE(derived.ok()) << derived.status().message();
    auto scalars = compute_parameter_scalars(shape, toxic, nullptr, nullptr, HBasis::kCosetLagrange);
    ASSERT_TRUE(scalars.ok());
    util::ThreadPool& pool = util::ThreadPool::global();
    const ec::FixedBaseTable<ec::G1Curve> table(ec::kG1Generator,
                                                ec::choose_fixed_base_window(scalars->h.size()),
                                                pool);
    EXPECT_EQ(derived->h, table.mul_all(std::span<const Fr>(scalars->h), pool)) << name;
    EXPECT_EQ(derived->l, table.mul_all(std::span<const Fr>(scalars->l), pool)) << name;
    EXPECT_EQ(derived->c_input, table.mul_all(std::span<const Fr>(scalars->c_input), pool)) << name;
    bool some_input_point = false;
    for (const ec::G1Affine& p : derived->c_input)
        some_input_point = some_input_point || !p.is_identity();
    EXPECT_EQ(some_input_point, inputs_in_c) << name;
}

TEST(CosetBases, SectionsDerivedFromPointsEqualTheScalarsPoints) {
    expect_derived_points("cubic", 41, true);      // y = x³ + x + 5 is C's side
    expect_derived_points("random:8", 43, false);  // its inputs (ONE too) are not in C
}

TEST(CosetBases, DerivationRefusesAMismatchedSet) {
    auto ex = examples::make_example_circuit("random:6");
    ASSERT_TRUE(ex.ok());
    auto other = examples::make_example_circuit("cubic");
    ASSERT_TRUE(other.ok());
    r1cs::ShapeRecorder shape;
    ASSERT_TRUE(ex->circuit(shape).ok());
    auto params = generate_parameters(other->circuit, ToxicWaste::from_seed(3));
    ASSERT_TRUE(params.ok());
    EXPECT_FALSE(derive_coset_lagrange_sections(*params, shape).ok());  // not finished
    shape.finish();
    auto refused = derive_coset_lagrange_sections(*params, shape);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("does not fit"), std::string::npos);
}

TEST(CosetBases, InputCorrectionIsTheNegatedSum) {
    util::TestRng rng(9);
    const ec::G1Jacobian g = ec::G1Jacobian::from_affine(ec::kG1Generator);
    std::vector<ec::G1Affine> points;
    std::vector<Fr> inputs;
    ec::G1Jacobian expected = ec::G1Jacobian::identity();
    for (int i = 0; i < 5; ++i) {
        const Fr k = Fr::random(rng), x = i == 2 ? Fr::zero() : Fr::random(rng);
        points.push_back(i == 3 ? ec::G1Affine::identity() : ec::mul(g, k).to_affine());
        inputs.push_back(x);
        if (i != 3) expected = expected + ec::mul(g, k * x);
    }
    auto got = input_c_correction(points, inputs);
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == -expected);
    inputs.pop_back();
    auto mismatch = input_c_correction(points, inputs);
    ASSERT_FALSE(mismatch.ok());
    EXPECT_NE(mismatch.status().message().find("4 inputs but 5"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::groth16

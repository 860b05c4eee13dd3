// Tests of the CPU reference NTT against naive O(n²) evaluation and interpolation identities.
//
// Non-power-of-two sizes: EvaluationDomain::create(n) rounds up to m = 2^⌈log n⌉ and the values
// are zero-padded with pad_to_domain, as bellperson's from_coeffs does; the transforms themselves
// reject any length that is not a power of two (or not the domain's size).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ntt/domain.hpp"
#include "ntt/ntt.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::ntt {
namespace {

using ff::Fr;
using Vec = std::vector<Fr>;

Vec random_vec(util::TestRng& rng, size_t n) {
    Vec v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

EvaluationDomain domain(size_t n) { return EvaluationDomain::create(n).value(); }

Fr horner(const Vec& coeffs, const Fr& x) {
    Fr acc = Fr::zero();
    for (size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
    return acc;
}

// (P(shift·root^i))_i for i < m: naive evaluation.
Vec naive_eval(const Vec& coeffs, size_t m, const Fr& root, const Fr& shift) {
    Vec out(m);
    Fr x = shift;
    for (size_t i = 0; i < m; ++i, x *= root) out[i] = horner(coeffs, x);
    return out;
}

Vec naive_mul(const Vec& a, const Vec& b) {
    Vec c(a.size() + b.size() - 1);
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
    return c;
}

::testing::AssertionResult same(const Vec& got, const Vec& want) {
    if (got.size() != want.size())
        return ::testing::AssertionFailure() << "sizes " << got.size() << " vs " << want.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i])
            return ::testing::AssertionFailure() << "index " << i << ": got " << got[i].to_hex()
                                                 << ", want " << want[i].to_hex();
    return ::testing::AssertionSuccess();
}

std::vector<size_t> powers_of_two_up_to(unsigned max_log) {
    std::vector<size_t> sizes;
    for (unsigned k = 0; k <= max_log; ++k) sizes.push_back(size_t{1} << k);
    return sizes;
}

TEST(NttTest, RejectsLengthsThatAreNotPowersOfTwoOrNotTheDomainSize) {
    util::TestRng rng(11);
    for (size_t n : {0, 3, 5, 6, 12, 1000}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        Vec a = random_vec(rng, n);
        const Vec before = a;
        EXPECT_EQ(forward(a).code(), util::StatusCode::kInvalidArgument);
        EXPECT_EQ(inverse(a).code(), util::StatusCode::kInvalidArgument);
        EXPECT_EQ(coset_forward(a).code(), util::StatusCode::kInvalidArgument);
        EXPECT_EQ(coset_inverse(a).code(), util::StatusCode::kInvalidArgument);
        EXPECT_TRUE(same(a, before));
    }
    Vec a = random_vec(rng, 8);
    const Vec before = a;
    const EvaluationDomain d16 = domain(16);
    EXPECT_FALSE(forward(a, d16).ok());
    EXPECT_FALSE(inverse(a, d16).ok());
    EXPECT_FALSE(coset_forward(a, d16).ok());
    EXPECT_FALSE(coset_inverse(a, d16).ok());
    EXPECT_FALSE(divide_by_z_on_coset(a, d16).ok());
    EXPECT_TRUE(same(a, before));
}

TEST(NttTest, NonPowerOfTwoInputsArePaddedLikeBellperson) {
    util::TestRng rng(12);
    for (size_t n : {3, 5, 13, 100, 129}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const Vec coeffs = random_vec(rng, n);
        const EvaluationDomain d = domain(n);
        Vec a = coeffs;
        ASSERT_TRUE(pad_to_domain(a, d).ok());
        ASSERT_EQ(a.size(), d.size());
        ASSERT_TRUE(forward(a, d).ok());
        EXPECT_TRUE(same(a, naive_eval(coeffs, d.size(), d.omega(), Fr::one())));
    }
}

TEST(NttTest, MatchesNaiveEvaluationUpTo256) {
    util::TestRng rng(13);
    for (size_t m : powers_of_two_up_to(8)) {
        SCOPED_TRACE("m = " + std::to_string(m));
        const EvaluationDomain d = domain(m);
        const Vec coeffs = random_vec(rng, m);
        Vec a = coeffs;
        ASSERT_TRUE(forward(a).ok());
        EXPECT_TRUE(same(a, naive_eval(coeffs, m, d.omega(), Fr::one())));
        a = coeffs;
        ASSERT_TRUE(coset_forward(a).ok());
        EXPECT_TRUE(same(a, naive_eval(coeffs, m, d.omega(), d.coset_generator())));
        // inverse(y)_j = m⁻¹ Σ_i y_i ω^(−ij): naive evaluation with ω⁻¹, then scaled.
        a = coeffs;
        ASSERT_TRUE(inverse(a).ok());
        Vec want = naive_eval(coeffs, m, d.omega_inv(), Fr::one());
        for (auto& x : want) x *= d.size_inv();
        EXPECT_TRUE(same(a, want));
    }
}

TEST(NttTest, RoundTrips) {
    util::TestRng rng(14);
    std::vector<size_t> sizes = powers_of_two_up_to(12);
    sizes.push_back(size_t{1} << 16);
    for (size_t m : sizes) {
        SCOPED_TRACE("m = " + std::to_string(m));
        const Vec x = random_vec(rng, m);
        Vec a = x;
        ASSERT_TRUE(forward(a).ok());
        if (m > 1) {
            EXPECT_FALSE(same(a, x));
        }
        ASSERT_TRUE(inverse(a).ok());
        EXPECT_TRUE(same(a, x));
        ASSERT_TRUE(inverse(a).ok());
        ASSERT_TRUE(forward(a).ok());
        EXPECT_TRUE(same(a, x));
        ASSERT_TRUE(coset_forward(a).ok());
        ASSERT_TRUE(coset_inverse(a).ok());
        EXPECT_TRUE(same(a, x));
    }
}

TEST(NttTest, EdgeInputs) {
    for (size_t m : {size_t{16}, size_t{1} << 12}) {
        SCOPED_TRACE("m = " + std::to_string(m));
        const EvaluationDomain d = domain(m);
        for (size_t k : {size_t{0}, size_t{1}, m / 2 + 3, m - 1}) {  // x^k → (ω^(ik))_i
            Vec a(m);
            a[k] = Fr::one();
            ASSERT_TRUE(forward(a).ok());
            const Vec x_poly = {Fr::zero(), Fr::one()};  // P(x) = x at the points ω^(ki)
            EXPECT_TRUE(same(a, naive_eval(x_poly, m, d.omega().pow(uint64_t{k}), Fr::one())));
        }
        const Fr m_fr = Fr::from_u64(m);
        for (const Fr& c : {Fr::one(), -Fr::one()}) {  // constant coefficients 1 and p − 1
            Vec a(m, c), want(m);
            want[0] = c * m_fr;  // Σ_j ω^(ij) = m·[i = 0]
            ASSERT_TRUE(forward(a).ok());
            EXPECT_TRUE(same(a, want));
            ASSERT_TRUE(inverse(a).ok());
            EXPECT_TRUE(same(a, Vec(m, c)));
        }
        // All-ones coefficients on the coset: Σ_j (gω^i)^j = (g^m − 1) / (gω^i − 1).
        Vec a(m, Fr::one()), want(m);
        Fr x = d.coset_generator();
        for (size_t i = 0; i < m; ++i, x *= d.omega())
            want[i] = d.z_on_coset() * (x - Fr::one()).inverse();
        ASSERT_TRUE(coset_forward(a).ok());
        EXPECT_TRUE(same(a, want));
    }
}

TEST(NttTest, IsLinear) {
    util::TestRng rng(15);
    for (size_t m : {size_t{8}, size_t{1} << 11, size_t{1} << 13}) {
        const Vec x = random_vec(rng, m), y = random_vec(rng, m);
        const Fr alpha = Fr::random(rng), beta = Fr::random(rng);
        Vec combo(m), fx = x, fy = y;
        for (size_t i = 0; i < m; ++i) combo[i] = alpha * x[i] + beta * y[i];
        ASSERT_TRUE(coset_forward(combo).ok());
        ASSERT_TRUE(coset_forward(fx).ok());
        ASSERT_TRUE(coset_forward(fy).ok());
        for (size_t i = 0; i < m; ++i) fx[i] = alpha * fx[i] + beta * fy[i];
        EXPECT_TRUE(same(combo, fx)) << "m = " << m;
    }
}

TEST(NttTest, DistributePowers) {
    util::TestRng rng(16);
    const Fr g = Fr::random(rng);
    util::ThreadPool pool(3);
    for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{5000}}) {
        const Vec x = random_vec(rng, n);
        Vec a = x, want = x;
        Fr p = Fr::one();
        for (size_t i = 0; i < n; ++i, p *= g) want[i] *= p;
        distribute_powers(a, g, &pool);
        EXPECT_TRUE(same(a, want)) << "n = " << n;
    }
}

TEST(NttTest, ThreadCountDoesNotChangeResult) {
    util::TestRng rng(17);
    util::ThreadPool one(1), two(2), four(4);
    for (size_t m : {kParallelThreshold / 2, kParallelThreshold * 4, size_t{1} << 16}) {
        const EvaluationDomain d = domain(m);
        const Vec x = random_vec(rng, m);
        auto run_all = [&](util::ThreadPool* pool) {
            Vec a = x;
            EXPECT_TRUE(forward(a, d, pool).ok());
            EXPECT_TRUE(coset_forward(a, d, pool).ok());
            EXPECT_TRUE(divide_by_z_on_coset(a, d, pool).ok());
            Vec b = a;
            EXPECT_TRUE(inverse(b, d, pool).ok());
            EXPECT_TRUE(coset_inverse(a, d, pool).ok());
            distribute_powers(b, d.omega(), pool);
            a.insert(a.end(), b.begin(), b.end());
            return a;
        };
        const Vec want = run_all(&one);
        EXPECT_TRUE(same(run_all(&two), want)) << "m = " << m;
        EXPECT_TRUE(same(run_all(&four), want)) << "m = " << m;
        EXPECT_TRUE(same(run_all(nullptr), want)) << "m = " << m;
    }
}

// c = a·b exactly (deg a, deg b < m/2): (a·b − c)/Z vanishes on the coset.
TEST(QuotientTest, ExactProductGivesZeroQuotient) {
    util::TestRng rng(18);
    for (size_t m : {size_t{4}, size_t{64}, size_t{256}}) {
        const EvaluationDomain d = domain(m);
        Vec a = random_vec(rng, m / 2), b = random_vec(rng, m / 2);
        Vec c = naive_mul(a, b);
        for (Vec* v : {&a, &b, &c}) {
            ASSERT_TRUE(pad_to_domain(*v, d).ok());
            ASSERT_TRUE(coset_forward(*v, d).ok());
        }
        for (size_t i = 0; i < m; ++i) a[i] = a[i] * b[i] - c[i];
        ASSERT_TRUE(divide_by_z_on_coset(a, d).ok());
        EXPECT_TRUE(same(a, Vec(m))) << "m = " << m;
        ASSERT_TRUE(coset_inverse(a, d).ok());
        EXPECT_TRUE(same(a, Vec(m))) << "m = " << m;
    }
}

// bellperson's H pipeline (§4.2): evaluations a, b on the domain and c = a∘b pointwise, so the
// polynomial C = A·B mod (x^m − 1) ≠ A·B and H = (A·B − C)/(x^m − 1) is a non-zero quotient of
// degree ≤ m − 2. Checked by multiplying back: naively for small m, at a random point for 2^12.
TEST(QuotientTest, GrothPipelineGivesTheQuotient) {
    util::TestRng rng(19);
    for (size_t m : {size_t{2}, size_t{64}, size_t{256}, size_t{1} << 12}) {
        SCOPED_TRACE("m = " + std::to_string(m));
        const EvaluationDomain d = domain(m);
        Vec a = random_vec(rng, m), b = random_vec(rng, m), c(m);
        for (size_t i = 0; i < m; ++i) c[i] = a[i] * b[i];
        for (Vec* v : {&a, &b, &c}) ASSERT_TRUE(inverse(*v, d).ok());  // → coefficients
        const Vec A = a, B = b, C = c;
        for (Vec* v : {&a, &b, &c}) ASSERT_TRUE(coset_forward(*v, d).ok());
        Vec h(m);
        for (size_t i = 0; i < m; ++i) h[i] = a[i] * b[i] - c[i];
        ASSERT_TRUE(divide_by_z_on_coset(h, d).ok());
        ASSERT_TRUE(coset_inverse(h, d).ok());
        EXPECT_TRUE(h[m - 1].is_zero());  // deg H ≤ m − 2: the H query has m − 1 points
        EXPECT_FALSE(same(h, Vec(m)));
        if (m <= 256) {  // A·B − C = H·x^m − H, coefficient by coefficient
            Vec lhs = naive_mul(A, B), rhs(2 * m - 1);
            for (size_t i = 0; i < m; ++i) lhs[i] -= C[i];
            for (size_t i = 0; i + 1 < m; ++i) {
                rhs[i + m] += h[i];
                rhs[i] -= h[i];
            }
            EXPECT_TRUE(same(lhs, rhs));
        } else {
            const Fr tau = Fr::random(rng);
            EXPECT_EQ(horner(A, tau) * horner(B, tau) - horner(C, tau),
                      horner(h, tau) * (tau.pow(uint64_t{m}) - Fr::one()));
        }
    }
}

}  // namespace
}  // namespace cuzk::ntt

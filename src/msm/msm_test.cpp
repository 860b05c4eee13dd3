// Pippenger MSM, the naive reference and batch addition, for G1 and G2.
//
// Test bases are a random walk P_{i+1} = P_i + Q_m (a few random steps Q_m) between two random
// points G, H, with the coefficients tracked: P_i = a_i·G + b_i·H. That makes bases cheap to
// make (one addition each) and gives an independent oracle for any size:
//     Σ k_i·P_i = (Σ k_i·a_i)·G + (Σ k_i·b_i)·H        (two scalar multiplications),
// which is itself checked against the naive sum (one scalar multiplication per point).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "msm/batch_add.hpp"
#include "msm/naive.hpp"
#include "msm/pippenger.hpp"
#include "util/rng.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::msm {
namespace {

using ff::BigInt;
using ff::Fr;

template <class C>
struct Generator;
template <>
struct Generator<ec::G1Curve> {
    static ec::G1Affine get() { return ec::kG1Generator; }
};
template <>
struct Generator<ec::G2Curve> {
    static ec::G2Affine get() { return ec::kG2Generator; }
};

template <class C>
ec::Jacobian<C> random_point(util::TestRng& rng) {
    return ec::mul(ec::Jacobian<C>::from_affine(Generator<C>::get()), Fr::random(rng));
}

BigInt<4> pow2(unsigned e) {
    BigInt<4> v;
    v.limb[e / 64] = uint64_t{1} << (e % 64);
    return v;
}

// Bases with known discrete logarithms in terms of two random points G and H.
template <class C>
struct TrackedBases {
    using Aff = ec::Affine<C>;
    using Jac = ec::Jacobian<C>;

    Jac g, h;
    std::vector<Aff> points;
    std::vector<Fr> a, b;  // points[i] = a[i]·G + b[i]·H

    TrackedBases(util::TestRng& rng, size_t n) {
        g = random_point<C>(rng);
        h = random_point<C>(rng);
        constexpr size_t kSteps = 4;
        Jac step[kSteps];
        Fr step_a[kSteps], step_b[kSteps];
        for (size_t m = 0; m < kSteps; ++m) {
            step_a[m] = Fr::random(rng);
            step_b[m] = Fr::random(rng);
            step[m] = ec::mul(g, step_a[m]) + ec::mul(h, step_b[m]);
        }
        Fr ca = Fr::random(rng), cb = Fr::random(rng);
        Jac p = ec::mul(g, ca) + ec::mul(h, cb);
        std::vector<Jac> jac(n);
        a.resize(n);
        b.resize(n);
        for (size_t i = 0; i < n; ++i) {
            jac[i] = p;
            a[i] = ca;
            b[i] = cb;
            const size_t m = rng.uniform(kSteps);
            p += step[m];
            ca += step_a[m];
            cb += step_b[m];
        }
        points.resize(n);
        ec::batch_to_affine(jac.data(), points.data(), n);
    }

    size_t size() const { return points.size(); }
    void set_identity(size_t i) {
        points[i] = Aff::identity();
        a[i] = b[i] = Fr::zero();
    }
    // points[i] = ±points[j]
    void copy(size_t i, size_t j, bool negate) {
        points[i] = negate ? -points[j] : points[j];
        a[i] = negate ? -a[j] : a[j];
        b[i] = negate ? -b[j] : b[j];
    }

    Jac expected(std::span<const Fr> scalars) const {
        Fr sa = Fr::zero(), sb = Fr::zero();
        for (size_t i = 0; i < scalars.size(); ++i) {
            sa += scalars[i] * a[i];
            sb += scalars[i] * b[i];
        }
        return ec::mul(g, sa) + ec::mul(h, sb);
    }
    Jac expected(std::span<const BigInt<4>> scalars) const {
        std::vector<Fr> reduced;
        for (const BigInt<4>& k : scalars) reduced.push_back(Fr::from_int(k));
        return expected(std::span<const Fr>(reduced));
    }
    // Σ over the bases whose bit is set (bits at positions ≥ size() ignored).
    Jac expected_selected(std::span<const uint64_t> bits) const {
        std::vector<Fr> k(size(), Fr::zero());
        for (size_t i = 0; i < size(); ++i)
            if ((bits[i / 64] >> (i % 64)) & 1) k[i] = Fr::one();
        return expected(std::span<const Fr>(k));
    }
};

std::vector<Fr> random_scalars(util::TestRng& rng, size_t n) {
    std::vector<Fr> k(n);
    for (Fr& s : k) s = Fr::random(rng);
    return k;
}

constexpr MsmMethod kMethods[] = {MsmMethod::kXyzz, MsmMethod::kBatchAffine};
const char* name(MsmMethod m) { return m == MsmMethod::kXyzz ? "xyzz" : "batch-affine"; }

template <class C>
class MsmTest : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(MsmTest, Curves);

// ---- signed digits ------------------------------------------------------------------------------

// The digits by the sequential carry rule, lowest window first.
std::vector<int> sequential_digits(const BigInt<4>& k, unsigned c) {
    const unsigned windows = kScalarBits / c + 1;
    std::vector<int> out;
    int carry = 0;
    for (unsigned j = 0; j < windows; ++j) {
        int u = 0;
        for (unsigned t = 0; t < c; ++t)
            if (k.bit(c * j + t)) u |= 1 << t;
        int d = u + carry;
        carry = 0;
        if (d > (1 << (c - 1))) {
            d -= 1 << c;
            carry = 1;
        }
        out.push_back(d);
    }
    EXPECT_EQ(carry, 0);
    return out;
}

// Scalars where digits hit their extremes or carries flip, for window size c.
std::vector<BigInt<4>> boundary_scalars(unsigned c, util::TestRng& rng) {
    const BigInt<4> one = BigInt<4>::from_u64(1);
    const BigInt<4> r = ff::FrParams::kModulus;
    std::vector<BigInt<4>> out = {BigInt<4>(), one, r - one, r - one - one, pow2(254),
                                  pow2(255) - one, pow2(254) + pow2(c - 1), pow2(254) - one};
    const unsigned windows = kScalarBits / c + 1;
    BigInt<4> threshold;  // H_j: the largest value digits 0..j−1 can represent
    for (unsigned j = 0; j < windows; ++j) {
        const unsigned lo = c * j;
        for (const unsigned e : {lo + c - 1, lo + c, lo}) {
            if (e >= 255) continue;
            out.push_back(pow2(e));
            out.push_back(pow2(e) - one);
            out.push_back(pow2(e) + one);
        }
        // (2^c − 1)·2^lo: a full window of ones
        if (lo + c <= 255) out.push_back((pow2(lo + c) - one) - (pow2(lo) - one));
        out.push_back(threshold);
        out.push_back(threshold + one);
        if (!threshold.is_zero()) out.push_back(threshold - one);
        // threshold with random high bits
        BigInt<4> high;
        for (auto& w : high.limb) w = rng.next_u64();
        high.limb[3] &= ~(uint64_t{1} << 63);
        if (lo < 255) out.push_back((high.shr(lo).shl(lo)) + threshold);
        if (lo + c - 1 < 255) threshold = threshold + pow2(lo + c - 1);
    }
    std::erase_if(out, [](const BigInt<4>& k) { return k.bit(255); });  // keep k < 2^255
    return out;
}

TEST(SignedDigitsTest, ReconstructScalarWithinRange) {
    util::TestRng rng(10);
    for (unsigned c = 1; c <= kMaxWindowBits; ++c) {
        const SignedDigits digits(c);
        ASSERT_EQ(digits.num_windows(), kScalarBits / c + 1);
        ASSERT_GE(c * digits.num_windows(), 256u);
        std::vector<BigInt<4>> scalars = boundary_scalars(c, rng);
        for (int i = 0; i < 50; ++i) scalars.push_back(Fr::random(rng).to_int());
        const int h = 1 << (c - 1);
        for (const BigInt<4>& k : scalars) {
            const std::vector<int> expected = sequential_digits(k, c);
            // Σ d_j·2^(c·j) as positive part − negative part
            BigInt<5> pos, neg;
            for (unsigned j = 0; j < digits.num_windows(); ++j) {
                const int d = digits.digit(k, j);
                ASSERT_EQ(d, expected[j]) << "c=" << c << " window " << j;
                ASSERT_GT(d, -h);
                ASSERT_LE(d, h);
                BigInt<5> term = BigInt<5>::from_u64(static_cast<uint64_t>(d < 0 ? -d : d));
                term = term.shl(c * j);
                (d < 0 ? neg : pos).add_in_place(term);
            }
            ASSERT_EQ(pos - neg, k.resize<5>()) << "c=" << c;
        }
    }
}

TEST(WindowRuleTest, DefaultWindowBits) {
    EXPECT_EQ(default_window_bits(0), 1u);
    EXPECT_EQ(default_window_bits(1), 1u);
    unsigned prev = 1;
    for (unsigned lg = 1; lg <= 32; ++lg) {
        const unsigned c = default_window_bits(size_t{1} << lg);
        EXPECT_GE(c, prev);  // non-decreasing in n
        EXPECT_LE(c, kMaxWindowBits);
        prev = c;
    }
    EXPECT_EQ(default_window_bits(size_t{1} << 32), kMaxWindowBits);
    // one chunk per window while there are fewer threads than windows
    EXPECT_EQ(default_point_chunks(size_t{1} << 16, 13, 2), 1u);
    EXPECT_GT(default_point_chunks(size_t{1} << 24, 20, 64), 1u);
}

// ---- Pippenger against the oracles -------------------------------------------------------------

TYPED_TEST(MsmTest, OracleMatchesNaive) {
    util::TestRng rng(20);
    TrackedBases<TypeParam> bases(rng, 40);
    bases.set_identity(5);
    bases.copy(7, 3, true);
    const std::vector<Fr> k = random_scalars(rng, bases.size());
    EXPECT_EQ(bases.expected(k), msm_naive(bases.points, k));
    for (size_t i = 0; i < bases.size(); i += 13)
        EXPECT_EQ(ec::Jacobian<TypeParam>::from_affine(bases.points[i]),
                  ec::mul(bases.g, bases.a[i]) + ec::mul(bases.h, bases.b[i]));
}

TYPED_TEST(MsmTest, RandomInputsOfManySizes) {
    util::TestRng rng(21);
    for (const size_t n : {0, 1, 2, 3, 7, 64, 100, 1000, 4096}) {
        TrackedBases<TypeParam> bases(rng, n);
        const std::vector<Fr> k = random_scalars(rng, n);
        const auto result = msm(bases.points, k);
        EXPECT_EQ(result, bases.expected(k)) << "n=" << n;
        if (n <= 100) {
            EXPECT_EQ(result, msm_naive(bases.points, k)) << "n=" << n;
        }
        std::vector<BigInt<4>> canonical;
        for (const Fr& s : k) canonical.push_back(s.to_int());
        EXPECT_EQ(msm(bases.points, canonical), result) << "n=" << n;
        // both bucket methods on one window size (the default for these n is XYZZ)
        for (const MsmMethod method : kMethods) {
            if (n > 1000) continue;
            EXPECT_EQ(msm(bases.points, k, {.window_bits = 12, .method = method}), result)
                << "n=" << n << " " << name(method);
        }
    }
}

TYPED_TEST(MsmTest, EveryWindowSize) {
    util::TestRng rng(22);
    TrackedBases<TypeParam> bases(rng, 100);
    const std::vector<Fr> k = random_scalars(rng, bases.size());
    const auto expected = bases.expected(k);
    for (unsigned c = 1; c <= 16; ++c) {
        EXPECT_EQ(msm(bases.points, k, {.window_bits = c, .method = MsmMethod::kXyzz}), expected)
            << "c=" << c;
        // batches of h/4 additions: from 2 (c = 4, nearly all into the XYZZ side buckets) up
        if (c >= 4) {
            EXPECT_EQ(msm(bases.points, k, {.window_bits = c, .method = MsmMethod::kBatchAffine}),
                      expected)
                << "c=" << c;
        }
    }
}

TEST(MsmG1Test, LargestWindow) {
    util::TestRng rng(23);
    TrackedBases<ec::G1Curve> bases(rng, 5);
    const std::vector<Fr> k = random_scalars(rng, bases.size());
    EXPECT_EQ(msm(bases.points, k, {.window_bits = kMaxWindowBits, .method = MsmMethod::kXyzz}),
              bases.expected(k));
    // batch-affine buckets take 2.5 times the memory of XYZZ ones: a smaller large window
    EXPECT_EQ(msm(bases.points, k, {.window_bits = 17, .method = MsmMethod::kBatchAffine}),
              bases.expected(k));
}

TYPED_TEST(MsmTest, SpecialScalars) {
    util::TestRng rng(24);
    constexpr size_t n = 50;
    TrackedBases<TypeParam> bases(rng, n);
    const Fr same = Fr::random(rng);
    const std::vector<std::pair<const char*, std::vector<Fr>>> cases = {
        {"all zero", std::vector<Fr>(n, Fr::zero())},
        {"all one", std::vector<Fr>(n, Fr::one())},
        {"all r-1", std::vector<Fr>(n, -Fr::one())},
        {"all equal", std::vector<Fr>(n, same)},
    };
    for (const auto& [what, k] : cases) {
        for (unsigned c : {0u, 1u, 4u, 7u})
            EXPECT_EQ(msm(bases.points, k, {.window_bits = c}), bases.expected(k))
                << what << " c=" << c;
        for (unsigned c : {4u, 10u})
            EXPECT_EQ(msm(bases.points, k, {.window_bits = c, .method = MsmMethod::kBatchAffine}),
                      bases.expected(k))
                << what << " batch-affine c=" << c;
    }
    EXPECT_TRUE(msm(bases.points, cases[0].second).is_identity());
    // mostly zero, a few random
    std::vector<Fr> sparse(n, Fr::zero());
    sparse[3] = Fr::random(rng);
    sparse[n - 1] = Fr::one();
    EXPECT_EQ(msm(bases.points, sparse), bases.expected(sparse));
    EXPECT_EQ(msm(bases.points, sparse), msm_naive(bases.points, sparse));
}

TYPED_TEST(MsmTest, IdentityAndRepeatedBases) {
    util::TestRng rng(25);
    constexpr size_t n = 200;
    TrackedBases<TypeParam> bases(rng, n);
    // every 5th base the identity; bases 100..199 are ±base 0 (random signs), so equal digits
    // meet in one bucket as P + P (doubling) and P + (−P) (cancellation)
    for (size_t i = 0; i < 100; i += 5) bases.set_identity(i + 1);
    for (size_t i = 100; i < n; ++i) bases.copy(i, 0, rng.uniform(2) == 1);
    const std::vector<Fr> random_k = random_scalars(rng, n);
    const std::vector<Fr> equal_k(n, Fr::random(rng));
    const std::vector<Fr> small_k = [&] {
        std::vector<Fr> k(n);
        for (Fr& s : k) s = Fr::from_u64(rng.uniform(4));
        return k;
    }();
    for (const auto* k : {&random_k, &equal_k, &small_k}) {
        const auto expected = bases.expected(*k);
        EXPECT_EQ(expected, msm_naive(bases.points, *k));
        for (unsigned c : {0u, 1u, 3u, 8u})
            EXPECT_EQ(msm(bases.points, *k, {.window_bits = c}), expected) << "c=" << c;
        for (unsigned c : {4u, 9u})
            EXPECT_EQ(msm(bases.points, *k, {.window_bits = c, .method = MsmMethod::kBatchAffine}),
                      expected)
                << "batch-affine c=" << c;
    }
    // only P and −P with equal scalars: the sum is (#P − #(−P))·k·P
    TrackedBases<TypeParam> pm(rng, 64);
    for (size_t i = 1; i < pm.size(); ++i) pm.copy(i, 0, i % 3 == 0);
    const std::span<const Fr> pm_k = std::span<const Fr>(equal_k).first(pm.size());
    EXPECT_EQ(msm(pm.points, pm_k, {.window_bits = 5}), pm.expected(pm_k));
    EXPECT_EQ(msm(pm.points, pm_k, {.window_bits = 5}), msm_naive(pm.points, pm_k));
    for (const unsigned c : {5u, 10u})
        EXPECT_EQ(msm(pm.points, pm_k, {.window_bits = c, .method = MsmMethod::kBatchAffine}),
                  pm.expected(pm_k));
    std::vector<ec::Affine<TypeParam>> identities(10, ec::Affine<TypeParam>::identity());
    EXPECT_TRUE(msm(identities, std::span<const Fr>(random_k).first(10)).is_identity());
}

TYPED_TEST(MsmTest, DigitsAtWindowBoundaries) {
    util::TestRng rng(26);
    for (const unsigned c : {1u, 3u, 4u, 8u, 13u, 16u}) {
        std::vector<BigInt<4>> k = boundary_scalars(c, rng);
        if (k.size() > 300) {  // small windows give thousands: keep an evenly spread 300
            std::vector<BigInt<4>> spread;
            for (size_t i = 0; i < 300; ++i) spread.push_back(k[i * k.size() / 300]);
            k = spread;
        }
        TrackedBases<TypeParam> bases(rng, k.size());
        for (const MsmMethod method : kMethods) {
            if (method == MsmMethod::kBatchAffine && c < 4) continue;
            EXPECT_EQ(msm(bases.points, k, {.window_bits = c, .method = method}),
                      bases.expected(k))
                << "c=" << c << " " << name(method);
        }
        // each scalar alone as well, on one base (no other digit to hide a wrong one); small
        // windows only, as every call clears 2^(c−1) buckets per window
        for (size_t i = 0; c <= 8 && i < k.size(); i += 5) {
            const std::span<const BigInt<4>> one(&k[i], 1);
            const std::span<const ec::Affine<TypeParam>> base(&bases.points[i], 1);
            EXPECT_EQ(msm(base, one, {.window_bits = c}), msm_naive(base, one))
                << "c=" << c << " i=" << i;
        }
    }
}

TYPED_TEST(MsmTest, MultithreadedEqualsSingleThreaded) {
    util::TestRng rng(27);
    TrackedBases<TypeParam> bases(rng, 300);
    const std::vector<Fr> k = random_scalars(rng, bases.size());
    util::ThreadPool one(1);
    const auto reference = msm(bases.points, k, {.pool = &one});
    EXPECT_EQ(reference, bases.expected(k));
    for (unsigned threads : {2u, 3u, 5u}) {
        util::ThreadPool pool(threads);
        for (unsigned chunks : {0u, 2u, 7u})
            EXPECT_EQ(
                msm(bases.points, k, {.window_bits = 6, .pool = &pool, .point_chunks = chunks}),
                reference)
                << threads << " threads, " << chunks << " chunks";
        EXPECT_EQ(msm(bases.points, k, {.pool = &pool}), reference) << threads << " threads";
        for (unsigned chunks : {0u, 3u})
            EXPECT_EQ(msm(bases.points, k,
                          {.window_bits = 10, .pool = &pool, .point_chunks = chunks,
                           .method = MsmMethod::kBatchAffine}),
                      reference)
                << threads << " threads, " << chunks << " chunks, batch-affine";
    }
    // more chunks than points
    TrackedBases<TypeParam> few(rng, 3);
    const std::vector<Fr> k3 = random_scalars(rng, 3);
    util::ThreadPool pool(4);
    EXPECT_EQ(msm(few.points, k3, {.pool = &pool, .point_chunks = 8}), few.expected(k3));
}

// Several scalar sets over one set of bases: each result equals its own oracle, whatever the
// method, window, threads and chunking; sets with zeros, ones and repeated values included.
TYPED_TEST(MsmTest, ManySetsShareOnePass) {
    util::TestRng rng(31);
    TrackedBases<TypeParam> bases(rng, 257);
    bases.set_identity(9);
    std::vector<std::vector<Fr>> sets;
    for (int k = 0; k < 4; ++k) sets.push_back(random_scalars(rng, bases.size()));
    for (size_t i = 0; i < bases.size(); i += 3) sets[1][i] = Fr::zero();
    for (size_t i = 0; i < bases.size(); i += 2) sets[2][i] = Fr::one();
    sets[3] = sets[0];  // two identical sets
    std::vector<std::vector<BigInt<4>>> canonical(sets.size());
    std::vector<std::span<const BigInt<4>>> views;
    for (size_t k = 0; k < sets.size(); ++k) {
        for (const Fr& s : sets[k]) canonical[k].push_back(s.to_int());
        views.emplace_back(canonical[k]);
    }
    util::ThreadPool pool(3);
    for (const MsmMethod method : kMethods) {
        for (unsigned chunks : {0u, 1u, 4u}) {
            const auto results = msm_many(
                bases.points, views,
                {.window_bits = 8, .pool = &pool, .point_chunks = chunks, .method = method});
            ASSERT_EQ(results.size(), sets.size());
            for (size_t k = 0; k < sets.size(); ++k)
                EXPECT_EQ(results[k], bases.expected(sets[k]))
                    << "set " << k << " " << name(method) << " chunks " << chunks;
        }
    }
    EXPECT_EQ(msm_many(bases.points, std::span<const std::span<const BigInt<4>>>{}).size(), 0u);
    // no bases: every result is the identity
    std::vector<std::span<const BigInt<4>>> empty_sets(2);
    for (const auto& r : msm_many(std::span<const ec::Affine<TypeParam>>{}, empty_sets))
        EXPECT_TRUE(r.is_identity());
}

TEST(MsmDeathTest, MismatchedLengthsAbort) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::vector<ec::G1Affine> bases(3, ec::kG1Generator);
    const std::vector<Fr> scalars(2, Fr::one());
    EXPECT_DEATH(msm(bases, scalars), "differ in length");
    EXPECT_DEATH(msm_naive(bases, scalars), "differ in length");
    const std::vector<uint64_t> bits(2, 0);
    EXPECT_DEATH(batch_add(bases, bits), "expected 1");
    const std::vector<BigInt<4>> too_big(3, pow2(255));
    EXPECT_DEATH(msm(bases, too_big), "below 2\\^255");
}

// ---- batch addition ----------------------------------------------------------------------------

std::vector<uint64_t> random_bits(util::TestRng& rng, size_t n, uint64_t per_mille) {
    std::vector<uint64_t> bits((n + 63) / 64, 0);
    for (size_t i = 0; i < n; ++i)
        if (rng.uniform(1000) < per_mille) bits[i / 64] |= uint64_t{1} << (i % 64);
    return bits;
}

constexpr BatchAddMethod kBatchAddMethods[] = {BatchAddMethod::kXyzz, BatchAddMethod::kAffine};

TYPED_TEST(MsmTest, BatchAddRandomBitmaps) {
    util::TestRng rng(30);
    util::ThreadPool one(1), two(2), three(3);
    for (const size_t n : {0, 1, 63, 64, 65, 127, 1000, 5000}) {
        TrackedBases<TypeParam> bases(rng, n);
        for (const uint64_t density : {0, 50, 500, 950, 1000}) {
            const std::vector<uint64_t> bits = random_bits(rng, n, density);
            const auto expected = bases.expected_selected(bits);
            for (const BatchAddMethod method : kBatchAddMethods)
                for (util::ThreadPool* pool : {&one, &two, &three})
                    EXPECT_EQ(batch_add(bases.points, bits, {.method = method, .pool = pool}),
                              expected)
                        << "n=" << n << " density=" << density << " threads=" << pool->size();
        }
        if (n > 0 && n <= 127) {  // against the plain sum
            const std::vector<uint64_t> bits = random_bits(rng, n, 500);
            ec::Jacobian<TypeParam> plain = ec::Jacobian<TypeParam>::identity();
            for (size_t i = 0; i < n; ++i)
                if ((bits[i / 64] >> (i % 64)) & 1)
                    plain += ec::Jacobian<TypeParam>::from_affine(bases.points[i]);
            EXPECT_EQ(batch_add(bases.points, bits), plain);
        }
    }
}

TYPED_TEST(MsmTest, BatchAddEmptyFullAndStrayBits) {
    util::TestRng rng(31);
    constexpr size_t n = 3000;  // not a multiple of 64
    TrackedBases<TypeParam> bases(rng, n);
    std::vector<uint64_t> none((n + 63) / 64, 0), all((n + 63) / 64, ~uint64_t{0});
    for (const BatchAddMethod method : kBatchAddMethods) {
        EXPECT_TRUE(batch_add(bases.points, none, {.method = method}).is_identity());
        // bits past n in the last word are set in `all` and must be ignored
        EXPECT_EQ(batch_add(bases.points, all, {.method = method}), bases.expected_selected(all));
        const std::vector<ec::Affine<TypeParam>> empty;
        EXPECT_TRUE(
            batch_add(empty, std::span<const uint64_t>(), {.method = method}).is_identity());
    }
    std::vector<Fr> ones(n, Fr::one());
    EXPECT_EQ(batch_add(bases.points, all), msm(bases.points, ones));
}

TYPED_TEST(MsmTest, BatchAddDoublingAndCancellation) {
    util::TestRng rng(32);
    constexpr size_t n = 4500;  // > 2 affine batches
    // all the same point: every affine pair is a doubling, at every level
    TrackedBases<TypeParam> same(rng, n);
    for (size_t i = 1; i < n; ++i) same.copy(i, 0, false);
    // P, −P alternating: every first-level pair cancels; with an odd count one P is left
    TrackedBases<TypeParam> alternating(rng, n);
    for (size_t i = 1; i < n; ++i) alternating.copy(i, 0, i % 2 == 1);
    // a mix of identities, repeats and negations of a few points
    TrackedBases<TypeParam> mixed(rng, n);
    for (size_t i = 0; i < n; ++i) {
        const uint64_t kind = rng.uniform(4);
        if (kind == 0) mixed.set_identity(i);
        if (kind == 1) mixed.copy(i, rng.uniform(5), rng.uniform(2) == 1);
    }
    for (const TrackedBases<TypeParam>* bases : {&same, &alternating, &mixed}) {
        for (const uint64_t density : {1000, 700}) {
            const std::vector<uint64_t> bits = random_bits(rng, n, density);
            const auto expected = bases->expected_selected(bits);
            for (const BatchAddMethod method : kBatchAddMethods)
                EXPECT_EQ(batch_add(bases->points, bits, {.method = method}), expected)
                    << "density=" << density;
        }
    }
}

}  // namespace
}  // namespace cuzk::msm

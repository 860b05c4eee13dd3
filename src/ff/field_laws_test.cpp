// Algebraic laws of Fp, Fr, Fp2, Fp6 and Fp12 on random elements.
//
// Ring and field axioms for every type; for the tower, the defining relations (u² = −1,
// v³ = ξ, w² = v), the sparse and non-residue products against full products by the element
// they stand for, the Frobenius maps against exponentiation by p^k (exponents built exactly with
// BigInt), the Frobenius constants against direct exponentiations of ξ, square roots, batch
// inversion, and the cyclotomic-subgroup squaring and powering against the generic ones.
//
// Powers used as references are computed by pow_naive below (products only, never square()), so
// they are independent of the square formulas under test.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/fp.hpp"
#include "ff/fp12.hpp"
#include "ff/fp2.hpp"
#include "ff/fp6.hpp"
#include "ff/fr.hpp"
#include "util/rng.hpp"

namespace cuzk::ff {
// gtest prints elements through these (found by argument-dependent lookup).
template <class P>
void PrintTo(const Field<P>& f, std::ostream* os) {
    *os << f.to_hex();
}
// Built by appending (GCC 12 reports a false -Wrestrict on chains of std::string operator+).
inline std::string str(const Fp2& a) {
    std::string s = "(";
    s += a.c0.to_hex();
    s += ", ";
    s += a.c1.to_hex();
    s += ")";
    return s;
}
inline std::string str(const Fp6& a) {
    std::string s = "[";
    s += str(a.c0);
    s += ", ";
    s += str(a.c1);
    s += ", ";
    s += str(a.c2);
    s += "]";
    return s;
}
inline std::string str(const Fp12& a) {
    std::string s = "{";
    s += str(a.c0);
    s += ", ";
    s += str(a.c1);
    s += "}";
    return s;
}
template <class F>
void PrintTo(const Fp2T<F>& a, std::ostream* os) {
    *os << str(a);
}
inline void PrintTo(const Fp6& a, std::ostream* os) { *os << str(a); }
inline void PrintTo(const Fp12& a, std::ostream* os) { *os << str(a); }
}  // namespace cuzk::ff

namespace {

using cuzk::ff::BigInt;
using cuzk::ff::Fp;
using cuzk::ff::Fp12;
using cuzk::ff::Fp2;
using cuzk::ff::Fp6;
using cuzk::ff::Fr;
using cuzk::ff::kXi;
using cuzk::util::TestRng;

// ---- element generators -----------------------------------------------------------------------

// Mostly uniform; one time in sixteen a small special value (0, 1, −1, 2), so that extension
// elements often have zero or trivial coefficients.
template <class F>
F prime_element(TestRng& rng) {
    if (rng.uniform(16) == 0) {
        switch (rng.uniform(4)) {
            case 0: return F::zero();
            case 1: return F::one();
            case 2: return -F::one();
            default: return F::from_u64(2);
        }
    }
    return F::random(rng);
}

template <class T>
struct Traits;
template <>
struct Traits<Fp> {
    static constexpr const char* kName = "Fp";
    static constexpr int kIterations = 2000;
    static Fp random(TestRng& rng) { return prime_element<Fp>(rng); }
};
template <>
struct Traits<Fr> {
    static constexpr const char* kName = "Fr";
    static constexpr int kIterations = 2000;
    static Fr random(TestRng& rng) { return prime_element<Fr>(rng); }
};
template <>
struct Traits<Fp2> {
    static constexpr const char* kName = "Fp2";
    static constexpr int kIterations = 1000;
    static Fp2 random(TestRng& rng) {
        const Fp c0 = Traits<Fp>::random(rng);
        return {c0, Traits<Fp>::random(rng)};
    }
};
template <>
struct Traits<Fp6> {
    static constexpr const char* kName = "Fp6";
    static constexpr int kIterations = 400;
    static Fp6 random(TestRng& rng) {
        const Fp2 c0 = Traits<Fp2>::random(rng);
        const Fp2 c1 = Traits<Fp2>::random(rng);
        return {c0, c1, Traits<Fp2>::random(rng)};
    }
};
template <>
struct Traits<Fp12> {
    static constexpr const char* kName = "Fp12";
    static constexpr int kIterations = 200;
    static Fp12 random(TestRng& rng) {
        const Fp6 c0 = Traits<Fp6>::random(rng);
        return {c0, Traits<Fp6>::random(rng)};
    }
};

template <class T>
T rand_elem(TestRng& rng) {
    return Traits<T>::random(rng);
}

// a^e by left-to-right multiply-only exponentiation (r·r, never square()).
template <class T, size_t M>
T pow_naive(const T& a, const BigInt<M>& e) {
    T r = T::one();
    for (size_t i = e.bit_length(); i-- > 0;) {
        r = r * r;
        if (e.bit(i)) r = r * a;
    }
    return r;
}

// p^k as an exact integer (p^11 < 2^4191 < 2^(64·66)).
constexpr size_t kWide = 66;
BigInt<kWide> p_power(unsigned k) {
    const BigInt<kWide> p = Fp::modulus().resize<kWide>();
    BigInt<kWide> r = BigInt<kWide>::from_u64(1);
    for (unsigned i = 0; i < k; ++i) r = r * p;
    return r;
}

// ---- laws common to every type ----------------------------------------------------------------

template <class T>
class FieldLawsTest : public ::testing::Test {};

struct TypeName {
    template <class T>
    static std::string GetName(int) {
        return Traits<T>::kName;
    }
};

using AllFields = ::testing::Types<Fp, Fr, Fp2, Fp6, Fp12>;
TYPED_TEST_SUITE(FieldLawsTest, AllFields, TypeName);

TYPED_TEST(FieldLawsTest, AdditiveGroup) {
    using T = TypeParam;
    TestRng rng(0xadd0'0001);
    const T zero = T::zero();
    for (int it = 0; it < Traits<T>::kIterations; ++it) {
        const T a = rand_elem<T>(rng), b = rand_elem<T>(rng), c = rand_elem<T>(rng);
        EXPECT_EQ(a + b, b + a) << "a=" << ::testing::PrintToString(a);
        EXPECT_EQ((a + b) + c, a + (b + c));
        EXPECT_EQ(a + zero, a);
        EXPECT_EQ(zero + a, a);
        EXPECT_EQ(a - a, zero);
        EXPECT_EQ((a + b) - b, a);
        EXPECT_EQ(a - b, a + (zero - b));
        EXPECT_EQ(a - (b + c), (a - b) - c);
        if constexpr (requires { -a; }) {
            EXPECT_EQ(-a, zero - a);
            EXPECT_EQ(-(-a), a);
            EXPECT_EQ(a + (-a), zero);
        }
        if constexpr (requires { a.dbl(); }) {
            EXPECT_EQ(a.dbl(), a + a);
        }
        if (this->HasFailure()) return;
    }
    if constexpr (requires { -zero; }) {
        EXPECT_EQ(-zero, zero);
    }
}

TYPED_TEST(FieldLawsTest, MultiplicativeLaws) {
    using T = TypeParam;
    TestRng rng(0x3a10'0002);
    const T zero = T::zero(), one = T::one();
    for (int it = 0; it < Traits<T>::kIterations; ++it) {
        const T a = rand_elem<T>(rng), b = rand_elem<T>(rng), c = rand_elem<T>(rng);
        EXPECT_EQ(a * b, b * a) << "a=" << ::testing::PrintToString(a)
                                << " b=" << ::testing::PrintToString(b);
        EXPECT_EQ((a * b) * c, a * (b * c));
        EXPECT_EQ(a * one, a);
        EXPECT_EQ(one * a, a);
        EXPECT_EQ(a * zero, zero);
        EXPECT_EQ(a * (b + c), a * b + a * c);
        EXPECT_EQ((a + b) * c, a * c + b * c);
        EXPECT_EQ((a - b) * c, a * c - b * c);
        T d = a;
        d *= b;
        EXPECT_EQ(d, a * b);
        if (this->HasFailure()) return;
    }
}

TYPED_TEST(FieldLawsTest, SquareIsSelfProduct) {
    using T = TypeParam;
    TestRng rng(0x5a0a'0003);
    for (int it = 0; it < Traits<T>::kIterations; ++it) {
        const T a = rand_elem<T>(rng), b = rand_elem<T>(rng);
        EXPECT_EQ(a.square(), a * a) << "a=" << ::testing::PrintToString(a);
        const T ab = a * b;
        EXPECT_EQ((a + b).square(), a.square() + ab + ab + b.square());
        EXPECT_EQ((a - b).square(), a.square() - ab - ab + b.square());
        if (this->HasFailure()) return;
    }
    EXPECT_EQ(T::zero().square(), T::zero());
    EXPECT_EQ(T::one().square(), T::one());
}

TYPED_TEST(FieldLawsTest, Inverse) {
    using T = TypeParam;
    TestRng rng(0x1a7e'0004);
    const T zero = T::zero(), one = T::one();
    EXPECT_EQ(zero.inverse(), zero) << "the inverse of zero is zero";
    EXPECT_EQ(one.inverse(), one);
    for (int it = 0; it < Traits<T>::kIterations; ++it) {
        const T a = rand_elem<T>(rng), b = rand_elem<T>(rng);
        if (a == zero || b == zero) {
            if (a == zero) {
                EXPECT_EQ(a.inverse(), zero);
            }
            continue;
        }
        const T ai = a.inverse();
        EXPECT_EQ(a * ai, one) << "a=" << ::testing::PrintToString(a);
        EXPECT_EQ(ai * a, one);
        EXPECT_EQ(ai.inverse(), a);
        EXPECT_EQ((a * b).inverse(), ai * b.inverse());
        EXPECT_EQ((b * ai) * a, b);
        if (this->HasFailure()) return;
    }
}

TYPED_TEST(FieldLawsTest, PowMatchesRepeatedProducts) {
    using T = TypeParam;
    TestRng rng(0x9090'0005);
    for (int it = 0; it < Traits<T>::kIterations / 10; ++it) {
        const T a = rand_elem<T>(rng);
        const uint64_t m = rng.next_u64() >> rng.uniform(64);
        const uint64_t n = rng.uniform(1000);
        const BigInt<1> em = BigInt<1>::from_u64(m);
        const BigInt<1> en = BigInt<1>::from_u64(n);
        const T am = pow_naive(a, em);
        // a^n by n − 1 products.
        T an = T::one();
        for (uint64_t i = 0; i < n; ++i) an = an * a;
        EXPECT_EQ(pow_naive(a, en), an) << "n=" << n;
        if constexpr (requires { a.pow(em); }) {
            EXPECT_EQ(a.pow(em), am) << "m=" << m << " a=" << ::testing::PrintToString(a);
            EXPECT_EQ(a.pow(en), an) << "n=" << n;
            // a^(m+n) = a^m · a^n with the sum over two limbs.
            BigInt<2> sum = em.resize<2>();
            sum.add_in_place(en.resize<2>());
            EXPECT_EQ(a.pow(sum), am * an);
        }
        if (this->HasFailure()) return;
    }
}

// ---- batch inversion -------------------------------------------------------------------------

template <class T>
class BatchInverseTest : public ::testing::Test {};
using BatchFields = ::testing::Types<Fp, Fr, Fp2, Fp6>;
TYPED_TEST_SUITE(BatchInverseTest, BatchFields, TypeName);

TYPED_TEST(BatchInverseTest, MatchesSingleInversesWithZerosMixedIn) {
    using T = TypeParam;
    TestRng rng(0xba7c'0006);
    std::vector<T> scratch(3);  // resized by batch_inverse as needed
    const size_t sizes[] = {0, 1, 2, 3, 8, 17, 100, 257};
    for (const size_t n : sizes) {
        for (int pattern = 0; pattern < 5; ++pattern) {
            std::vector<T> xs(n);
            for (size_t i = 0; i < n; ++i) {
                bool zero = false;
                switch (pattern) {
                    case 0: zero = false; break;                      // none
                    case 1: zero = true; break;                       // all
                    case 2: zero = i == 0 || i + 1 == n; break;       // first and last
                    case 3: zero = rng.uniform(3) == 0; break;        // about a third
                    default: zero = i % 2 == 1; break;                // alternating
                }
                xs[i] = zero ? T::zero() : rand_elem<T>(rng);
                if (!zero && xs[i] == T::zero()) xs[i] = T::one();
            }
            std::vector<T> got = xs;
            cuzk::ff::batch_inverse(got.data(), n, scratch);
            for (size_t i = 0; i < n; ++i) {
                EXPECT_EQ(got[i], xs[i].inverse()) << "n=" << n << " pattern=" << pattern
                                                   << " i=" << i;
                if (xs[i] == T::zero()) {
                    EXPECT_EQ(got[i], T::zero());
                } else {
                    EXPECT_EQ(got[i] * xs[i], T::one());
                }
            }
            if (this->HasFailure()) return;
        }
    }
}

// ---- square roots in Fp and Fr ----------------------------------------------------------------

template <class T>
class PrimeSqrtTest : public ::testing::Test {};
using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(PrimeSqrtTest, PrimeFields, TypeName);

TYPED_TEST(PrimeSqrtTest, SquaresAndNonSquares) {
    using F = TypeParam;
    TestRng rng(0x5a27'0007);
    const auto z = cuzk::ff::sqrt(F::zero());
    ASSERT_TRUE(z.has_value());
    EXPECT_EQ(*z, F::zero());
    EXPECT_EQ(F::zero().legendre(), 0);
    int non_squares = 0;
    const int n = 1000;
    for (int it = 0; it < n; ++it) {
        // The square of a random element has a root, and it is ±a.
        const F a = F::random(rng);
        const F s = a.square();
        const auto r = cuzk::ff::sqrt(s);
        ASSERT_TRUE(r.has_value()) << "no root for the square of " << a.to_hex();
        EXPECT_EQ(r->square(), s) << "a=" << a.to_hex();
        EXPECT_TRUE(*r == a || *r == -a) << "a=" << a.to_hex() << " root=" << r->to_hex();
        if (!a.is_zero()) {
            EXPECT_EQ(s.legendre(), 1);
        }
        // A random element has a root exactly when its Legendre symbol is not −1.
        const F b = F::random(rng);
        const int leg = b.legendre();
        const auto rb = cuzk::ff::sqrt(b);
        EXPECT_EQ(rb.has_value(), leg != -1) << "b=" << b.to_hex() << " legendre=" << leg;
        if (rb) {
            EXPECT_EQ(rb->square(), b) << "b=" << b.to_hex();
        }
        if (leg == -1) ++non_squares;
        if (this->HasFailure()) return;
    }
    EXPECT_GT(non_squares, n / 3);
    EXPECT_LT(non_squares, 2 * n / 3);
}

TEST(FpSqrt, MinusOneIsNotASquare) {
    // p ≡ 3 (mod 4)
    EXPECT_EQ((-Fp::one()).legendre(), -1);
    EXPECT_FALSE(cuzk::ff::sqrt(-Fp::one()).has_value());
    const auto four = cuzk::ff::sqrt(Fp::from_u64(4));
    ASSERT_TRUE(four.has_value());
    EXPECT_TRUE(*four == Fp::from_u64(2) || *four == -Fp::from_u64(2));
}

TEST(FrSqrt, RootsOfUnityOfHighTwoAdicOrder) {
    // r ≡ 1 (mod 2^32): Tonelli–Shanks has to walk the whole 2-Sylow subgroup here.
    EXPECT_EQ(Fr::from_u64(7).legendre(), -1);
    EXPECT_FALSE(cuzk::ff::sqrt(Fr::from_u64(7)).has_value());
    EXPECT_FALSE(cuzk::ff::sqrt(cuzk::ff::kFrRootOfUnity).has_value())
        << "a primitive 2^32-th root of unity is not a square";
    const auto m1 = cuzk::ff::sqrt(-Fr::one());
    ASSERT_TRUE(m1.has_value());
    EXPECT_EQ(m1->square(), -Fr::one());
    TestRng rng(0x5a27'0008);
    for (unsigned k = 0; k <= 31; ++k) {
        const Fr w = cuzk::ff::fr_root_of_unity(k);
        for (const Fr& x : {w, w * Fr::random(rng).square()}) {
            const auto r = cuzk::ff::sqrt(x);
            ASSERT_TRUE(r.has_value()) << "k=" << k << " x=" << x.to_hex();
            EXPECT_EQ(r->square(), x) << "k=" << k;
        }
        // ω_32^odd · square is a non-square.
        const Fr y = cuzk::ff::kFrRootOfUnity.pow(uint64_t{2} * k + 1) * Fr::random(rng).square();
        EXPECT_FALSE(cuzk::ff::sqrt(y).has_value()) << "k=" << k;
    }
}

// ---- Fp2 --------------------------------------------------------------------------------------

TEST(Fp2Laws, DefiningRelationAndNonResidue) {
    const Fp2 u = {Fp::zero(), Fp::one()};
    EXPECT_EQ(u * u, -Fp2::one()) << "u^2 = -1";
    EXPECT_EQ(u.square(), -Fp2::one());
    EXPECT_EQ(kXi, (Fp2{Fp::one(), Fp::one()}));
    TestRng rng(0xf202'0001);
    for (int it = 0; it < 1000; ++it) {
        const Fp2 a = rand_elem<Fp2>(rng);
        const Fp k = rand_elem<Fp>(rng);
        EXPECT_EQ(a.mul_by_nonresidue(), a * kXi) << "a=" << ::testing::PrintToString(a);
        EXPECT_EQ(a * k, (a * Fp2{k, Fp::zero()}));
        EXPECT_EQ(a.conjugate().conjugate(), a);
        EXPECT_EQ(a * a.conjugate(), (Fp2{a.norm(), Fp::zero()}));
        EXPECT_EQ(a.dbl(), a + a);
        if (HasFailure()) return;
    }
}

TEST(Fp2Laws, FrobeniusIsPowerOfP) {
    TestRng rng(0xf202'0002);
    for (int it = 0; it < 30; ++it) {
        const Fp2 a = rand_elem<Fp2>(rng), b = rand_elem<Fp2>(rng);
        for (unsigned k = 1; k <= 3; ++k) {
            EXPECT_EQ(a.frobenius(k), pow_naive(a, p_power(k))) << "k=" << k;
        }
        EXPECT_EQ(a.frobenius(0), a);
        EXPECT_EQ(a.frobenius(2), a);
        EXPECT_EQ(a.frobenius(1), a.conjugate());
        EXPECT_EQ((a * b).frobenius(1), a.frobenius(1) * b.frobenius(1));
        if (HasFailure()) return;
    }
}

TEST(Fp2Laws, SqrtAndLegendre) {
    TestRng rng(0xf202'0003);
    const Fp2 zero = Fp2::zero();
    // Zero, −1 (= u²) and ξ (a non-square: it is the tower's non-residue).
    const auto z = cuzk::ff::sqrt(zero);
    ASSERT_TRUE(z.has_value());
    EXPECT_EQ(*z, zero);
    EXPECT_EQ(cuzk::ff::legendre(zero), 0);
    const auto m1 = cuzk::ff::sqrt(-Fp2::one());
    ASSERT_TRUE(m1.has_value());
    EXPECT_EQ(m1->square(), -Fp2::one());
    EXPECT_EQ(cuzk::ff::legendre(kXi), -1);
    EXPECT_FALSE(cuzk::ff::sqrt(kXi).has_value());

    // (p² − 1)/2 for the Euler criterion in Fp2.
    BigInt<12> half = p_power(2).resize<12>();
    half.sub_in_place(BigInt<12>::from_u64(1));
    half = half.shr(1);

    int non_squares = 0, fp_non_squares = 0;
    const int n = 300;
    for (int it = 0; it < n; ++it) {
        // Squares: a root exists, squares back, and is ±a.
        const Fp2 a = rand_elem<Fp2>(rng);
        const Fp2 s = a.square();
        const auto r = cuzk::ff::sqrt(s);
        ASSERT_TRUE(r.has_value()) << "no root for the square of " << ::testing::PrintToString(a);
        EXPECT_EQ(r->square(), s) << "a=" << ::testing::PrintToString(a);
        EXPECT_TRUE(*r == a || *r == -a);
        // Random elements: a root exactly when the Legendre symbol is not −1, and the symbol
        // agrees with Euler's criterion b^((p²−1)/2).
        const Fp2 b = rand_elem<Fp2>(rng);
        const int leg = cuzk::ff::legendre(b);
        const Fp2 euler = pow_naive(b, half);
        const int want = b.is_zero() ? 0 : (euler == Fp2::one() ? 1 : -1);
        if (!b.is_zero()) {
            EXPECT_TRUE(euler == Fp2::one() || euler == -Fp2::one());
        }
        EXPECT_EQ(leg, want) << "b=" << ::testing::PrintToString(b);
        const auto rb = cuzk::ff::sqrt(b);
        EXPECT_EQ(rb.has_value(), leg != -1) << "b=" << ::testing::PrintToString(b);
        if (rb) {
            EXPECT_EQ(rb->square(), b);
        }
        if (leg == -1) ++non_squares;
        // Every element of Fp is a square in Fp2, including Fp's non-squares (the α = −1 case).
        const Fp c = Fp::random(rng);
        if (c.legendre() == -1) ++fp_non_squares;
        const Fp2 cc = {c, Fp::zero()};
        const auto rc = cuzk::ff::sqrt(cc);
        ASSERT_TRUE(rc.has_value()) << "no root in Fp2 for " << c.to_hex();
        EXPECT_EQ(rc->square(), cc);
        // Purely imaginary elements.
        const Fp2 ci = {Fp::zero(), c};
        const auto ri = cuzk::ff::sqrt(ci);
        EXPECT_EQ(ri.has_value(), cuzk::ff::legendre(ci) != -1);
        if (ri) {
            EXPECT_EQ(ri->square(), ci);
        }
        if (HasFailure()) return;
    }
    EXPECT_GT(non_squares, n / 4);
    EXPECT_LT(non_squares, 3 * n / 4);
    EXPECT_GT(fp_non_squares, n / 4);
}

// ---- Fp6 --------------------------------------------------------------------------------------

constexpr Fp6 kV = {Fp2::zero(), Fp2::one(), Fp2::zero()};

TEST(Fp6Laws, DefiningRelationAndSparseProducts) {
    EXPECT_EQ(kV * kV * kV, (Fp6{kXi, Fp2::zero(), Fp2::zero()})) << "v^3 = xi";
    TestRng rng(0xf606'0001);
    for (int it = 0; it < 500; ++it) {
        const Fp6 a = rand_elem<Fp6>(rng);
        const Fp2 b0 = rand_elem<Fp2>(rng), b1 = rand_elem<Fp2>(rng);
        EXPECT_EQ(a.mul_by_nonresidue(), a * kV) << "a=" << ::testing::PrintToString(a);
        EXPECT_EQ(a.mul_by_01(b0, b1), (a * Fp6{b0, b1, Fp2::zero()}))
            << "a=" << ::testing::PrintToString(a) << " b0=" << ::testing::PrintToString(b0)
            << " b1=" << ::testing::PrintToString(b1);
        EXPECT_EQ(a.mul_by_1(b1), (a * Fp6{Fp2::zero(), b1, Fp2::zero()}))
            << "a=" << ::testing::PrintToString(a) << " b1=" << ::testing::PrintToString(b1);
        EXPECT_EQ(a.mul_by_fp2(b0), (a * Fp6{b0, Fp2::zero(), Fp2::zero()}));
        EXPECT_EQ(-a, Fp6::zero() - a);
        if (HasFailure()) return;
    }
}

TEST(Fp6Laws, FrobeniusIsPowerOfP) {
    TestRng rng(0xf606'0002);
    for (int it = 0; it < 10; ++it) {
        const Fp6 a = rand_elem<Fp6>(rng), b = rand_elem<Fp6>(rng);
        for (unsigned k = 1; k <= 3; ++k) {
            EXPECT_EQ(a.frobenius(k), pow_naive(a, p_power(k)))
                << "k=" << k << " a=" << ::testing::PrintToString(a);
        }
        EXPECT_EQ(a.frobenius(0), a);
        EXPECT_EQ(a.frobenius(6), a) << "x^(p^6) = x in Fp6";
        // frobenius(k) = frobenius(1) applied k times, and a ring homomorphism.
        Fp6 iter = a;
        for (unsigned k = 1; k < 12; ++k) {
            iter = iter.frobenius(1);
            EXPECT_EQ(a.frobenius(k), iter) << "k=" << k;
            EXPECT_EQ((a * b).frobenius(k), a.frobenius(k) * b.frobenius(k)) << "k=" << k;
            EXPECT_EQ((a + b).frobenius(k), a.frobenius(k) + b.frobenius(k)) << "k=" << k;
        }
        if (HasFailure()) return;
    }
}

// ---- Fp12 -------------------------------------------------------------------------------------

TEST(Fp12Laws, DefiningRelationAndSparseProduct) {
    const Fp12 w = {Fp6::zero(), Fp6::one()};
    EXPECT_EQ(w * w, (Fp12{kV, Fp6::zero()})) << "w^2 = v";
    EXPECT_EQ(pow_naive(w, BigInt<1>::from_u64(6)),
              (Fp12{Fp6{kXi, Fp2::zero(), Fp2::zero()}, Fp6::zero()}))
        << "w^6 = xi";
    TestRng rng(0xf612'0001);
    for (int it = 0; it < 300; ++it) {
        const Fp12 a = rand_elem<Fp12>(rng);
        const Fp2 o0 = rand_elem<Fp2>(rng), o1 = rand_elem<Fp2>(rng), o4 = rand_elem<Fp2>(rng);
        const Fp12 sparse = {Fp6{o0, o1, Fp2::zero()}, Fp6{Fp2::zero(), o4, Fp2::zero()}};
        EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * sparse)
            << "a=" << ::testing::PrintToString(a) << " o0=" << ::testing::PrintToString(o0)
            << " o1=" << ::testing::PrintToString(o1) << " o4=" << ::testing::PrintToString(o4);
        // a · conj(a) lies in Fp6 (it is the norm to Fp6).
        EXPECT_EQ((a * a.conjugate()).c1, Fp6::zero());
        EXPECT_EQ(a.conjugate(), a.frobenius(6)) << "conjugation is x^(p^6)";
        EXPECT_EQ(a.is_one(), a == Fp12::one());
        if (HasFailure()) return;
    }
    EXPECT_TRUE(Fp12::one().is_one());
}

TEST(Fp12Laws, FrobeniusIsPowerOfP) {
    TestRng rng(0xf612'0002);
    for (int it = 0; it < 4; ++it) {
        const Fp12 a = rand_elem<Fp12>(rng), b = rand_elem<Fp12>(rng);
        for (unsigned k = 1; k <= 3; ++k) {
            EXPECT_EQ(a.frobenius(k), pow_naive(a, p_power(k)))
                << "k=" << k << " a=" << ::testing::PrintToString(a);
        }
        EXPECT_EQ(a.frobenius(0), a);
        EXPECT_EQ(a.frobenius(12), a) << "x^(p^12) = x in Fp12";
        Fp12 iter = a;
        for (unsigned k = 1; k <= 12; ++k) {
            iter = iter.frobenius(1);
            EXPECT_EQ(a.frobenius(k), iter) << "k=" << k;
            EXPECT_EQ((a * b).frobenius(k), a.frobenius(k) * b.frobenius(k)) << "k=" << k;
        }
        EXPECT_EQ(iter, a) << "frobenius(1) twelve times is the identity";
        if (HasFailure()) return;
    }
}

// The constants against direct exponentiations of ξ with exact exponents (p^k − 1)/6.
TEST(Fp12Laws, FrobeniusConstants) {
    const auto& fc = cuzk::ff::frobenius_constants();
    for (unsigned k = 0; k < 12; ++k) {
        BigInt<kWide> e = p_power(k);
        e.sub_in_place(BigInt<kWide>::from_u64(1));
        ASSERT_EQ(e.div_small_in_place(6), 0u) << "6 must divide p^" << k << " - 1";
        const Fp2 gamma = pow_naive(kXi, e);
        EXPECT_EQ(fc.fp12_c1[k], gamma) << "xi^((p^" << k << " - 1)/6)";
        if (k < 6) {
            EXPECT_EQ(fc.fp6_c1[k], pow_naive(gamma, BigInt<1>::from_u64(2))) << "k=" << k;
            EXPECT_EQ(fc.fp6_c2[k], pow_naive(gamma, BigInt<1>::from_u64(4))) << "k=" << k;
        }
        // γ_k^6 = ξ^(p^k − 1) = frobenius_k(ξ) / ξ.
        EXPECT_EQ(pow_naive(gamma, BigInt<1>::from_u64(6)) * kXi, kXi.frobenius(k)) << "k=" << k;
    }
}

// f^((p^6 − 1)(p^2 + 1)) for random f lies in the cyclotomic subgroup, where the Granger–Scott
// squaring must agree with the generic one.
TEST(Fp12Laws, CyclotomicSquareAndPow) {
    TestRng rng(0xf612'0003);
    for (int it = 0; it < 20; ++it) {
        const Fp12 f = rand_elem<Fp12>(rng);
        if (f == Fp12::zero()) continue;
        const Fp12 g = f.conjugate() * f.inverse();  // f^(p^6 − 1)
        Fp12 h = g.frobenius(2) * g;                  // ·(p^2 + 1)
        // Membership: norm to Fp6 is one, and h^(p^4 − p^2 + 1) = 1.
        ASSERT_EQ(h.conjugate() * h, Fp12::one());
        ASSERT_EQ(h.frobenius(4) * h, h.frobenius(2));
        EXPECT_EQ(h.conjugate(), h.inverse());
        for (int s = 0; s < 6; ++s) {
            EXPECT_EQ(h.cyclotomic_square(), h.square())
                << "step " << s << ", h=" << ::testing::PrintToString(h);
            EXPECT_EQ(h.cyclotomic_square(), h * h);
            h = h.square();
        }
        const uint64_t exps[] = {0,
                                 1,
                                 2,
                                 3,
                                 5,
                                 cuzk::ff::kBlsX,
                                 uint64_t{1} << 63,
                                 ~uint64_t{0},
                                 rng.next_u64(),
                                 rng.next_u64() >> 17};
        for (const uint64_t e : exps) {
            const BigInt<1> be = BigInt<1>::from_u64(e);
            const Fp12 want = h.pow(be);
            EXPECT_EQ(h.cyclotomic_pow(e), want) << "e=" << e;
            if (e == exps[8]) {
                EXPECT_EQ(want, pow_naive(h, be)) << "e=" << e;
            }
        }
        if (HasFailure()) return;
    }
}

}  // namespace

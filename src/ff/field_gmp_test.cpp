// Fp and Fr checked against GMP.
//
// Every operation is run on edge values and on thousands of random values and compared with the
// same operation done by GMP (mpz) on canonical integers. Field elements are built from, and read
// back through, their Montgomery limbs computed by GMP (v·R mod p), so the arithmetic checks do
// not depend on from_int/to_int (which are checked on their own) and catch results that are not
// fully reduced. The Montgomery constants, the moduli and Fr's root of unity are recomputed by
// GMP from independent sources (the published decimal moduli, the BLS parameter x), not from
// params.hpp's derivation.
#include <gmp.h>
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "util/rng.hpp"
#include "util/status.hpp"

namespace cuzk::ff {
// gtest prints field elements through this (found by argument-dependent lookup).
template <class P>
void PrintTo(const Field<P>& f, std::ostream* os) {
    *os << P::kName << "(" << f.to_hex() << ")";
}
}  // namespace cuzk::ff

namespace {

using cuzk::ff::BigInt;
using cuzk::ff::Fp;
using cuzk::ff::Fr;
using cuzk::util::TestRng;

// ---- GMP bridge ------------------------------------------------------------------------------

mpz_class mpz_from_limbs(const uint64_t* limbs, size_t n) {
    mpz_class z;
    mpz_import(z.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, limbs);
    return z;
}

template <size_t N>
mpz_class to_mpz(const BigInt<N>& v) {
    return mpz_from_limbs(v.limb, N);
}

template <size_t N>
BigInt<N> to_bigint(const mpz_class& z) {
    BigInt<N> v;
    if (sgn(z) < 0 || mpz_sizeinbase(z.get_mpz_t(), 2) > 64 * N) {
        ADD_FAILURE() << "test bug: 0x" << z.get_str(16) << " does not fit " << N << " limbs";
        return v;
    }
    size_t count = 0;
    mpz_export(v.limb, &count, -1, sizeof(uint64_t), 0, 0, z.get_mpz_t());
    return v;
}

mpz_class reduce(const mpz_class& a, const mpz_class& m) {
    mpz_class r;
    mpz_mod(r.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());  // always in [0, m)
    return r;
}

mpz_class pow2(size_t k) {
    mpz_class z;
    mpz_ui_pow_ui(z.get_mpz_t(), 2, k);
    return z;
}

mpz_class powm(const mpz_class& b, const mpz_class& e, const mpz_class& m) {
    mpz_class r;
    mpz_powm(r.get_mpz_t(), b.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
    return r;
}

std::string hex(const mpz_class& z) { return "0x" + z.get_str(16); }

// A uniform integer in [0, 2^bits).
mpz_class random_bits(TestRng& rng, size_t bits) {
    std::vector<uint64_t> limbs((bits + 63) / 64);
    for (auto& l : limbs) l = rng.next_u64();
    if (bits % 64 != 0) limbs.back() &= (uint64_t{1} << (bits % 64)) - 1;
    return mpz_from_limbs(limbs.data(), limbs.size());
}

// A uniform integer in [0, bound), bound > 0.
mpz_class random_below(TestRng& rng, const mpz_class& bound) {
    const size_t bits = mpz_sizeinbase(bound.get_mpz_t(), 2);
    for (;;) {
        mpz_class v = random_bits(rng, bits);
        if (v < bound) return v;
    }
}

// ---- per-field reference data ---------------------------------------------------------------

template <class F>
struct FieldInfo;

template <class F>
struct ParamsOf;
template <class P>
struct ParamsOf<cuzk::ff::Field<P>> : P {};

// Moduli in decimal as published (IETF draft-irtf-cfrg-pairing-friendly-curves, BLS12-381;
// also the ZCash/bellman documentation), independent of the hex literals in params.hpp.
template <>
struct FieldInfo<Fp> {
    static constexpr const char* kName = "Fp";
    static constexpr const char* kOtherName = "Fr";
    static constexpr const char* kModulusDecimal =
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687"
        "629129015664037894272559787";
    static constexpr size_t kBits = 381;
    static constexpr uint64_t kSeed = 0xf9a1'0001;
};
template <>
struct FieldInfo<Fr> {
    static constexpr const char* kName = "Fr";
    static constexpr const char* kOtherName = "Fp";
    static constexpr const char* kModulusDecimal =
        "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    static constexpr size_t kBits = 255;
    static constexpr uint64_t kSeed = 0xf7a1'0002;
};

template <class F>
class Ref {
   public:
    static constexpr size_t N = F::kLimbs;
    using Info = FieldInfo<F>;

    mpz_class p;      // the modulus, from its decimal string
    mpz_class R;      // 2^(64N) mod p
    mpz_class R2;     // R² mod p
    mpz_class Rinv;   // R^-1 mod p
    // values: canonical integers in [0, p). Each edge or structured value v appears twice: as
    // the value v, and as the value v·R^−1 whose Montgomery limbs are v (so limb-level edge
    // cases reach add/sub/neg, which work on the limbs directly). values[0, num_core) are the
    // core edge values, used as one operand against every value.
    size_t num_core = 0;
    std::vector<mpz_class> values;
    std::vector<F> elems;           // elems[i] holds values[i] (built from GMP's Montgomery form)
    std::vector<mpz_class> raws;    // raws[i] = values[i]·R mod p, the limbs of elems[i]
    std::vector<std::pair<size_t, size_t>> pairs;  // operand index pairs for binary operations

    static const Ref& get() {
        static const Ref ref;
        return ref;
    }

    // The element whose Montgomery limbs are v·R mod p (computed by GMP, not by the field code).
    F make(const mpz_class& v) const { return F::raw(to_bigint<N>(reduce(v * R, p))); }
    mpz_class raw(const F& f) const { return mpz_from_limbs(f.limb, N); }
    mpz_class value(const F& f) const { return reduce(raw(f) * Rinv, p); }
    // values[i] and its Montgomery limbs, for failure messages.
    std::string desc(size_t i) const {
        return hex(values[i]) + " [limbs " + hex(raw(elems[i])) + "]";
    }

    // f holds exactly v mod p: its limbs are the reduced Montgomery form of v.
    ::testing::AssertionResult holds(const F& f, const mpz_class& v) const {
        const mpz_class want_value = reduce(v, p);
        const mpz_class want = reduce(want_value * R, p);
        const mpz_class got = raw(f);
        if (got == want) return ::testing::AssertionSuccess();
        auto failure = ::testing::AssertionFailure();
        failure << "expected " << hex(want_value) << " (Montgomery limbs " << hex(want)
                << "), got limbs " << hex(got);
        if (got >= p)
            failure << " (not reduced: limbs >= p)";
        else
            failure << " = value " << hex(reduce(got * Rinv, p));
        return failure;
    }

    // Fast form of holds() for hot loops: f's limbs equal want_limbs (= v·R mod p, as limbs);
    // on a mismatch the message of holds(f, v).
    ::testing::AssertionResult same(const F& f, const BigInt<N>& want_limbs,
                                    const mpz_class& v) const {
        bool equal = true;
        for (size_t l = 0; l < N; ++l) equal = equal && f.limb[l] == want_limbs.limb[l];
        if (equal) return ::testing::AssertionSuccess();
        return holds(f, v);
    }

   private:
    Ref() {
        p = mpz_class(Info::kModulusDecimal, 10);
        R = reduce(pow2(64 * N), p);
        R2 = reduce(R * R, p);
        mpz_invert(Rinv.get_mpz_t(), R.get_mpz_t(), p.get_mpz_t());

        const size_t bits = Info::kBits;
        const mpz_class top_unit = pow2(64 * (N - 1));  // weight of the top limb
        const mpz_class top_limb = p / top_unit;        // p's top limb
        // Core edge values.
        const std::vector<mpz_class> core = {
            0, 1, 2, 3, p - 1, p - 2, p - 3, (p - 1) / 2, (p + 1) / 2, (p - 3) / 2, (p + 3) / 2,
            pow2(bits - 1), pow2(bits - 1) - 1, pow2(bits - 1) + 1,
            top_limb * top_unit,                       // p's top limb, zero below (< p)
            (top_limb - 1) * top_unit + top_unit - 1,  // all ones below a smaller top limb
            top_limb * top_unit + 1,                   // p's top limb, one below
            pow2(bits - 1) + top_unit - 1,             // top bit and all lower limbs set
            pow2(64) - 1, pow2(64), R, R2, Rinv, p - R, reduce(pow2(8 * F::kBytes) - 1, p)};
        // Further edge values: powers of two, 2^k − 1 and p − 2^k over the whole width.
        std::vector<mpz_class> edges;
        for (size_t k = 0; k < bits; ++k) {
            edges.push_back(pow2(k));
            if (k > 0) edges.push_back(pow2(k) - 1);
            if (k + 1 < bits) edges.push_back(p - pow2(k));
        }
        // Structured random values.
        TestRng rng(Info::kSeed);
        for (int i = 0; i < 200; ++i) {  // the top bit set: [2^(bits−1), p)
            edges.push_back(pow2(bits - 1) + random_below(rng, p - pow2(bits - 1)));
        }
        for (int i = 0; i < 200; ++i) {  // just below p
            edges.push_back(p - 1 - mpz_class(rng.next_u64()));
        }
        for (int i = 0; i < 200; ++i) edges.push_back(mpz_class(rng.next_u64()));  // one limb
        for (int i = 0; i < 200; ++i) {  // the top limb equal to p's, random below
            edges.push_back(top_limb * top_unit + random_below(rng, p % top_unit));
        }
        for (int i = 0; i < 200; ++i) {  // sparse: a few random bits
            mpz_class v = 0;
            const uint64_t n_bits = 1 + rng.uniform(4);
            for (uint64_t j = 0; j < n_bits; ++j) v |= pow2(rng.uniform(bits - 1));
            edges.push_back(v);
        }
        const std::vector<mpz_class>* const lists[] = {&core, &edges};
        for (const auto* list : lists) {
            for (const auto& v : *list) values.push_back(v);
            for (const auto& v : *list) values.push_back(reduce(v * Rinv, p));  // limbs = v
            if (list == &core) num_core = values.size();
        }
        // Uniform random values.
        for (int i = 0; i < 1000; ++i) values.push_back(random_below(rng, p));
        for (const auto& v : values) {
            if (sgn(v) < 0 || v >= p) ADD_FAILURE() << "test bug: value out of range " << hex(v);
            elems.push_back(make(v));
            raws.push_back(reduce(v * R, p));
        }

        // Operand pairs: every core value with every value (both orders), consecutive values,
        // and random pairs.
        for (size_t i = 0; i < num_core; ++i) {
            for (size_t j = 0; j < values.size(); ++j) {
                pairs.emplace_back(i, j);
                pairs.emplace_back(j, i);
            }
        }
        for (size_t i = 0; i + 1 < values.size(); ++i) pairs.emplace_back(i, i + 1);
        for (int i = 0; i < 3000; ++i) {
            pairs.emplace_back(rng.uniform(values.size()), rng.uniform(values.size()));
        }
    }
};

template <class F>
class FieldGmpTest : public ::testing::Test {};

struct FieldName {
    template <class F>
    static std::string GetName(int) {
        return FieldInfo<F>::kName;
    }
};

using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(FieldGmpTest, PrimeFields, FieldName);

// ---- moduli and Montgomery constants ----------------------------------------------------------

TYPED_TEST(FieldGmpTest, ModulusMatchesPublishedValue) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    EXPECT_EQ(to_mpz(F::modulus()), ref.p);
    EXPECT_EQ(to_mpz(ParamsOf<F>::kModulus), ref.p);
    EXPECT_GT(mpz_probab_prime_p(ref.p.get_mpz_t(), 40), 0) << "modulus is not prime";
    EXPECT_EQ(mpz_sizeinbase(ref.p.get_mpz_t(), 2), FieldInfo<F>::kBits);
    EXPECT_EQ(F::bits(), FieldInfo<F>::kBits);
}

// p and r from the BLS parameter x = −0xd201000000010000:
//   r = x⁴ − x² + 1,  p = (x − 1)² r / 3 + x.
TEST(FieldGmp, ModuliFromBlsParameter) {
    const mpz_class x = -mpz_class("d201000000010000", 16);
    EXPECT_EQ(mpz_class(cuzk::ff::kBlsX), mpz_class("d201000000010000", 16));
    EXPECT_TRUE(cuzk::ff::kBlsXIsNegative);
    const mpz_class r = x * x * x * x - x * x + 1;
    const mpz_class t = (x - 1) * (x - 1) * r;
    EXPECT_EQ(reduce(t, 3), 0);
    const mpz_class p = t / 3 + x;
    EXPECT_EQ(to_mpz(Fr::modulus()), r);
    EXPECT_EQ(to_mpz(Fp::modulus()), p);
    EXPECT_EQ(reduce(p, 4), 3) << "sqrt in Fp relies on p = 3 mod 4";
    // r − 1 = 2^32 · t with t odd.
    const mpz_class r1 = r - 1;
    EXPECT_EQ(mpz_scan1(r1.get_mpz_t(), 0), cuzk::ff::FrParams::kTwoAdicity);
    EXPECT_EQ(cuzk::ff::FrParams::kTwoAdicity, 32u);
}

TYPED_TEST(FieldGmpTest, MontgomeryConstants) {
    using F = TypeParam;
    constexpr size_t N = F::kLimbs;
    const auto& ref = Ref<F>::get();
    const auto& mont = ParamsOf<F>::kMont;
    EXPECT_EQ(to_mpz(mont.modulus), ref.p);
    EXPECT_EQ(to_mpz(mont.r), reduce(pow2(64 * N), ref.p)) << "R mod p";
    EXPECT_EQ(to_mpz(mont.r2), reduce(pow2(128 * N), ref.p)) << "R^2 mod p";
    // −p^−1 mod 2^64
    const mpz_class w = pow2(64);
    mpz_class p_inv;
    ASSERT_NE(mpz_invert(p_inv.get_mpz_t(), ref.p.get_mpz_t(), w.get_mpz_t()), 0);
    EXPECT_EQ(mpz_class(mont.inv), reduce(-p_inv, w)) << "-p^-1 mod 2^64";
    EXPECT_EQ(reduce(mpz_class(mont.inv) * ref.p, w), w - 1);
    // one() is R in Montgomery limbs; zero() is all-zero limbs.
    EXPECT_EQ(ref.raw(F::one()), ref.R);
    EXPECT_EQ(ref.raw(F::zero()), 0);
    EXPECT_TRUE(F::zero().is_zero());
    EXPECT_FALSE(F::one().is_zero());
}

// ---- representation ---------------------------------------------------------------------------

TYPED_TEST(FieldGmpTest, FromIntToIntRoundTrip) {
    using F = TypeParam;
    constexpr size_t N = F::kLimbs;
    const auto& ref = Ref<F>::get();
    TestRng rng(FieldInfo<F>::kSeed + 1);
    const mpz_class capacity = pow2(64 * N);
    size_t cases = 0;
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& v = ref.values[i];
        const F f = F::from_int(to_bigint<N>(v));
        EXPECT_TRUE(ref.holds(f, v)) << "from_int(" << hex(v) << ")";
        EXPECT_EQ(to_mpz(ref.elems[i].to_int()), v) << "to_int of " << hex(v);
        EXPECT_EQ(to_mpz(f.to_int()), v) << "to_int(from_int(" << hex(v) << "))";
        // Non-canonical inputs are reduced: v + k·p for every k that fits in N limbs.
        for (mpz_class w = v + ref.p; w < capacity; w += ref.p) {
            EXPECT_TRUE(ref.holds(F::from_int(to_bigint<N>(w)), v)) << "from_int(" << hex(w) << ")";
        }
        // from_hex on the same value.
        EXPECT_TRUE(ref.holds(F::from_hex(hex(v)), v)) << "from_hex(" << hex(v) << ")";
        ++cases;
        if (this->HasFailure()) return;
    }
    // Arbitrary N-limb integers, including the largest.
    std::vector<mpz_class> wide = {capacity - 1, capacity - ref.p, ref.p, ref.p + 1,
                                   2 * ref.p - 1, 2 * ref.p};
    for (int i = 0; i < 2000; ++i) wide.push_back(random_bits(rng, 64 * N));
    for (const auto& w : wide) {
        const F f = F::from_int(to_bigint<N>(w));
        EXPECT_TRUE(ref.holds(f, w)) << "from_int(" << hex(w) << ")";
        EXPECT_EQ(to_mpz(f.to_int()), reduce(w, ref.p)) << "to_int(from_int(" << hex(w) << "))";
        ++cases;
        if (this->HasFailure()) return;
    }
    for (int i = 0; i < 2000; ++i) {
        const uint64_t v = i < 64 ? (uint64_t{1} << i) - 1 : rng.next_u64();
        EXPECT_TRUE(ref.holds(F::from_u64(v), mpz_class(v))) << "from_u64(" << v << ")";
        ++cases;
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(cases));
}

// Field::random gives reduced limbs, uniform below p: the top bit of the limbs (which random
// masks to the modulus width) is set about as often as it should be.
TYPED_TEST(FieldGmpTest, RandomIsCanonical) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    TestRng rng(FieldInfo<F>::kSeed + 2);
    const mpz_class half = pow2(FieldInfo<F>::kBits - 1);
    int top_bit_set = 0;
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        const F f = F::random(rng);
        ASSERT_LT(ref.raw(f), ref.p) << "Field::random returned non-reduced limbs";
        if (ref.raw(f) >= half) ++top_bit_set;
    }
    // P(limbs ≥ 2^(bits−1)) = 1 − 2^(bits−1)/p: about 0.38 for Fp, 0.09 for Fr.
    const double expected = 1.0 - half.get_d() / ref.p.get_d();
    EXPECT_NEAR(top_bit_set / double{n}, expected, 0.05);
}

// ---- arithmetic -------------------------------------------------------------------------------

// Addition is linear, so the expected limbs are the sums of the operands' limbs mod p. Both
// host paths (the x86 adc/sbb chains and the generic limb code) are checked: the run-time switch
// CUZK_FF_ASM selects them together with the product.
TYPED_TEST(FieldGmpTest, AddSub) {
    using F = TypeParam;
    constexpr size_t N = F::kLimbs;
    const auto& ref = Ref<F>::get();
    const bool saved = cuzk::ff::fast_mul_enabled();
    size_t cases = 0;
    for (const bool fast : {true, false}) {
        cuzk::ff::set_fast_mul_enabled(fast);
        for (const auto& [i, j] : ref.pairs) {
            const F& a = ref.elems[i];
            const F& b = ref.elems[j];
            const mpz_class& x = ref.values[i];
            const mpz_class& y = ref.values[j];
            mpz_class sum = ref.raws[i] + ref.raws[j];
            if (sum >= ref.p) sum -= ref.p;
            mpz_class diff = ref.raws[i] - ref.raws[j];
            if (sgn(diff) < 0) diff += ref.p;
            const BigInt<N> want_sum = to_bigint<N>(sum), want_diff = to_bigint<N>(diff);
            EXPECT_TRUE(ref.same(a + b, want_sum, x + y))
                << ref.desc(i) << " + " << ref.desc(j) << " (fast path " << fast << ")";
            EXPECT_TRUE(ref.same(a - b, want_diff, x - y))
                << ref.desc(i) << " - " << ref.desc(j) << " (fast path " << fast << ")";
            F c = a;
            c += b;
            EXPECT_TRUE(ref.same(c, want_sum, x + y)) << ref.desc(i) << " += " << ref.desc(j);
            c = a;
            c -= b;
            EXPECT_TRUE(ref.same(c, want_diff, x - y)) << ref.desc(i) << " -= " << ref.desc(j);
            ++cases;
            if (this->HasFailure()) break;
        }
        if (this->HasFailure()) break;
    }
    cuzk::ff::set_fast_mul_enabled(saved);
    this->RecordProperty("cases", static_cast<int>(cases));
}

TYPED_TEST(FieldGmpTest, NegDbl) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const F& a = ref.elems[i];
        const mpz_class& x = ref.values[i];
        EXPECT_TRUE(ref.holds(-a, -x)) << "-" << ref.desc(i);
        EXPECT_TRUE(ref.holds(a.dbl(), 2 * x)) << "dbl " << ref.desc(i);
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(ref.values.size()));
}

// The product on every host path (Int128Words and, when compiled in, the mulx/adcx/adox
// assembly) and the portable reference product, limb for limb against GMP. The operands include
// limb-level edge cases (values whose Montgomery limbs are 0, 1, p − 1, 2^k, ...).
TYPED_TEST(FieldGmpTest, MulMatchesGmpAndReference) {
    using F = TypeParam;
    constexpr size_t N = F::kLimbs;
    const auto& ref = Ref<F>::get();
    const bool saved = cuzk::ff::fast_mul_enabled();
    std::vector<bool> paths = {false};  // fast_mul_enabled settings to run
    if (cuzk::ff::kFastMulCompiled) paths.push_back(true);
    for (const bool fast : paths) {
        cuzk::ff::set_fast_mul_enabled(fast);
        const bool adx = cuzk::ff::active_mul_path<N>() == cuzk::ff::MulPath::kAdx;
        EXPECT_EQ(adx, fast) << "the switch did not select the expected product path";
    }
    size_t cases = 0;
    for (const auto& [i, j] : ref.pairs) {
        const F& a = ref.elems[i];
        const F& b = ref.elems[j];
        const mpz_class& x = ref.values[i];
        const mpz_class& y = ref.values[j];
        const mpz_class xy = x * y;
        const BigInt<N> want = to_bigint<N>(reduce(reduce(xy, ref.p) * ref.R, ref.p));
        EXPECT_TRUE(ref.same(F::mul_reference(a, b), want, xy))
            << "mul_reference " << ref.desc(i) << " * " << ref.desc(j);
        for (const bool fast : paths) {
            cuzk::ff::set_fast_mul_enabled(fast);
            const char* path = fast ? "adx" : "int128";
            EXPECT_TRUE(ref.same(a * b, want, xy))
                << path << ": " << ref.desc(i) << " * " << ref.desc(j);
            F c = a;
            c *= b;
            EXPECT_TRUE(ref.same(c, want, xy))
                << path << ": " << ref.desc(i) << " *= " << ref.desc(j);
        }
        ++cases;
        if (this->HasFailure()) break;
    }
    // square() goes through the same product.
    for (size_t i = 0; i < ref.values.size() && !this->HasFailure(); ++i) {
        const mpz_class& x = ref.values[i];
        for (const bool fast : paths) {
            cuzk::ff::set_fast_mul_enabled(fast);
            EXPECT_TRUE(ref.holds(ref.elems[i].square(), x * x))
                << (fast ? "adx" : "int128") << ": square " << ref.desc(i);
        }
    }
    cuzk::ff::set_fast_mul_enabled(saved);
    this->RecordProperty("cases", static_cast<int>(cases));
}

TYPED_TEST(FieldGmpTest, Square) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& x = ref.values[i];
        EXPECT_TRUE(ref.holds(ref.elems[i].square(), x * x)) << "square " << hex(x);
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(ref.values.size()));
}

TYPED_TEST(FieldGmpTest, Inverse) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& x = ref.values[i];
        mpz_class want = 0;  // the inverse of zero is zero
        if (sgn(x) != 0) {
            ASSERT_NE(mpz_invert(want.get_mpz_t(), x.get_mpz_t(), ref.p.get_mpz_t()), 0);
        }
        EXPECT_TRUE(ref.holds(ref.elems[i].inverse(), want)) << "inverse " << hex(x);
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(ref.values.size()));
}

TYPED_TEST(FieldGmpTest, Pow) {
    using F = TypeParam;
    constexpr size_t N = F::kLimbs;
    const auto& ref = Ref<F>::get();
    TestRng rng(FieldInfo<F>::kSeed + 3);
    size_t cases = 0;
    // Special exponents on the core values.
    const std::vector<mpz_class> special = {0,         1,         2,          3,
                                            ref.p - 1, ref.p - 2, ref.p,      ref.p + 1,
                                            (ref.p - 1) / 2,      pow2(64) - 1, pow2(64 * N) - 1};
    for (size_t i = 0; i < ref.num_core; ++i) {
        for (const auto& e : special) {
            EXPECT_TRUE(ref.holds(ref.elems[i].pow(to_bigint<N>(e)), powm(ref.values[i], e, ref.p)))
                << hex(ref.values[i]) << " ^ " << hex(e);
            ++cases;
        }
        if (this->HasFailure()) return;
    }
    // Random exponents of three widths on every third value.
    for (size_t i = 0; i < ref.values.size(); i += 3) {
        const F& a = ref.elems[i];
        const mpz_class& x = ref.values[i];
        const mpz_class e1 = random_bits(rng, 64 * N);
        EXPECT_TRUE(ref.holds(a.pow(to_bigint<N>(e1)), powm(x, e1, ref.p)))
            << hex(x) << " ^ " << hex(e1);
        const mpz_class e2 = random_bits(rng, 128 * N);
        EXPECT_TRUE(ref.holds(a.pow(to_bigint<2 * N>(e2)), powm(x, e2, ref.p)))
            << hex(x) << " ^ " << hex(e2);
        const uint64_t e3 = rng.next_u64() >> rng.uniform(64);
        EXPECT_TRUE(ref.holds(a.pow(e3), powm(x, mpz_class(e3), ref.p))) << hex(x) << " ^ " << e3;
        cases += 3;
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(cases));
}

TYPED_TEST(FieldGmpTest, Legendre) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    int counts[3] = {0, 0, 0};
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& x = ref.values[i];
        const int want = mpz_legendre(x.get_mpz_t(), ref.p.get_mpz_t());
        const int got = ref.elems[i].legendre();
        EXPECT_EQ(got, want) << "legendre " << hex(x);
        ++counts[want + 1];
        if (this->HasFailure()) return;
    }
    EXPECT_GT(counts[0], 100) << "too few non-squares among the cases";
    EXPECT_GT(counts[2], 100) << "too few squares among the cases";
    this->RecordProperty("cases", static_cast<int>(ref.values.size()));
}

TYPED_TEST(FieldGmpTest, LexicographicOrderAndHex) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    const mpz_class half = (ref.p - 1) / 2;
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& x = ref.values[i];
        EXPECT_EQ(ref.elems[i].is_lexicographically_largest(), x > half) << hex(x);
        std::string digits = x.get_str(16);
        digits.insert(0, 16 * F::kLimbs - digits.size(), '0');
        EXPECT_EQ(ref.elems[i].to_hex(), "0x" + digits);
        if (this->HasFailure()) return;
    }
}

// ---- byte encodings ---------------------------------------------------------------------------

template <size_t K>
std::array<uint8_t, K> gmp_bytes(const mpz_class& v, bool big_endian) {
    std::array<uint8_t, K> out{};
    if (sgn(v) == 0) return out;
    std::vector<uint8_t> buf((mpz_sizeinbase(v.get_mpz_t(), 2) + 7) / 8);
    size_t count = 0;
    mpz_export(buf.data(), &count, big_endian ? 1 : -1, 1, 1, 0, v.get_mpz_t());
    if (count > K) {
        ADD_FAILURE() << "test bug: " << hex(v) << " longer than " << K << " bytes";
        return out;
    }
    for (size_t i = 0; i < count; ++i) {
        if (big_endian)
            out[K - count + i] = buf[i];
        else
            out[i] = buf[i];
    }
    return out;
}

template <size_t K>
std::string bytes_hex(const std::array<uint8_t, K>& b) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    for (uint8_t c : b) {
        s.push_back(kDigits[c >> 4]);
        s.push_back(kDigits[c & 15]);
    }
    return s;
}

TYPED_TEST(FieldGmpTest, ToBytesMatchesGmpExport) {
    using F = TypeParam;
    constexpr size_t K = F::kBytes;
    const auto& ref = Ref<F>::get();
    for (size_t i = 0; i < ref.values.size(); ++i) {
        const mpz_class& x = ref.values[i];
        std::array<uint8_t, K> be{}, le{};
        ref.elems[i].to_bytes_be(be);
        ref.elems[i].to_bytes_le(le);
        EXPECT_EQ(bytes_hex(be), bytes_hex(gmp_bytes<K>(x, true))) << "to_bytes_be " << hex(x);
        EXPECT_EQ(bytes_hex(le), bytes_hex(gmp_bytes<K>(x, false))) << "to_bytes_le " << hex(x);
        // Round trips.
        auto from_be = F::from_bytes_be(be);
        auto from_le = F::from_bytes_le(le);
        ASSERT_TRUE(from_be.ok()) << "from_bytes_be rejected " << hex(x) << ": "
                                  << from_be.status().to_string();
        ASSERT_TRUE(from_le.ok()) << "from_bytes_le rejected " << hex(x) << ": "
                                  << from_le.status().to_string();
        EXPECT_TRUE(ref.holds(*from_be, x)) << "from_bytes_be " << hex(x);
        EXPECT_TRUE(ref.holds(*from_le, x)) << "from_bytes_le " << hex(x);
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(ref.values.size()));
}

// Decodes v (< 2^(8K)) both ways; expects rejection iff v ≥ p, with a message naming the field.
template <class F>
void check_decode(const Ref<F>& ref, const mpz_class& v) {
    constexpr size_t K = F::kBytes;
    const bool canonical = v < ref.p;
    for (const bool big_endian : {true, false}) {
        const auto bytes = gmp_bytes<K>(v, big_endian);
        const auto r = big_endian ? F::from_bytes_be(bytes) : F::from_bytes_le(bytes);
        const char* how = big_endian ? "from_bytes_be(" : "from_bytes_le(";
        if (canonical) {
            ASSERT_TRUE(r.ok()) << how << hex(v) << ") rejected a canonical value: "
                                << r.status().to_string();
            EXPECT_TRUE(ref.holds(*r, v)) << how << hex(v) << ")";
        } else {
            ASSERT_FALSE(r.ok()) << how << hex(v) << ") accepted a value >= modulus";
            const auto status = r.status();
            EXPECT_EQ(status.code(), cuzk::util::StatusCode::kInvalidArgument);
            EXPECT_NE(status.message().find(FieldInfo<F>::kName), std::string::npos)
                << "message does not name the field: " << status.message();
            EXPECT_EQ(status.message().find(FieldInfo<F>::kOtherName), std::string::npos)
                << "message names the wrong field: " << status.message();
        }
    }
}

TYPED_TEST(FieldGmpTest, FromBytesRejectsNonCanonical) {
    using F = TypeParam;
    const auto& ref = Ref<F>::get();
    const size_t bits = FieldInfo<F>::kBits;
    const mpz_class top = pow2(8 * F::kBytes);  // first value past the encoding
    // Named cases first.
    const std::vector<mpz_class> named = {ref.p,         ref.p + 1,      top - 1,
                                          ref.p - 1,     0,              1,
                                          pow2(bits),    pow2(bits) - 1, top / 2,
                                          ref.p + ref.p, top - ref.p,    ref.p + pow2(64)};
    for (const auto& v : named) {
        check_decode(ref, v);
        if (this->HasFailure()) return;
    }
    // p − 1 is accepted, p, p + 1 and the all-ones encoding are rejected (stated explicitly).
    {
        const auto max_be = gmp_bytes<F::kBytes>(top - 1, true);
        const auto r = F::from_bytes_be(max_be);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.status().message().find(FieldInfo<F>::kName), std::string::npos)
            << r.status().message();
        EXPECT_TRUE(F::from_bytes_be(gmp_bytes<F::kBytes>(ref.p - 1, true)).ok());
        EXPECT_TRUE(F::from_bytes_le(gmp_bytes<F::kBytes>(ref.p - 1, false)).ok());
        EXPECT_FALSE(F::from_bytes_be(gmp_bytes<F::kBytes>(ref.p, true)).ok());
        EXPECT_FALSE(F::from_bytes_le(gmp_bytes<F::kBytes>(ref.p + 1, false)).ok());
    }
    // Values just above p, just below, above 2^bits, and uniform random byte strings.
    TestRng rng(FieldInfo<F>::kSeed + 4);
    size_t cases = named.size();
    for (int i = 0; i < 1000; ++i) {
        check_decode(ref, ref.p + mpz_class(rng.next_u64()));
        check_decode(ref, ref.p - 1 - mpz_class(rng.next_u64()));
        check_decode(ref, pow2(bits) + random_below(rng, top - pow2(bits)));
        check_decode(ref, random_bits(rng, 8 * F::kBytes));
        cases += 4;
        if (this->HasFailure()) return;
    }
    this->RecordProperty("cases", static_cast<int>(cases));
}

// ---- Fr's roots of unity ----------------------------------------------------------------------

TEST(FrGmp, RootOfUnityIsSevenToTheOddPart) {
    const auto& ref = Ref<Fr>::get();
    const mpz_class& r = ref.p;
    EXPECT_EQ(cuzk::ff::FrParams::kMultiplicativeGenerator, 7u);
    EXPECT_EQ(mpz_legendre(mpz_class(7).get_mpz_t(), r.get_mpz_t()), -1)
        << "7 must be a non-square so that 7^t has order exactly 2^32";
    const mpz_class t = (r - 1) / pow2(32);
    EXPECT_EQ(reduce(t, 2), 1) << "t must be odd";
    const mpz_class root = powm(7, t, r);
    EXPECT_TRUE(ref.holds(cuzk::ff::kFrRootOfUnity, root))
        << "kFrRootOfUnity != 7^((r-1)/2^32) mod r";
    EXPECT_EQ(to_mpz(cuzk::ff::detail::fr_odd_part()), t);
    // Order exactly 2^32 (computed by GMP).
    EXPECT_EQ(powm(root, pow2(32), r), 1);
    EXPECT_EQ(powm(root, pow2(31), r), r - 1);
}

TEST(FrGmp, RootOfUnityOfEachOrder) {
    const auto& ref = Ref<Fr>::get();
    const mpz_class& r = ref.p;
    const mpz_class root = powm(7, (r - 1) / pow2(32), r);
    for (unsigned k = 0; k <= 32; ++k) {
        const Fr w = cuzk::ff::fr_root_of_unity(k);
        const mpz_class wv = ref.value(w);
        // ω_k = ω_32^(2^(32−k)), as bellperson's EvaluationDomain derives it.
        EXPECT_TRUE(ref.holds(w, powm(root, pow2(32 - k), r))) << "k = " << k;
        // Order exactly 2^k: ω^(2^k) = 1 and, for k ≥ 1, ω^(2^(k−1)) = −1.
        EXPECT_EQ(powm(wv, pow2(k), r), 1) << "k = " << k;
        if (k >= 1) {
            EXPECT_EQ(powm(wv, pow2(k - 1), r), r - 1) << "k = " << k;
        } else {
            EXPECT_EQ(wv, 1);
        }
        // The same through the field's own pow.
        EXPECT_EQ(w.pow(BigInt<1>::from_u64(uint64_t{1} << k)), Fr::one()) << "k = " << k;
        if (k >= 1) {
            EXPECT_EQ(w.pow(BigInt<1>::from_u64(uint64_t{1} << (k - 1))), -Fr::one())
                << "k = " << k;
        }
        if (HasFailure()) return;
    }
}

}  // namespace

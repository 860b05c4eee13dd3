// The mulx/adcx/adox Montgomery products (mont_asm_x86.hpp) against the generic CIOS product
// (mont_mul with PortableWords and with Int128Words), for Fp (6 limbs) and Fr (4 limbs), and the
// run-time switch that selects them in Field::operator*.
//
// Inputs: random reduced values, edge values (0, 1, 2, p − 1, p − 2, R mod p, R² mod p, values
// just below p, values with only the top or bottom limb set or cleared), squares (a == b),
// products written over their own inputs (out aliasing a, b, or both) and long dependent chains. The tests skip when the assembly
// is not compiled in (not x86-64, or no ADX/BMI2 at compile time).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff/mont_arith.hpp"
#include "ff/mont_asm_x86.hpp"
#include "ff/params.hpp"
#include "util/rng.hpp"

namespace cuzk::ff {
namespace {

// Restores the switch as the test found it.
class SwitchGuard {
   public:
    SwitchGuard() : saved_(fast_mul_enabled()) {}
    ~SwitchGuard() { set_fast_mul_enabled(saved_); }
    SwitchGuard(const SwitchGuard&) = delete;
    SwitchGuard& operator=(const SwitchGuard&) = delete;

   private:
    bool saved_;
};

template <size_t N>
using Limbs = BigInt<N>;

template <size_t N>
std::string hex(const Limbs<N>& v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s = "0x";
    for (size_t i = N; i-- > 0;)
        for (int k = 60; k >= 0; k -= 4) s.push_back(kDigits[(v.limb[i] >> k) & 15]);
    return s;
}

// Values < p that exercise carries and the final subtraction.
template <class P>
std::vector<Limbs<P::kLimbs>> edge_values() {
    constexpr size_t N = P::kLimbs;
    const Limbs<N>& p = P::kMont.modulus;
    std::vector<Limbs<N>> v;
    for (uint64_t k : {0, 1, 2, 3}) v.push_back(Limbs<N>::from_u64(k));
    for (uint64_t k : {1, 2, 3, 17, 0xffff}) v.push_back(p - Limbs<N>::from_u64(k));  // p − k
    v.push_back(P::kMont.r);   // one in Montgomery form
    v.push_back(P::kMont.r2);  // R² mod p
    v.push_back(p - P::kMont.r);  // −1 in Montgomery form
    Limbs<N> low_ones;
    low_ones.limb[0] = ~uint64_t{0};
    v.push_back(low_ones);
    Limbs<N> top_only;
    top_only.limb[N - 1] = p.limb[N - 1] - 1;  // below p since the top limb is smaller
    v.push_back(top_only);
    Limbs<N> all_but_top = p;  // p with its low limbs all ones, top limb one less: < p
    for (size_t i = 0; i + 1 < N; ++i) all_but_top.limb[i] = ~uint64_t{0};
    all_but_top.limb[N - 1] = p.limb[N - 1] - 1;
    v.push_back(all_but_top);
    Limbs<N> low_zero = p;  // p with its low limb cleared: < p, and t0 = 0 in early rows
    low_zero.limb[0] = 0;
    v.push_back(low_zero);
    Limbs<N> half = p.shr(1);  // (p − 1)/2 and (p + 1)/2
    v.push_back(half);
    v.push_back(half + Limbs<N>::from_u64(1));
    for (const auto& x : v) EXPECT_TRUE(x < p) << hex(x);
    return v;
}

template <class P>
Limbs<P::kLimbs> random_below_p(util::TestRng& rng) {
    const Field<P> f = Field<P>::random(rng);
    Limbs<P::kLimbs> v;
    std::memcpy(v.limb, f.limb, sizeof v.limb);
    return v;
}

#if CUZK_FF_HAVE_ADX_MUL

template <class P>
void expect_products_agree(const Limbs<P::kLimbs>& a, const Limbs<P::kLimbs>& b) {
    constexpr size_t N = P::kLimbs;
    const uint64_t* p = P::kMont.modulus.limb;
    const uint64_t inv = P::kMont.inv;
    Limbs<N> portable, int128, fast;
    mont_mul<N, PortableWords>(portable.limb, a.limb, b.limb, p, inv);
    mont_mul<N, Int128Words>(int128.limb, a.limb, b.limb, p, inv);
    mont_mul_adx<N>(fast.limb, a.limb, b.limb, p, inv);
    ASSERT_EQ(portable, int128) << hex(a) << " * " << hex(b);
    ASSERT_EQ(fast, portable) << hex(a) << " * " << hex(b) << ": asm " << hex(fast)
                              << ", reference " << hex(portable);
    ASSERT_TRUE(fast < P::kMont.modulus) << hex(fast);

    // out aliasing a, b, and both (a square).
    Limbs<N> x = a;
    mont_mul_adx<N>(x.limb, x.limb, b.limb, p, inv);
    ASSERT_EQ(x, portable) << "out == a: " << hex(a) << " * " << hex(b);
    Limbs<N> y = b;
    mont_mul_adx<N>(y.limb, a.limb, y.limb, p, inv);
    ASSERT_EQ(y, portable) << "out == b: " << hex(a) << " * " << hex(b);
    Limbs<N> sq_ref, z = a;
    mont_mul<N, PortableWords>(sq_ref.limb, a.limb, a.limb, p, inv);
    mont_mul_adx<N>(z.limb, z.limb, z.limb, p, inv);
    ASSERT_EQ(z, sq_ref) << "out == a == b: " << hex(a);
}

template <class P>
void check_field() {
    const auto edges = edge_values<P>();
    for (const auto& a : edges)
        for (const auto& b : edges) {
            expect_products_agree<P>(a, b);
            if (testing::Test::HasFatalFailure()) return;
        }
    util::TestRng rng(0x61d5ULL + P::kLimbs);
    for (int i = 0; i < 20000; ++i) {
        const auto a = random_below_p<P>(rng);
        const auto b = (i % 8 == 0) ? a : random_below_p<P>(rng);
        expect_products_agree<P>(a, b);
        if (testing::Test::HasFatalFailure()) return;
        expect_products_agree<P>(a, edges[static_cast<size_t>(i) % edges.size()]);
        if (testing::Test::HasFatalFailure()) return;
    }
}

// A dependent chain long enough to reach values the random inputs do not: every output feeds
// the next product, through the fast and the reference paths side by side.
template <class P>
void check_chain() {
    constexpr size_t N = P::kLimbs;
    const uint64_t* p = P::kMont.modulus.limb;
    const uint64_t inv = P::kMont.inv;
    util::TestRng rng(99);
    Limbs<N> fast = random_below_p<P>(rng), ref = fast;
    const Limbs<N> k = random_below_p<P>(rng);
    for (int i = 0; i < 100000; ++i) {
        if (i % 3 == 0) {
            mont_mul_adx<N>(fast.limb, fast.limb, fast.limb, p, inv);
            mont_mul<N, Int128Words>(ref.limb, ref.limb, ref.limb, p, inv);
        } else {
            mont_mul_adx<N>(fast.limb, fast.limb, k.limb, p, inv);
            mont_mul<N, Int128Words>(ref.limb, ref.limb, k.limb, p, inv);
        }
        ASSERT_EQ(fast, ref) << "step " << i;
    }
}

#define CUZK_REQUIRE_ASM() (void)0
#else
#define CUZK_REQUIRE_ASM() GTEST_SKIP() << "the mulx/adcx/adox product is not compiled in"
#endif

TEST(MontAsm, FpMatchesGenericProduct) {
    CUZK_REQUIRE_ASM();
#if CUZK_FF_HAVE_ADX_MUL
    check_field<FpParams>();
#endif
}

TEST(MontAsm, FrMatchesGenericProduct) {
    CUZK_REQUIRE_ASM();
#if CUZK_FF_HAVE_ADX_MUL
    check_field<FrParams>();
#endif
}

TEST(MontAsm, FpLongChain) {
    CUZK_REQUIRE_ASM();
#if CUZK_FF_HAVE_ADX_MUL
    check_chain<FpParams>();
#endif
}

TEST(MontAsm, FrLongChain) {
    CUZK_REQUIRE_ASM();
#if CUZK_FF_HAVE_ADX_MUL
    check_chain<FrParams>();
#endif
}

TEST(MontAsm, EnvironmentValueParsing) {
    EXPECT_TRUE(fast_mul_setting_from_env_value(nullptr));
    EXPECT_TRUE(fast_mul_setting_from_env_value("1"));
    EXPECT_TRUE(fast_mul_setting_from_env_value(""));
    EXPECT_FALSE(fast_mul_setting_from_env_value("0"));
    EXPECT_TRUE(fast_mul_setting_from_env_value("01"));
}

// The environment variable is read on first use: simulate a fresh process by resetting the
// switch to "not read yet".
TEST(MontAsm, EnvironmentVariableSetsSwitch) {
    SwitchGuard guard;
    const char* saved_env = std::getenv("CUZK_FF_ASM");
    const std::string saved = saved_env ? saved_env : "";
    for (const char* value : {"0", "1", static_cast<const char*>(nullptr)}) {
        if (value) setenv("CUZK_FF_ASM", value, 1);
        else unsetenv("CUZK_FF_ASM");
        detail::g_fast_mul_state.store(-1);
        const bool expect_on = value == nullptr || std::string(value) != "0";
        EXPECT_EQ(fast_mul_enabled(), expect_on) << (value ? value : "(unset)");
        EXPECT_EQ(active_mul_path<6>() == MulPath::kAdx, expect_on && kFastMulCompiled);
        EXPECT_EQ(active_mul_path<4>() == MulPath::kAdx, expect_on && kFastMulCompiled);
    }
    if (saved_env) setenv("CUZK_FF_ASM", saved.c_str(), 1);
    else unsetenv("CUZK_FF_ASM");
}

// The switch selects the path that Field::operator* runs (operator* dispatches through
// active_mul_path), and both paths give the same products.
TEST(MontAsm, SwitchSelectsPath) {
    CUZK_REQUIRE_ASM();
    SwitchGuard guard;
    util::TestRng rng(7);
    const Fp a = Fp::random(rng), b = Fp::random(rng);
    const Fr c = Fr::random(rng), d = Fr::random(rng);

    set_fast_mul_enabled(true);
    EXPECT_TRUE(fast_mul_enabled());
    EXPECT_EQ(active_mul_path<6>(), MulPath::kAdx);
    EXPECT_EQ(active_mul_path<4>(), MulPath::kAdx);
    EXPECT_EQ(active_mul_path<5>(), MulPath::kInt128);  // no assembly for other sizes
    const Fp fp_on = a * b;
    const Fr fr_on = c * d;

    set_fast_mul_enabled(false);
    EXPECT_FALSE(fast_mul_enabled());
    EXPECT_EQ(active_mul_path<6>(), MulPath::kInt128);
    EXPECT_EQ(active_mul_path<4>(), MulPath::kInt128);
    const Fp fp_off = a * b;
    const Fr fr_off = c * d;

    EXPECT_EQ(fp_on, fp_off);
    EXPECT_EQ(fr_on, fr_off);
    EXPECT_EQ(fp_on, Fp::mul_reference(a, b));
    EXPECT_EQ(fr_on, Fr::mul_reference(c, d));
}

// Field-level identities through operator* with the switch on and off.
TEST(MontAsm, FieldOperatorBothSettings) {
    SwitchGuard guard;
    for (bool on : {true, false}) {
        set_fast_mul_enabled(on);
        util::TestRng rng(11);
        for (int i = 0; i < 200; ++i) {
            const Fp a = Fp::random(rng);
            const Fr b = Fr::random(rng);
            ASSERT_EQ(a * Fp::one(), a);
            ASSERT_EQ(b * Fr::one(), b);
            ASSERT_EQ(a * a.inverse(), a.is_zero() ? Fp::zero() : Fp::one());
            ASSERT_EQ(b * b.inverse(), b.is_zero() ? Fr::zero() : Fr::one());
            ASSERT_EQ(a.square(), Fp::mul_reference(a, a));
            ASSERT_EQ(Fp::from_u64(6) * Fp::from_u64(7), Fp::from_u64(42));
            ASSERT_EQ(Fr::from_u64(6) * Fr::from_u64(7), Fr::from_u64(42));
        }
    }
}

}  // namespace
}  // namespace cuzk::ff

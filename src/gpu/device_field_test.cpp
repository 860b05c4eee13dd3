// The device field and curve compiled as host C++ (no GPU needed): DeviceField<P> must agree
// bit for bit with ff::Field<P>, DeviceWords with the reference multiplier, and the shared point
// formulas instantiated with DeviceG1Curve with the host G1. This checks everything of the
// device path except the device multiply instruction itself (checked by ff_kernels_test).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/device_curve.cuh"
#include "gpu/device_field.cuh"
#include "gpu/test_inputs.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

template <class Host>
struct DeviceOf;
template <>
struct DeviceOf<ff::Fp> {
    using type = DeviceFp;
};
template <>
struct DeviceOf<ff::Fr> {
    using type = DeviceFr;
};

template <class Host>
typename DeviceOf<Host>::type to_device(const Host& h) {
    return std::bit_cast<typename DeviceOf<Host>::type>(h);
}
template <class Host>
Host to_host(const typename DeviceOf<Host>::type& d) {
    return std::bit_cast<Host>(d);
}

template <class F>
class DeviceFieldTest : public ::testing::Test {};
using Fields = ::testing::Types<ff::Fp, ff::Fr>;
TYPED_TEST_SUITE(DeviceFieldTest, Fields);

TYPED_TEST(DeviceFieldTest, ConstantsMatchHost) {
    using H = TypeParam;
    using D = typename DeviceOf<H>::type;
    EXPECT_EQ(to_host<H>(D::zero()), H::zero());
    EXPECT_EQ(to_host<H>(D::one()), H::one());
    EXPECT_EQ(to_host<H>(D::template constant_u64<0>()), H::zero());
    EXPECT_EQ(to_host<H>(D::template constant_u64<1>()), H::one());
    EXPECT_EQ(to_host<H>(D::template constant_u64<4>()), H::from_u64(4));
    EXPECT_EQ(to_host<H>(D::template constant_u64<~uint64_t{0}>()), H::from_u64(~uint64_t{0}));
    EXPECT_TRUE(D::zero().is_zero());
    EXPECT_FALSE(D::one().is_zero());
    util::TestRng rng(11);
    for (int i = 0; i < 1000; ++i) {
        const uint64_t v = i < 4 ? static_cast<uint64_t>(i) : rng.next_u64();
        EXPECT_EQ(to_host<H>(D::from_u64(v)), H::from_u64(v)) << v;
    }
}

TYPED_TEST(DeviceFieldTest, ArithmeticMatchesHost) {
    using H = TypeParam;
    using D = typename DeviceOf<H>::type;
    const testing::FieldOperands<H> ops = testing::field_operands<H>(12, 4000);
    for (size_t i = 0; i < ops.a.size(); ++i) {
        const H& a = ops.a[i];
        const H& b = ops.b[i];
        const D da = to_device(a), db = to_device(b);
        ASSERT_EQ(to_host<H>(da * db), a * b) << "mul, i = " << i << ", a = " << a.to_hex()
                                              << ", b = " << b.to_hex();
        ASSERT_EQ(to_host<H>(da + db), a + b) << "add, i = " << i;
        ASSERT_EQ(to_host<H>(da - db), a - b) << "sub, i = " << i;
        ASSERT_EQ(to_host<H>(-da), -a) << "neg, i = " << i;
        ASSERT_EQ(to_host<H>(da.square()), a.square()) << "square, i = " << i;
        ASSERT_EQ(to_host<H>(da.dbl()), a.dbl()) << "dbl, i = " << i;
        ASSERT_EQ(da == db, a == b) << "==, i = " << i;
        ASSERT_EQ(da != db, !(a == b)) << "!=, i = " << i;
        ASSERT_EQ(da.is_zero(), a.is_zero()) << "is_zero, i = " << i;
        D acc = da;
        acc *= db;
        acc += da;
        acc -= db;
        ASSERT_EQ(to_host<H>(acc), a * b + a - b) << "compound assignment, i = " << i;
    }
}

TEST(DeviceWordsTest, MatchesReferenceMultiplier) {
    util::TestRng rng(13);
    const uint64_t max = ~uint64_t{0};
    const uint64_t edges[] = {0, 1, 2, max, max - 1, uint64_t{1} << 63, 0xffffffffu,
                              uint64_t{0xffffffff} << 32};
    std::vector<uint64_t> words(std::begin(edges), std::end(edges));
    for (int i = 0; i < 64; ++i) words.push_back(rng.next_u64());
    for (uint64_t a : words) {
        for (uint64_t b : words) {
            const uint64_t c = rng.uniform(4) == 0 ? max : rng.next_u64();
            const uint64_t d = rng.uniform(4) == 0 ? max : rng.next_u64();
            const ff::Wide64 got = DeviceWords::madd(a, b, c, d);
            const ff::Wide64 want = ff::Int128Words::madd(a, b, c, d);
            ASSERT_EQ(got.lo, want.lo) << a << " " << b << " " << c << " " << d;
            ASSERT_EQ(got.hi, want.hi) << a << " " << b << " " << c << " " << d;
            ASSERT_EQ(DeviceWords::mul_hi(a, b), ff::Int128Words::madd(a, b, 0, 0).hi);
        }
    }
}

DeviceG1Xyzz to_device(const ec::G1Xyzz& p) { return std::bit_cast<DeviceG1Xyzz>(p); }
DeviceG1Affine to_device(const ec::G1Affine& p) { return std::bit_cast<DeviceG1Affine>(p); }
ec::G1Xyzz to_host(const DeviceG1Xyzz& p) { return std::bit_cast<ec::G1Xyzz>(p); }
bool same_repr(const ec::G1Xyzz& a, const ec::G1Xyzz& b) {
    return a.X == b.X && a.Y == b.Y && a.ZZ == b.ZZ && a.ZZZ == b.ZZZ;
}

TEST(DeviceG1Test, CurveConstantAndMembership) {
    EXPECT_EQ(to_host<ff::Fp>(DeviceG1Curve::b()), ec::G1Curve::b());
    EXPECT_TRUE(to_device(ec::kG1Generator).is_on_curve());
    EXPECT_TRUE(DeviceG1Affine::identity().is_on_curve());
    DeviceG1Affine off = to_device(ec::kG1Generator);
    off.y = off.y + DeviceFp::one();
    EXPECT_FALSE(off.is_on_curve());
}

TEST(DeviceG1Test, XyzzFormulasMatchHost) {
    const testing::G1Operands ops = testing::g1_operands(14, 500);
    for (size_t i = 0; i < ops.p.size(); ++i) {
        const ec::G1Xyzz& p = ops.p[i];
        const ec::G1Affine& q = ops.q[i];
        const DeviceG1Xyzz dp = to_device(p);
        const DeviceG1Affine dq = to_device(q);
        ASSERT_TRUE(same_repr(to_host(dp.add_mixed(dq)), p.add_mixed(q))) << "add_mixed, i = " << i;
        ASSERT_TRUE(same_repr(to_host(dp.dbl()), p.dbl())) << "dbl, i = " << i;
        const ec::G1Xyzz q_xyzz = ec::G1Xyzz::from_affine(q);
        ASSERT_TRUE(same_repr(to_host(dp + DeviceG1Xyzz::from_affine(dq)), p + q_xyzz))
            << "add, i = " << i;
        ASSERT_TRUE(same_repr(to_host(DeviceG1Xyzz::dbl_affine(dq)), ec::G1Xyzz::dbl_affine(q)))
            << "dbl_affine, i = " << i;
    }
}

}  // namespace
}  // namespace cuzk::gpu

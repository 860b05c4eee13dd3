// The device field and curves compiled as host C++ (no GPU needed): DeviceField<P> must agree
// bit for bit with ff::Field<P>, DeviceWords with the reference multiplier, DeviceFp2 with
// ff::Fp2, and the shared point formulas instantiated with DeviceG1Curve / DeviceG2Curve with the
// host G1 / G2; the batch inversion's group walks (batch_inverse.cuh) against the host inverse.
// This checks everything of the device path except the device multiply instruction itself
// (checked by ff_kernels_test).
#include "gpu/device_field.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gpu/batch_inverse.cuh"
#include "gpu/device_curve.cuh"
#include "gpu/msm_point_ops.cuh"
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
        ASSERT_EQ(to_host<H>(da * db), a * b)
            << "mul, i = " << i << ", a = " << a.to_hex() << ", b = " << b.to_hex();
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
    const uint64_t edges[] = {
        0, 1, 2, max, max - 1, uint64_t{1} << 63, 0xffffffffu, uint64_t{0xffffffff} << 32};
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

// add_in_place(a, q) against ec::Xyzz::operator+ (defined after the G2 helpers it also uses).
template <class HostXyzz>
void expect_add_in_place(const HostXyzz& a, const HostXyzz& q, size_t i);

TEST(DeviceG1Test, XyzzFormulasMatchHost) {
    const testing::G1Operands ops = testing::g1_operands(14, 500);
    util::TestRng rng(15);
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
        DeviceG1Xyzz in_place = dp;
        add_mixed_in_place(in_place, dq);
        ASSERT_TRUE(same_repr(to_host(in_place), p.add_mixed(q))) << "in place, i = " << i;
        expect_add_in_place(p, testing::random_xyzz_representation(q, rng), i);
    }
}

// ---- G2 ----------------------------------------------------------------------------------------

template <class Host, class Device>
constexpr bool same_layout() {
    return sizeof(Host) == sizeof(Device) && alignof(Host) == alignof(Device) &&
           std::is_trivially_copyable_v<Host> && std::is_trivially_copyable_v<Device> &&
           std::is_standard_layout_v<Host> && std::is_standard_layout_v<Device>;
}
static_assert(same_layout<ff::Fp2, DeviceFp2>());
static_assert(same_layout<ec::G2Affine, DeviceG2Affine>());
static_assert(same_layout<ec::G2Xyzz, DeviceG2Xyzz>());
static_assert(same_layout<ec::G2Jacobian, DeviceG2Jacobian>());

DeviceFp2 to_device(const ff::Fp2& a) { return std::bit_cast<DeviceFp2>(a); }
ff::Fp2 to_host(const DeviceFp2& a) { return std::bit_cast<ff::Fp2>(a); }
DeviceG2Xyzz to_device(const ec::G2Xyzz& p) { return std::bit_cast<DeviceG2Xyzz>(p); }
DeviceG2Affine to_device(const ec::G2Affine& p) { return std::bit_cast<DeviceG2Affine>(p); }
ec::G2Xyzz to_host(const DeviceG2Xyzz& p) { return std::bit_cast<ec::G2Xyzz>(p); }
ec::G2Affine to_host(const DeviceG2Affine& p) { return std::bit_cast<ec::G2Affine>(p); }
ec::G2Jacobian to_host(const DeviceG2Jacobian& p) { return std::bit_cast<ec::G2Jacobian>(p); }
bool same_repr(const ec::G2Xyzz& a, const ec::G2Xyzz& b) {
    return a.X == b.X && a.Y == b.Y && a.ZZ == b.ZZ && a.ZZZ == b.ZZZ;
}
bool same_repr(const ec::G2Jacobian& a, const ec::G2Jacobian& b) {
    return a.X == b.X && a.Y == b.Y && a.Z == b.Z;
}

ff::Fp2 random_fp2(util::TestRng& rng) { return {ff::Fp::random(rng), ff::Fp::random(rng)}; }

TEST(DeviceFp2Test, ArithmeticMatchesHost) {
    util::TestRng rng(15);
    const std::vector<ff::Fp> edges = testing::field_edge_values<ff::Fp>();
    std::vector<ff::Fp2> values;
    for (const ff::Fp& x : edges)
        for (const ff::Fp& y : edges) values.push_back({x, y});
    for (int i = 0; i < 200; ++i) values.push_back(random_fp2(rng));
    for (size_t i = 0; i < values.size(); ++i) {
        const ff::Fp2& a = values[i];
        const ff::Fp2& b = values[(i * 7 + 3) % values.size()];
        const DeviceFp2 da = to_device(a), db = to_device(b);
        ASSERT_EQ(to_host(da * db), a * b) << "mul, i = " << i;
        ASSERT_EQ(to_host(da + db), a + b) << "add, i = " << i;
        ASSERT_EQ(to_host(da - db), a - b) << "sub, i = " << i;
        ASSERT_EQ(to_host(-da), -a) << "neg, i = " << i;
        ASSERT_EQ(to_host(da.square()), a.square()) << "square, i = " << i;
        ASSERT_EQ(to_host(da.dbl()), a.dbl()) << "dbl, i = " << i;
        ASSERT_EQ(to_host(da.mul_by_nonresidue()), a.mul_by_nonresidue()) << "·ξ, i = " << i;
        ASSERT_EQ(to_host(da * db.c0), a * b.c0) << "mul by Fp, i = " << i;
        ASSERT_EQ(da == db, a == b) << "==, i = " << i;
        ASSERT_EQ(da.is_zero(), a.is_zero()) << "is_zero, i = " << i;
    }
    // u² = −1 computed by the device formulas, independently of the host's.
    const DeviceFp2 u = {DeviceFp::zero(), DeviceFp::one()};
    EXPECT_EQ(to_host(u * u), -ff::Fp2::one());
    EXPECT_EQ(to_host(u.square()), -ff::Fp2::one());
}

// n points of G2: s + i·d for random multiples s, d of the generator.
std::vector<ec::G2Affine> g2_random_points(util::TestRng& rng, size_t n) {
    const ec::G2Jacobian g = ec::G2Jacobian::from_affine(ec::kG2Generator);
    ec::G2Jacobian acc = ec::mul(g, ff::Fr::random(rng));
    const ec::G2Jacobian step = ec::mul(g, ff::Fr::random(rng));
    std::vector<ec::G2Jacobian> jac(n);
    for (size_t i = 0; i < n; ++i) {
        jac[i] = acc;
        acc += step;
    }
    std::vector<ec::G2Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

// The same point as `a` in XYZZ with a random representation (x·λ², y·λ³, λ², λ³), λ ≠ 0.
ec::G2Xyzz random_xyzz_representation(const ec::G2Affine& a, util::TestRng& rng) {
    if (a.is_identity()) return ec::G2Xyzz::identity();
    ff::Fp2 lambda = random_fp2(rng);
    while (lambda.is_zero()) lambda = random_fp2(rng);
    const ff::Fp2 l2 = lambda.square();
    const ff::Fp2 l3 = l2 * lambda;
    return {a.x * l2, a.y * l3, l2, l3};
}

// add_in_place(a, q) for XYZZ a and q against ec::Xyzz::operator+: the same limbs, except where
// a and q are one point (then the same point: msm_point_ops.cuh doubles q, operator+ a).
template <class HostXyzz>
void expect_add_in_place(const HostXyzz& a, const HostXyzz& q, size_t i) {
    auto in_place = to_device(a);
    add_in_place(in_place, to_device(q));
    const HostXyzz want = a + q;
    if (a.is_identity() || q.is_identity() || !(a.to_affine() == q.to_affine())) {
        ASSERT_TRUE(same_repr(to_host(in_place), want)) << "add_in_place, i = " << i;
    } else {
        ASSERT_EQ(to_host(in_place).to_affine(), want.to_affine())
            << "add_in_place (a = q), i = " << i;
    }
}

TEST(DeviceG2Test, CurveConstantAndMembership) {
    EXPECT_EQ(to_host(DeviceG2Curve::b()), ec::G2Curve::b());
    // b = 4(1 + u) from the host's own constants, not its curve type.
    const ff::Fp2 four = {ff::Fp::from_u64(4), ff::Fp::zero()};
    EXPECT_EQ(to_host(DeviceG2Curve::b()), ff::kXi * four);
    EXPECT_TRUE(to_device(ec::kG2Generator).is_on_curve());
    EXPECT_TRUE(DeviceG2Affine::identity().is_on_curve());
    DeviceG2Affine off = to_device(ec::kG2Generator);
    off.y.c1 = off.y.c1 + DeviceFp::one();
    EXPECT_FALSE(off.is_on_curve());
    util::TestRng rng(16);
    for (const ec::G2Affine& p : g2_random_points(rng, 20)) {
        EXPECT_TRUE(to_device(p).is_on_curve());
        EXPECT_EQ(to_host(-to_device(p)), -p);
    }
}

TEST(DeviceG2Test, FormulasMatchHost) {
    util::TestRng rng(17);
    const size_t n = 200;
    const std::vector<ec::G2Affine> pts = g2_random_points(rng, 2 * n + 2);
    const ec::G2Affine u = pts[0], v = pts[1], gen = ec::kG2Generator, o = ec::G2Affine::identity();
    std::vector<std::pair<ec::G2Xyzz, ec::G2Affine>> ops = {
        {ec::G2Xyzz::identity(), o},
        {ec::G2Xyzz::identity(), u},
        {ec::G2Xyzz::from_affine(u), o},
        {random_xyzz_representation(u, rng), o},
        {ec::G2Xyzz::from_affine(u), u},
        {random_xyzz_representation(u, rng), u},
        {ec::G2Xyzz::from_affine(u), -u},
        {random_xyzz_representation(u, rng), -u},
        {ec::G2Xyzz::from_affine(gen), gen},
        {random_xyzz_representation(gen, rng), -gen},
        {random_xyzz_representation(u, rng), v}};
    for (size_t i = 0; i < n; ++i) {
        const ec::G2Affine a = pts[2 + 2 * i], b = pts[3 + 2 * i];
        switch (rng.uniform(8)) {
            case 0:
                ops.push_back({random_xyzz_representation(a, rng), a});
                break;
            case 1:
                ops.push_back({random_xyzz_representation(a, rng), -a});
                break;
            default:
                ops.push_back({random_xyzz_representation(a, rng), b});
                break;
        }
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        const auto& [p, q] = ops[i];
        const DeviceG2Xyzz dp = to_device(p);
        const DeviceG2Affine dq = to_device(q);
        ASSERT_TRUE(same_repr(to_host(dp.add_mixed(dq)), p.add_mixed(q))) << "add_mixed, i = " << i;
        ASSERT_TRUE(same_repr(to_host(dp.dbl()), p.dbl())) << "dbl, i = " << i;
        const ec::G2Xyzz q_xyzz = ec::G2Xyzz::from_affine(q);
        ASSERT_TRUE(same_repr(to_host(dp + DeviceG2Xyzz::from_affine(dq)), p + q_xyzz))
            << "add, i = " << i;
        ASSERT_TRUE(same_repr(to_host(DeviceG2Xyzz::dbl_affine(dq)), ec::G2Xyzz::dbl_affine(q)))
            << "dbl_affine, i = " << i;
        DeviceG2Xyzz in_place = dp;
        add_mixed_in_place(in_place, dq);
        ASSERT_TRUE(same_repr(to_host(in_place), p.add_mixed(q))) << "in place, i = " << i;
        expect_add_in_place(p, random_xyzz_representation(q, rng), i);
        ASSERT_TRUE(same_repr(to_host(dp.to_jacobian()), p.to_jacobian()))
            << "to_jacobian, i = " << i;
        // Batch-affine steps (used by batch addition): the denominator and the sum from its
        // inverse.
        const ec::G2Affine a = pts[2 + (i % (2 * n))];
        if (q.is_identity() || a.is_identity()) continue;
        const ff::Fp2 den = ec::affine_add_denominator(a, q);
        ASSERT_EQ(to_host(ec::affine_add_denominator(to_device(a), dq)), den) << "den, i = " << i;
        if (den.is_zero()) continue;
        const ff::Fp2 inv = den.inverse();
        ASSERT_EQ(to_host(ec::affine_add_with_inverse(to_device(a), dq, to_device(inv))),
                  ec::affine_add_with_inverse(a, q, inv))
            << "affine add, i = " << i;
    }
}

// DeviceField::inverse (the sliding-window exponent) against the host's inverse: zero, one,
// −1, 2 and random elements of Fp and Fr, limb for limb.
TEST(DeviceFieldInverseTest, MatchesHost) {
    util::TestRng rng(806);
    auto check = [&](auto host_zero) {
        using H = decltype(host_zero);
        std::vector<H> xs = {H::zero(), H::one(), -H::one(), H::one() + H::one()};
        for (int i = 0; i < 300; ++i) xs.push_back(H::random(rng));
        for (size_t i = 0; i < xs.size(); ++i) {
            const H got = to_host<H>(to_device(xs[i]).inverse());
            ASSERT_EQ(got, xs[i].inverse()) << "element " << i;
            if (!xs[i].is_zero()) {
                ASSERT_EQ(got * xs[i], H::one()) << "element " << i;
            }
        }
    };
    check(ff::Fp::zero());
    check(ff::Fr::zero());
}

// One level of batch_inverse.cuh on the host: up over strided groups, the groups' products
// inverted by the host, down in place (the prefix slots become the inverses, as the level kernel
// does) — for counts below, at and above the group count, and groups of one; walking each
// group upwards first and, reversed, downwards first. down must visit a group's indices in the
// opposite order of up's walk (the fused batch-affine step builds its next chain in that order).
// Both forms of down: one visit per index, and (early) element then finish per index.
TEST(BatchInverseWalkTest, InversesMatchHost) {
    util::TestRng rng(805);
    for (bool early : {false, true})
    for (bool reverse : {false, true})
    for (auto [m, groups] : {std::pair<size_t, size_t>{1, 1}, {5, 8}, {8, 8}, {9, 8}, {100, 7},
                             {257, 32}, {64, 1}}) {
        std::vector<DeviceFp> in(m), slots(m);
        std::vector<ff::Fp> host(m);
        for (size_t i = 0; i < m; ++i) {
            do host[i] = ff::Fp::random(rng);
            while (host[i].is_zero());
            in[i] = to_device(host[i]);
        }
        std::vector<DeviceFp> product_inverses(groups);
        std::vector<std::vector<size_t>> up_order(groups), down_order(groups);
        for (size_t t = 0; t < groups; ++t) {
            const DeviceFp product = prefix_products_up<DeviceFp>(
                t, groups, m, slots.data(),
                [&](size_t i) {
                    up_order[t].push_back(i);
                    return in[i];
                },
                reverse);
            product_inverses[t] = to_device(to_host<ff::Fp>(product).inverse());
        }
        std::vector<int> visits(m, 0);
        for (size_t t = 0; t < groups; ++t) {
            if (!early) {
                prefix_products_down<DeviceFp>(
                    t, groups, m, slots.data(), product_inverses[t],
                    [&](size_t i, const DeviceFp& inverse_i) {
                        ++visits[i];
                        down_order[t].push_back(i);
                        slots[i] = inverse_i;
                        return in[i];
                    },
                    reverse);
            } else {
                // element(i) and finish(i, ·) back to back, each once per index.
                size_t pending = m;
                prefix_products_down_early<DeviceFp>(
                    t, groups, m, slots.data(), product_inverses[t],
                    [&](size_t i) {
                        EXPECT_EQ(pending, m) << "element(" << i << ") before finish(" << pending
                                              << ")";
                        pending = i;
                        return in[i];
                    },
                    [&](size_t i, const DeviceFp& inverse_i) {
                        EXPECT_EQ(pending, i) << "finish without its element";
                        pending = m;
                        ++visits[i];
                        down_order[t].push_back(i);
                        slots[i] = inverse_i;
                    },
                    reverse);
                EXPECT_EQ(pending, m) << "an element without its finish";
            }
            std::vector<size_t> expected;
            for (size_t i = t; i < m; i += groups) expected.push_back(i);
            if (reverse) std::reverse(expected.begin(), expected.end());
            EXPECT_EQ(up_order[t], expected) << "m=" << m << " groups=" << groups << " t=" << t;
            std::reverse(expected.begin(), expected.end());
            EXPECT_EQ(down_order[t], expected) << "m=" << m << " groups=" << groups << " t=" << t;
        }
        for (size_t i = 0; i < m; ++i) {
            EXPECT_EQ(visits[i], 1) << "m=" << m << " groups=" << groups << " i=" << i
                                    << " reverse=" << reverse << " early=" << early;
            EXPECT_EQ(to_host<ff::Fp>(slots[i]), host[i].inverse())
                << "m=" << m << " groups=" << groups << " i=" << i;
        }
    }
}

}  // namespace
}  // namespace cuzk::gpu

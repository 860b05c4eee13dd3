// GPU kernels against the CPU: elementwise Fp / Fr products, sums and differences, Fp2 products
// (the lazily reduced one and the Karatsuba one), and G1 XYZZ
// mixed additions, on edge cases and thousands of random inputs. Results must be bit-identical
// to the host's (the same formulas on the same representation).
//
// Every test skips itself (GTEST_SKIP, reported by ctest as "Skipped") when no CUDA device is
// usable, so the suite passes on machines without a GPU or driver.
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gpu/device.hpp"
#include "gpu/ff_kernels.hpp"
#include "gpu/test_inputs.hpp"
#include "util/rng.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {
namespace {

class GpuTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU kernel test skipped";
        }
    }
};

// Number of positions where want and got differ, with the first few described in `report`.
template <class T, class Describe>
size_t count_mismatches(const std::vector<T>& want, const std::vector<T>& got, Describe describe,
                        std::string& report) {
    size_t mismatches = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (describe.same(want[i], got[i])) continue;
        if (++mismatches <= 5) {
            report += "  [" + std::to_string(i) + "] cpu " + describe.text(want[i]) + "\n";
            report += "  [" + std::to_string(i) + "] gpu " + describe.text(got[i]) + "\n";
        }
    }
    return mismatches;
}

struct DescribeField {
    template <class F>
    bool same(const F& a, const F& b) const { return a == b; }
    template <class F>
    std::string text(const F& a) const { return a.to_hex(); }
};
struct DescribeFp2 {
    bool same(const ff::Fp2& a, const ff::Fp2& b) const { return a == b; }
    std::string text(const ff::Fp2& a) const {
        std::string s = a.c0.to_hex();
        s += ", ";
        s += a.c1.to_hex();
        return s;
    }
};
struct DescribeXyzz {
    bool same(const ec::G1Xyzz& a, const ec::G1Xyzz& b) const {
        return a.X == b.X && a.Y == b.Y && a.ZZ == b.ZZ && a.ZZZ == b.ZZZ;
    }
    std::string text(const ec::G1Xyzz& a) const {
        return "{X " + a.X.to_hex() + ", Y " + a.Y.to_hex() + ", ZZ " + a.ZZ.to_hex() +
               ", ZZZ " + a.ZZZ.to_hex() + "}";
    }
};

enum class Op { kMul, kAdd, kSub, kMulSparse, kMulKaratsuba, kMulFp64 };

template <class F>
F cpu_apply(Op op, const F& a, const F& b) {
    switch (op) {
        case Op::kMul:
        case Op::kMulSparse:
        case Op::kMulKaratsuba:
        case Op::kMulFp64: return a * b;
        case Op::kAdd: return a + b;
        case Op::kSub: return a - b;
    }
    return F::zero();
}

template <class F>
util::Status gpu_apply(Op op, std::span<const F> a, std::span<const F> b, std::span<F> out) {
    switch (op) {
        case Op::kMul: return elementwise_mul(a, b, out);
        case Op::kAdd: return elementwise_add(a, b, out);
        case Op::kSub: return elementwise_sub(a, b, out);
        case Op::kMulSparse:
            if constexpr (std::is_same_v<F, ff::Fr>) return elementwise_mul_sparse(a, b, out);
            break;
        case Op::kMulKaratsuba: return elementwise_mul_karatsuba(a, b, out);
        case Op::kMulFp64:
            if constexpr (std::is_same_v<F, ff::Fr>) return elementwise_mul_fp64(a, b, out);
            break;
    }
    return util::internal_error("unknown op");
}

const char* op_name(Op op) {
    switch (op) {
        case Op::kMul: return "mul";
        case Op::kAdd: return "add";
        case Op::kSub: return "sub";
        case Op::kMulSparse: return "mul (sparse reduction)";
        case Op::kMulKaratsuba: return "mul (Karatsuba)";
        case Op::kMulFp64: return "mul (FP64 pipe)";
    }
    return "?";
}

// a[i]·b[i] on the device by `product` (elementwise_mul_sparse, elementwise_mul_karatsuba)
// against the host's product, for every i.
template <class F>
void expect_device_products(const std::vector<F>& a, const std::vector<F>& b,
                            util::Status (*product)(std::span<const F>, std::span<const F>,
                                                    std::span<F>)) {
    std::vector<F> want(a.size()), got(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = a[i] * b[i];
    const util::Status st = product(a, b, got);
    ASSERT_TRUE(st.ok()) << st.to_string();
    std::string report;
    const size_t bad = count_mismatches(want, got, DescribeField{}, report);
    EXPECT_EQ(bad, 0u) << bad << " of " << a.size() << " differ\n" << report;
}

// `count` products on the device against the host's: pairs of make()'s operands, the second
// equal to the first in one pair of every `square_every` (a squaring), drawn in order a, b.
template <class F, class Make>
void expect_products_of_pairs(size_t count, size_t square_every, Make&& make,
                              util::Status (*product)(std::span<const F>, std::span<const F>,
                                                      std::span<F>)) {
    std::vector<F> a(count), b(count);
    for (size_t i = 0; i < count; ++i) {
        a[i] = make();
        b[i] = i % square_every == 0 ? a[i] : make();
    }
    expect_device_products<F>(a, b, product);
}

template <class F>
void check_field_op(Op op, uint64_t seed) {
    // Edge pairs plus enough random pairs to span several blocks and a partial last block.
    const testing::FieldOperands<F> ops = testing::field_operands<F>(seed, 5000);
    const size_t n = ops.a.size();
    std::vector<F> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = cpu_apply(op, ops.a[i], ops.b[i]);
    std::vector<F> got(n);
    const util::Status st = gpu_apply<F>(op, ops.a, ops.b, got);
    ASSERT_TRUE(st.ok()) << st.to_string();
    std::string report;
    const size_t bad = count_mismatches(want, got, DescribeField{}, report);
    EXPECT_EQ(bad, 0u) << op_name(op) << ": " << bad << " of " << n << " differ\n" << report;
}

TEST_F(GpuTest, FpMul) { check_field_op<ff::Fp>(Op::kMul, 101); }
TEST_F(GpuTest, FpAdd) { check_field_op<ff::Fp>(Op::kAdd, 102); }
TEST_F(GpuTest, FpSub) { check_field_op<ff::Fp>(Op::kSub, 103); }
TEST_F(GpuTest, FrMul) { check_field_op<ff::Fr>(Op::kMul, 104); }
TEST_F(GpuTest, FrAdd) { check_field_op<ff::Fr>(Op::kAdd, 105); }
TEST_F(GpuTest, FrSub) { check_field_op<ff::Fr>(Op::kSub, 106); }
TEST_F(GpuTest, FrMulSparseReduction) { check_field_op<ff::Fr>(Op::kMulSparse, 110); }
TEST_F(GpuTest, FrMulFp64) { check_field_op<ff::Fr>(Op::kMulFp64, 116); }
TEST_F(GpuTest, FpMulKaratsuba) { check_field_op<ff::Fp>(Op::kMulKaratsuba, 112); }
TEST_F(GpuTest, FrMulKaratsuba) { check_field_op<ff::Fr>(Op::kMulKaratsuba, 113); }

// The Karatsuba product's sign cases (x0 − x1 and y1 − y0 each zero, positive or negative: the
// difference product added, subtracted or zero) and its REDC's m = 0 steps, which random
// operands rarely reach: operands built from two halves (low and high 32·n/2-bit words of the
// Montgomery limbs) drawn from a few values — equal halves, halves one apart, a zero half, an
// all-ones half, random halves, and random words with about half of them zero — kept below p.
template <class F>
void check_karatsuba_halves(uint64_t seed) {
    using Int = typename F::Int;
    constexpr size_t kHalf = Int::kLimbs / 2;
    util::TestRng rng(seed);
    auto random_half = [&rng](int kind, uint64_t* out) {
        for (size_t i = 0; i < kHalf; ++i) {
            uint64_t limb = 0;
            switch (kind) {
                case 0: limb = 0; break;
                case 1: limb = ~uint64_t{0}; break;
                case 2: limb = rng.next_u64(); break;
                default:
                    for (int w = 0; w < 2; ++w)
                        if (rng.uniform(2) == 1) limb |= (rng.next_u64() & 0xffffffffull) << (32 * w);
                    break;
            }
            out[i] = limb;
        }
    };
    auto operand = [&]() {
        Int v;
        uint64_t lo[kHalf], hi[kHalf];
        random_half(static_cast<int>(rng.uniform(4)), lo);
        switch (rng.uniform(4)) {
            case 0:  // equal halves
                for (size_t i = 0; i < kHalf; ++i) hi[i] = lo[i];
                break;
            case 1:  // high half = low half ± 1 in the lowest word (wrapping)
                for (size_t i = 0; i < kHalf; ++i) hi[i] = lo[i];
                hi[0] += rng.uniform(2) == 0 ? 1 : ~uint64_t{0};
                break;
            default: random_half(static_cast<int>(rng.uniform(4)), hi); break;
        }
        for (size_t i = 0; i < kHalf; ++i) {
            v.limb[i] = lo[i];
            v.limb[kHalf + i] = hi[i];
        }
        // Below p: clear the bits above p's top bit, then subtract p once if still ≥ p.
        const size_t top_bits = F::bits() - 64 * (Int::kLimbs - 1);  // 61 (Fp), 63 (Fr)
        v.limb[Int::kLimbs - 1] &= (uint64_t{1} << top_bits) - 1;
        if (!(v < F::modulus())) v = v - F::modulus();
        return F::raw(v);
    };
    expect_products_of_pairs<F>(6000, 5, operand, elementwise_mul_karatsuba);
}
TEST_F(GpuTest, FpMulKaratsubaSignCases) { check_karatsuba_halves<ff::Fp>(114); }
TEST_F(GpuTest, FrMulKaratsubaSignCases) { check_karatsuba_halves<ff::Fr>(115); }

// Fp's dedicated squaring against the host's a·a: the field tests' edge and random operands,
// then operands whose 32-bit words are each 0, 1, 2^31 − 1, 2^31, 2^32 − 1 or random (kept
// below p) — the doubled cross products' carried top bits (a word ≥ 2^31 sets the low bit of
// the next word of 2a) and the rows' longest carry chains.
TEST_F(GpuTest, FpSquare) {
    const testing::FieldOperands<ff::Fp> ops = testing::field_operands<ff::Fp>(119, 5000);
    std::vector<ff::Fp> a = ops.a;
    a.insert(a.end(), ops.b.begin(), ops.b.end());
    util::TestRng rng(120);
    constexpr uint32_t kWords[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    for (int k = 0; k < 6000; ++k) {
        ff::Fp::Int v;
        for (size_t i = 0; i < ff::Fp::Int::kLimbs; ++i) {
            uint64_t limb = 0;
            for (int half = 0; half < 2; ++half) {
                const uint64_t pick = rng.uniform(6);
                const uint64_t word = pick < 5 ? kWords[pick] : rng.next_u64() & 0xffffffffull;
                limb |= word << (32 * half);
            }
            v.limb[i] = limb;
        }
        v.limb[ff::Fp::Int::kLimbs - 1] &= (uint64_t{1} << 61) - 1;  // below 2^381
        if (!(v < ff::Fp::modulus())) v = v - ff::Fp::modulus();
        a.push_back(ff::Fp::raw(v));
    }
    std::vector<ff::Fp> want(a.size()), got(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = a[i] * a[i];
    const util::Status st = elementwise_square(a, got);
    ASSERT_TRUE(st.ok()) << st.to_string();
    std::string report;
    const size_t bad = count_mismatches(want, got, DescribeField{}, report);
    EXPECT_EQ(bad, 0u) << bad << " of " << a.size() << " squares differ\n" << report;
}

// The sparse reduction's special case m = 0 (a step whose low word is already 0, where
// hi(m·(2^32 − 1)) = m − [m ≠ 0] takes its other branch) is rare on random operands; operands
// whose Montgomery limbs have about half of their 32-bit words zero make it common.
// The same operands for the FP64 product, whose reduction rounds take the branch
// c mod 2^52 = 0 (no carry correction) and m = 0 there, and whose limbs are then often zero.
void check_fr_products_on_zero_words(uint64_t seed,
                                     util::Status (*product)(std::span<const ff::Fr>,
                                                             std::span<const ff::Fr>,
                                                             std::span<ff::Fr>)) {
    util::TestRng rng(seed);
    auto sparse_words = [&rng]() {
        ff::Fr::Int v;
        for (size_t i = 0; i < ff::Fr::Int::kLimbs; ++i) {
            uint64_t limb = 0;
            for (int half = 0; half < 2; ++half)
                if (rng.uniform(2) == 1) limb |= (rng.next_u64() & 0xffffffffull) << (32 * half);
            v.limb[i] = limb;
        }
        v.limb[ff::Fr::Int::kLimbs - 1] &= 0x3fffffffffffffffull;  // below p (> 2^254)
        return ff::Fr::raw(v);
    };
    expect_products_of_pairs<ff::Fr>(4000, 4, sparse_words, product);
}
TEST_F(GpuTest, FrMulSparseReductionOnZeroWords) {
    check_fr_products_on_zero_words(111, elementwise_mul_sparse);
}
TEST_F(GpuTest, FrMulFp64OnZeroWords) { check_fr_products_on_zero_words(117, elementwise_mul_fp64); }

// The FP64 product's 52-bit limbs at their extremes: operands whose 52-bit limbs are each 0,
// 1, 2^52 − 1 or random (kept below p), so that the limb products' high and low parts reach
// 0 and 2^52 − 1 and the columns their largest sums.
TEST_F(GpuTest, FrMulFp64OnExtremeLimbs) {
    util::TestRng rng(118);
    constexpr uint64_t kMask52 = (uint64_t{1} << 52) - 1;
    auto operand = [&rng]() {
        uint64_t limb52[5];
        for (uint64_t& l : limb52) {
            switch (rng.uniform(4)) {
                case 0: l = 0; break;
                case 1: l = 1; break;
                case 2: l = kMask52; break;
                default: l = rng.next_u64() & kMask52; break;
            }
        }
        ff::Fr::Int v;
        for (size_t i = 0; i < 4; ++i) v.limb[i] = 0;
        for (int k = 0; k < 5; ++k) {  // bits [52k, 52k + 52) of v
            const int bit = 52 * k, word = bit / 64, shift = bit % 64;
            v.limb[word] |= limb52[k] << shift;
            if (shift > 12 && word + 1 < 4) v.limb[word + 1] |= limb52[k] >> (64 - shift);
        }
        while (!(v < ff::Fr::modulus())) v.limb[3] >>= 1;  // below p, the low limbs kept
        return ff::Fr::raw(v);
    };
    expect_products_of_pairs<ff::Fr>(6000, 5, operand, elementwise_mul_fp64);
}

// Fp2 products: every pair of the 81 elements whose coefficients are Fp edge values (zero,
// one, −1, (p ± 1)/2, the raw limbs 1 and p − 1, …: the largest coefficient sums and the
// borrowing difference of the lazy product's c0), then random pairs, one in four with an equal,
// negated or conjugate second operand.
void check_fp2_mul(bool lazy, uint64_t seed) {
    util::TestRng rng(seed);
    const std::vector<ff::Fp> edges = testing::field_edge_values<ff::Fp>();
    std::vector<ff::Fp2> edge2;
    for (const ff::Fp& x : edges)
        for (const ff::Fp& y : edges) edge2.push_back({x, y});
    std::vector<ff::Fp2> a, b;
    for (const ff::Fp2& x : edge2) {
        for (const ff::Fp2& y : edge2) {
            a.push_back(x);
            b.push_back(y);
        }
    }
    for (int i = 0; i < 5000; ++i) {
        const ff::Fp2 x = ff::Fp2::random(rng);
        ff::Fp2 y = ff::Fp2::random(rng);
        switch (rng.uniform(12)) {
            case 0: y = x; break;
            case 1: y = -x; break;
            case 2: y = x.conjugate(); break;
            default: break;
        }
        a.push_back(x);
        b.push_back(y);
    }
    const size_t n = a.size();
    std::vector<ff::Fp2> want(n), got(n);
    for (size_t i = 0; i < n; ++i) want[i] = a[i] * b[i];
    const util::Status st = elementwise_mul(a, b, got, lazy);
    ASSERT_TRUE(st.ok()) << st.to_string();
    std::string report;
    const size_t bad = count_mismatches(want, got, DescribeFp2{}, report);
    EXPECT_EQ(bad, 0u) << (lazy ? "lazy" : "Karatsuba") << ": " << bad << " of " << n
                       << " differ\n"
                       << report;
}

TEST_F(GpuTest, Fp2MulLazy) { check_fp2_mul(true, 108); }
TEST_F(GpuTest, Fp2MulKaratsuba) { check_fp2_mul(false, 109); }

TEST_F(GpuTest, G1XyzzAddMixed) {
    const testing::G1Operands ops = testing::g1_operands(107, 3000);
    const size_t n = ops.p.size();
    std::vector<ec::G1Xyzz> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = ops.p[i].add_mixed(ops.q[i]);
    std::vector<ec::G1Xyzz> got(n);
    const util::Status st = g1_add_mixed(ops.p, ops.q, got);
    ASSERT_TRUE(st.ok()) << st.to_string();
    std::string report;
    const size_t bad = count_mismatches(want, got, DescribeXyzz{}, report);
    EXPECT_EQ(bad, 0u) << bad << " of " << n << " differ\n" << report;
    // The results are points of G1 (sanity on top of the bitwise comparison).
    for (size_t i = 0; i < n && i < 64; ++i) EXPECT_TRUE(got[i].to_affine().is_on_curve()) << i;
}

// A large input: more elements than one grid of kMaxBlocks blocks covers, so the grid-stride
// loop runs more than once.
TEST_F(GpuTest, FrMulGridStride) {
    const size_t n = (size_t{1} << 24) + 3;
    std::vector<ff::Fr> a(n), b(n), got(n);
    util::TestRng rng(108);
    for (size_t i = 0; i < 1024; ++i) {
        a[i] = ff::Fr::random(rng);
        b[i] = ff::Fr::random(rng);
    }
    for (size_t i = 1024; i < n; ++i) {  // cheap filler that still varies
        a[i] = a[i % 1024] + b[(i / 1024) % 1024];
        b[i] = b[i % 1024];
    }
    ASSERT_TRUE(elementwise_mul(std::span<const ff::Fr>(a), b, got).ok());
    size_t bad = 0;
    for (size_t i = 0; i < n; i += 997) bad += !(got[i] == a[i] * b[i]);
    EXPECT_TRUE(got[n - 1] == a[n - 1] * b[n - 1]);
    EXPECT_EQ(bad, 0u);
}

TEST_F(GpuTest, ErrorsBecomeStatus) {
    std::vector<ff::Fp> a(3), b(2), out(3);
    const util::Status st = elementwise_add(std::span<const ff::Fp>(a), b, out);
    EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument) << st.to_string();
    std::vector<ff::Fp> none;
    EXPECT_TRUE(elementwise_mul(std::span<const ff::Fp>(none), none, none).ok());
}

// Runs without a device too: device_count() must answer (0 here when there is none), and the
// API must report the absence as a Status rather than crash.
TEST(GpuDeviceTest, DeviceCountNeverFails) {
    const int count = device_count();
    EXPECT_GE(count, 0);
    const util::Status st = check_device_available();
    EXPECT_EQ(st.ok(), count > 0) << st.to_string();
    if (count == 0) {
        std::vector<ff::Fp> a(4, ff::Fp::one()), out(4);
        const util::Status run = elementwise_mul(std::span<const ff::Fp>(a), a, out);
        EXPECT_EQ(run.code(), util::StatusCode::kUnavailable) << run.to_string();
    }
}

}  // namespace
}  // namespace cuzk::gpu

// GPU batch addition against the CPU msm::batch_add and a plain loop of Jacobian additions:
// random bitmaps of several densities and sizes (not multiples of 64 or of the block), several
// words per thread, empty and full selections, stray bits beyond n, identity bases, repeated
// points (doubling) and P next to −P (cancellation), and the argument checks — each with the
// XYZZ method, walking each thread's words or warp-compacted (several words per thread; also
// with G1's dedicated squaring), and the batch-affine one (several lane lengths, from one item
// per lane); clustered bitmaps (runs of set and clear bits, as PoRep's bit-valued witnesses
// give: full words beside empty ones) for the compaction. Skips itself without a usable CUDA device.
#include "gpu/batch_add.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/test_inputs.hpp"
#include "msm/batch_add.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

// The parameter: the method under test (kXyzzCompactSquare: warp-compacted, with G1's dedicated
// squaring).
enum class Method { kXyzzWalk, kXyzzCompact, kXyzzCompactSquare, kBatchAffine };
class GpuBatchAddTest : public ::testing::TestWithParam<Method> {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU batch addition test skipped";
        }
    }
};

// The method under test; k is the XYZZ method's words per thread, or the batch-affine method's
// items per lane (0: automatic either way).
GpuBatchAddOptions method(Method m, size_t k = 0) {
    const bool affine = m == Method::kBatchAffine;
    GpuBatchAddOptions o;
    o.batch_affine = affine;
    o.warp_compact = m == Method::kXyzzCompact || m == Method::kXyzzCompactSquare;
    o.dedicated_square = m == Method::kXyzzCompactSquare;
    o.affine_min = 0;
    if (affine) {
        o.affine_chunk = static_cast<uint32_t>(k);
    } else {
        o.words_per_thread = k;
    }
    return o;
}

// Bits set with probability pct/100 (bits past n in the last word left clear).
std::vector<uint64_t> random_bits(util::TestRng& rng, size_t n, unsigned pct) {
    std::vector<uint64_t> bits((n + 63) / 64, 0);
    for (size_t i = 0; i < n; ++i)
        if (rng.uniform(100) < pct) bits[i / 64] |= uint64_t{1} << (i % 64);
    return bits;
}

// Runs of set and of clear bits, each 1 … 2·mean_run long.
std::vector<uint64_t> clustered_bits(util::TestRng& rng, size_t n, unsigned mean_run) {
    std::vector<uint64_t> bits((n + 63) / 64, 0);
    bool set = rng.uniform(2) == 1;
    for (size_t i = 0; i < n;) {
        const size_t run = 1 + rng.uniform(2 * mean_run);
        for (size_t j = i; j < n && j < i + run; ++j)
            if (set) bits[j / 64] |= uint64_t{1} << (j % 64);
        i += run;
        set = !set;
    }
    return bits;
}

// The oracle independent of both batch-add codes: one Jacobian addition per selected base.
ec::G1Jacobian naive_sum(const std::vector<ec::G1Affine>& bases,
                         const std::vector<uint64_t>& bits) {
    ec::G1Jacobian acc = ec::G1Jacobian::identity();
    for (size_t i = 0; i < bases.size(); ++i)
        if ((bits[i / 64] >> (i % 64)) & 1) acc = acc.add_mixed(bases[i]);
    return acc;
}

void expect_same(const DeviceG1Bases& dev, const std::vector<ec::G1Affine>& bases,
                 const std::vector<uint64_t>& bits, const char* what, Method m, size_t k = 0) {
    auto got = batch_add_g1(dev, bits, method(m, k));
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    const ec::G1Jacobian want = msm::batch_add(bases, bits);
    EXPECT_TRUE(*got == want) << what << " n=" << bases.size() << " method=" << static_cast<int>(m)
                              << " k=" << k;
}

TEST_P(GpuBatchAddTest, RandomBitmaps) {
    util::TestRng rng(801);
    for (size_t n : {1, 2, 63, 64, 65, 127, 1000, 8191, 8193, 20011}) {
        const auto bases = testing::g1_random_points(rng, n);
        auto dev = DeviceG1Bases::upload(bases);
        ASSERT_TRUE(dev.ok()) << dev.status().to_string();
        for (unsigned pct : {5u, 50u, 80u}) {
            const auto bits = random_bits(rng, n, pct);
            for (size_t k : {0, 1, 3, 64}) expect_same(*dev, bases, bits, "random", GetParam(), k);
            // the naive oracle once per bitmap
            auto got = batch_add_g1(*dev, bits, method(GetParam()));
            ASSERT_TRUE(got.ok());
            EXPECT_TRUE(*got == naive_sum(bases, bits)) << "naive n=" << n << " pct=" << pct;
        }
        for (unsigned run : {3u, 40u, 300u})
            for (size_t k : {0, 2})
                expect_same(*dev, bases, clustered_bits(rng, n, run), "clustered", GetParam(), k);
    }
}

TEST_P(GpuBatchAddTest, LargerThanOneWave) {
    util::TestRng rng(802);
    const size_t n = (size_t{1} << 18) + 37;
    const auto bases = testing::g1_random_points(rng, n);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok()) << dev.status().to_string();
    const auto bits = random_bits(rng, n, 70);
    for (size_t k : {0, 1, 5}) expect_same(*dev, bases, bits, "2^18 + 37", GetParam(), k);
}

TEST_P(GpuBatchAddTest, EmptyFullAndStrayBits) {
    util::TestRng rng(803);
    for (size_t n : {1, 64, 100, 5000}) {
        const auto bases = testing::g1_random_points(rng, n);
        auto dev = DeviceG1Bases::upload(bases);
        ASSERT_TRUE(dev.ok());
        const size_t words = (n + 63) / 64;
        std::vector<uint64_t> empty(words, 0);
        auto got = batch_add_g1(*dev, empty, method(GetParam()));
        ASSERT_TRUE(got.ok());
        EXPECT_TRUE(got->is_identity()) << "empty n=" << n;
        std::vector<uint64_t> full(words, ~uint64_t{0});  // stray bits set past n too
        expect_same(*dev, bases, full, "full + stray", GetParam());
        std::vector<uint64_t> exact(words, ~uint64_t{0});
        if (n % 64 != 0) exact.back() = (uint64_t{1} << (n % 64)) - 1;
        got = batch_add_g1(*dev, full, method(GetParam()));
        ASSERT_TRUE(got.ok());
        EXPECT_TRUE(*got == naive_sum(bases, exact)) << "stray bits counted, n=" << n;
        auto stray = random_bits(rng, n, 50);
        if (n % 64 != 0) stray.back() |= ~((uint64_t{1} << (n % 64)) - 1);
        expect_same(*dev, bases, stray, "random + stray", GetParam());
    }
    auto none = batch_add_g1(std::span<const ec::G1Affine>(), std::span<const uint64_t>(),
                             method(GetParam()));
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->is_identity());
}

TEST_P(GpuBatchAddTest, IdentityRepeatedAndCancelling) {
    util::TestRng rng(804);
    const size_t n = 3000;
    auto bases = testing::g1_random_points(rng, n);
    for (size_t i = 4; i < n; i += 11) bases[i] = ec::G1Affine::identity();
    for (size_t i = 5; i + 1 < n; i += 13) bases[i + 1] = -bases[i];
    for (size_t i = 6; i + 2 < n; i += 17) bases[i + 2] = bases[i];
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    for (unsigned pct : {50u, 100u})
        for (size_t k : {0, 1, 7})
            expect_same(*dev, bases, random_bits(rng, n, pct), "edges", GetParam(), k);

    // The same point everywhere: the sum is k·P (doublings inside the block trees).
    const std::vector<ec::G1Affine> same(n, bases[0]);
    auto dev_same = DeviceG1Bases::upload(same);
    ASSERT_TRUE(dev_same.ok());
    const auto bits = random_bits(rng, n, 60);
    size_t k = 0;
    for (uint64_t w : bits) k += static_cast<size_t>(__builtin_popcountll(w));
    auto got = batch_add_g1(*dev_same, bits, method(GetParam()));
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == ec::mul(ec::G1Jacobian::from_affine(bases[0]), ff::Fr::from_u64(k)));

    // P and −P alternating, all selected: the identity.
    std::vector<ec::G1Affine> pm(1000);
    for (size_t i = 0; i < pm.size(); ++i) pm[i] = i % 2 == 0 ? bases[1] : -bases[1];
    auto dev_pm = DeviceG1Bases::upload(pm);
    ASSERT_TRUE(dev_pm.ok());
    std::vector<uint64_t> all((pm.size() + 63) / 64, ~uint64_t{0});
    got = batch_add_g1(*dev_pm, all, method(GetParam()));
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->is_identity());
    // all identity bases
    std::vector<ec::G1Affine> ids(700, ec::G1Affine::identity());
    auto dev_ids = DeviceG1Bases::upload(ids);
    ASSERT_TRUE(dev_ids.ok());
    got = batch_add_g1(*dev_ids, std::vector<uint64_t>((700 + 63) / 64, ~uint64_t{0}),
                       method(GetParam()));
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->is_identity());
}

// n points of G2: s + i·d for random multiples s, d of the generator.
std::vector<ec::G2Affine> g2_points(util::TestRng& rng, size_t n) {
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

TEST_P(GpuBatchAddTest, G2AgainstCpu) {
    util::TestRng rng(806);
    for (size_t n : {1, 65, 1000, 9001}) {
        auto bases = g2_points(rng, n);
        if (n > 20) {
            for (size_t i = 4; i < n; i += 11) bases[i] = ec::G2Affine::identity();
            for (size_t i = 5; i + 1 < n; i += 13) bases[i + 1] = -bases[i];
            for (size_t i = 6; i + 2 < n; i += 17) bases[i + 2] = bases[i];
        }
        for (unsigned pct : {0u, 50u, 80u, 100u}) {
            auto bits = random_bits(rng, n, pct);
            if (n % 64 != 0 && pct == 100) bits.back() = ~uint64_t{0};  // stray bits too
            for (size_t k : {0, 1, 3}) {
                auto got = batch_add_g2(bases, bits, method(GetParam(), k));
                ASSERT_TRUE(got.ok()) << got.status().to_string();
                EXPECT_TRUE(*got == msm::batch_add(bases, bits))
                    << "G2 n=" << n << " pct=" << pct << " k=" << k;
            }
        }
    }
    // P, −P alternating: the identity; one point 301 times: 301·P.
    const auto pts = g2_points(rng, 1);
    std::vector<ec::G2Affine> pm(600);
    for (size_t i = 0; i < pm.size(); ++i) pm[i] = i % 2 == 0 ? pts[0] : -pts[0];
    auto got = batch_add_g2(pm, std::vector<uint64_t>(10, ~uint64_t{0}), method(GetParam()));
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->is_identity());
    const std::vector<ec::G2Affine> same(301, pts[0]);
    got = batch_add_g2(same, std::vector<uint64_t>(5, ~uint64_t{0}), method(GetParam()));
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == ec::mul(ec::G2Jacobian::from_affine(pts[0]), ff::Fr::from_u64(301)));
    EXPECT_EQ(batch_add_g2(same, std::vector<uint64_t>(4), method(GetParam())).status().code(),
              util::StatusCode::kInvalidArgument);
}

TEST_P(GpuBatchAddTest, ArgumentChecks) {
    util::TestRng rng(805);
    const auto bases = testing::g1_random_points(rng, 100);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    std::vector<uint64_t> short_bits(1);
    EXPECT_EQ(batch_add_g1(*dev, short_bits, method(GetParam())).status().code(),
              util::StatusCode::kInvalidArgument);
    GpuBatchAddOptions bad;
    bad.words_per_thread = kMaxBatchAddWordsPerThread + 1;
    EXPECT_EQ(batch_add_g1(*dev, std::vector<uint64_t>(2), bad).status().code(),
              util::StatusCode::kInvalidArgument);
    EXPECT_EQ(batch_add_g1(dev->device_data(), 100, nullptr, nullptr, nullptr, 0, nullptr,
                           method(GetParam()))
                  .code(),
              util::StatusCode::kInvalidArgument);
    EXPECT_EQ(batch_add_scratch_bytes_g1(kMaxBatchAddBases + 1, method(GetParam())).status().code(),
              util::StatusCode::kInvalidArgument);
    // Scratch one byte short (every pointer valid).
    auto need = batch_add_scratch_bytes_g1(100, method(GetParam()));
    ASSERT_TRUE(need.ok());
    auto d_bits = DeviceBuffer::allocate(2 * sizeof(uint64_t));
    auto d_out = DeviceBuffer::allocate(sizeof(ec::G1Xyzz));
    auto d_scratch = DeviceBuffer::allocate(*need);
    ASSERT_TRUE(d_bits.ok() && d_out.ok() && d_scratch.ok());
    const util::Status short_scratch = batch_add_g1(
        dev->device_data(), 100, static_cast<const uint64_t*>(d_bits->data()),
        static_cast<ec::G1Xyzz*>(d_out->data()), d_scratch->data(), *need - 1, nullptr,
        method(GetParam()));
    EXPECT_EQ(short_scratch.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(short_scratch.message().find("scratch"), std::string::npos)
        << short_scratch.to_string();
}

// A lane length that would need more than 2^24 lanes is refused before anything runs.
TEST(GpuBatchAddAffine, TooManyLanesIsAnError) {
    EXPECT_EQ(batch_add_scratch_bytes_g1((size_t{1} << 24) + 1, method(Method::kBatchAffine, 1)).status().code(),
              util::StatusCode::kInvalidArgument);
    if (device_count() == 0) GTEST_SKIP() << "no usable CUDA device for CUB's storage query";
    auto automatic = batch_add_scratch_bytes_g1((size_t{1} << 24) + 1, method(Method::kBatchAffine, 0));
    EXPECT_TRUE(automatic.ok()) << automatic.status().to_string();
}

INSTANTIATE_TEST_SUITE_P(Methods, GpuBatchAddTest,
                         ::testing::Values(Method::kXyzzWalk, Method::kXyzzCompact,
                                           Method::kXyzzCompactSquare, Method::kBatchAffine),
                         [](const ::testing::TestParamInfo<Method>& param) {
                             switch (param.param) {
                                 case Method::kXyzzWalk: return std::string("XyzzWalk");
                                 case Method::kXyzzCompact: return std::string("XyzzCompact");
                                 case Method::kXyzzCompactSquare:
                                     return std::string("XyzzCompactSquare");
                                 case Method::kBatchAffine: break;
                             }
                             return std::string("BatchAffine");
                         });

}  // namespace
}  // namespace cuzk::gpu

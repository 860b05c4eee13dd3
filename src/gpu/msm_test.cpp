// GPU G1 MSM against the CPU Pippenger (msm::msm): random inputs of many sizes and window
// sizes, and edge cases — zero, one, r − 1 and 2^255 − 1 scalars, identity bases, repeated
// points, P next to −P, a single point, every scalar in one bucket. Results must be the same
// group element. Skips itself without a usable CUDA device.
#include "gpu/msm.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gpu/device.hpp"
#include "msm/pippenger.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::BigInt;
using ff::Fr;

class GpuMsmTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU MSM test skipped";
        }
    }
};

// n distinct-looking points: a random walk P_{i+1} = P_i + Q_{i mod 3} from a random P_0.
std::vector<ec::G1Affine> walk_points(util::TestRng& rng, size_t n) {
    const ec::G1Jacobian g = ec::G1Jacobian::from_affine(ec::kG1Generator);
    const ec::G1Jacobian steps[3] = {ec::mul(g, Fr::random(rng)), ec::mul(g, Fr::random(rng)),
                                     ec::mul(g, Fr::random(rng))};
    std::vector<ec::G1Jacobian> jac(n);
    ec::G1Jacobian p = ec::mul(g, Fr::random(rng));
    for (size_t i = 0; i < n; ++i) {
        jac[i] = p;
        p += steps[i % 3];
    }
    std::vector<ec::G1Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

std::vector<BigInt<4>> random_scalars(util::TestRng& rng, size_t n) {
    std::vector<BigInt<4>> k(n);
    for (auto& x : k) x = Fr::random(rng).to_int();
    return k;
}

void expect_same(const std::vector<ec::G1Affine>& bases, const std::vector<BigInt<4>>& k,
                 unsigned window_bits, const char* what, unsigned chunk = 32) {
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok()) << dev.status().to_string();
    const ec::G1Jacobian want = msm::msm(bases, k);
    GpuMsmOptions options;
    options.window_bits = window_bits;
    options.chunk = chunk;
    auto got = msm_g1(*dev, k, options);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == want) << what << " n=" << bases.size() << " c=" << window_bits;
}

TEST_F(GpuMsmTest, RandomInputsManySizesAndWindows) {
    util::TestRng rng(601);
    for (size_t n : {1, 2, 3, 7, 100, 1000, 4096}) {
        const auto bases = walk_points(rng, n);
        const auto k = random_scalars(rng, n);
        for (unsigned c : {0u, 1u, 4u, 8u, 13u})
            for (unsigned chunk : {1u, 3u, 32u, 4096u}) expect_same(bases, k, c, "random", chunk);
    }
}

TEST_F(GpuMsmTest, LargerSizes) {
    util::TestRng rng(602);
    const size_t n = size_t{1} << 16;
    const auto bases = walk_points(rng, n);
    const auto k = random_scalars(rng, n);
    for (unsigned c : {0u, 16u, 20u}) expect_same(bases, k, c, "2^16");
}

TEST_F(GpuMsmTest, EdgeScalarsAndPoints) {
    util::TestRng rng(603);
    const size_t n = 600;
    auto bases = walk_points(rng, n);
    std::vector<BigInt<4>> k = random_scalars(rng, n);
    const BigInt<4> r_minus_1 = (-Fr::one()).to_int();
    BigInt<4> top;  // 2^255 − 1, the largest scalar msm accepts
    top.limb[0] = top.limb[1] = top.limb[2] = ~uint64_t{0};
    top.limb[3] = ~uint64_t{0} >> 1;
    for (size_t i = 0; i < n; i += 7) k[i] = BigInt<4>();              // zero
    for (size_t i = 1; i < n; i += 7) k[i] = BigInt<4>::from_u64(1);   // one
    for (size_t i = 2; i < n; i += 7) k[i] = r_minus_1;
    for (size_t i = 3; i < n; i += 7) k[i] = top;
    for (size_t i = 4; i < n; i += 11) bases[i] = ec::G1Affine::identity();
    for (size_t i = 5; i + 1 < n; i += 13) bases[i + 1] = -bases[i];  // P, −P
    for (size_t i = 6; i + 2 < n; i += 17) bases[i + 2] = bases[i];    // repeated
    for (unsigned c : {0u, 3u, 9u})
        for (unsigned chunk : {1u, 2u, 32u, 700u}) expect_same(bases, k, c, "edges", chunk);
    // every scalar equal: all points in one bucket per window (P + P doublings inside buckets)
    std::vector<BigInt<4>> same(n, Fr::random(rng).to_int());
    expect_same(bases, same, 0, "one bucket");
    std::vector<BigInt<4>> zeros(n);
    expect_same(bases, zeros, 0, "all zero");
}

TEST_F(GpuMsmTest, FrConvenienceAndErrors) {
    util::TestRng rng(604);
    const auto bases = walk_points(rng, 50);
    std::vector<Fr> k(50);
    for (Fr& x : k) x = Fr::random(rng);
    auto got = msm_g1(bases, k);
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == msm::msm(bases, k));
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    std::vector<BigInt<4>> short_k(49);
    EXPECT_EQ(msm_g1(*dev, short_k).status().code(), util::StatusCode::kInvalidArgument);
    std::vector<BigInt<4>> big(50);
    big[3].limb[3] = uint64_t{1} << 63;
    EXPECT_EQ(msm_g1(*dev, big).status().code(), util::StatusCode::kInvalidArgument);
    std::vector<BigInt<4>> ok_k(50);
    GpuMsmOptions bad;
    bad.window_bits = GpuMsmOptions::kMaxWindowBits + 1;
    EXPECT_EQ(msm_g1(*dev, ok_k, bad).status().code(), util::StatusCode::kInvalidArgument);
    GpuMsmOptions bad_chunk;
    bad_chunk.chunk = 0;
    EXPECT_EQ(msm_g1(*dev, ok_k, bad_chunk).status().code(), util::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cuzk::gpu

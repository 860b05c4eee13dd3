// The GPU split MSM (classify, batch-add the ones, tail MSM of the others; G1 and G2) against
// the CPU msm::msm on the full scalar vector: 80 % bits, all bits, no bits, all zero, all one, n =
// 1, sizes not multiples of 64; and the counts it reports against a CPU count; four at once from
// their own threads on their own streams. Skips itself without a usable CUDA device.
#include "gpu/msm_split.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/test_inputs.hpp"
#include "msm/pippenger.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

class GpuMsmSplitTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU split MSM test skipped";
        }
    }
};

std::vector<Fr> scalars_with_bits(util::TestRng& rng, size_t n, unsigned bit_pct) {
    std::vector<Fr> s(n);
    for (Fr& x : s) {
        if (rng.uniform(100) < bit_pct)
            x = rng.uniform(2) == 0 ? Fr::zero() : Fr::one();
        else
            x = Fr::random(rng);
    }
    return s;
}

void expect_same(const std::vector<ec::G1Affine>& bases, const std::vector<Fr>& s,
                 const char* what) {
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok()) << dev.status().to_string();
    SplitMsmCounts counts;
    auto got = msm_g1_split(*dev, s, {}, &counts);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == msm::msm(bases, s)) << what << " n=" << bases.size();
    size_t ones = 0, others = 0;
    for (const Fr& x : s) {
        if (x == Fr::one())
            ++ones;
        else if (!x.is_zero())
            ++others;
    }
    EXPECT_EQ(counts.ones, ones) << what;
    EXPECT_EQ(counts.others, others) << what;
}

TEST_F(GpuMsmSplitTest, EightyPercentBits) {
    util::TestRng rng(901);
    for (size_t n : {1, 2, 65, 1000, 30001}) {
        auto bases = testing::g1_random_points(rng, n);
        expect_same(bases, scalars_with_bits(rng, n, 80), "80% bits");
        if (n > 10) {
            bases[3] = ec::G1Affine::identity();
            bases[5] = -bases[4];
            bases[7] = bases[6];
            expect_same(bases, scalars_with_bits(rng, n, 80), "80% bits, edge bases");
        }
    }
}

TEST_F(GpuMsmSplitTest, DegenerateScalarVectors) {
    util::TestRng rng(902);
    for (size_t n : {1, 64, 777}) {
        const auto bases = testing::g1_random_points(rng, n);
        expect_same(bases, std::vector<Fr>(n, Fr::zero()), "all zero");
        expect_same(bases, std::vector<Fr>(n, Fr::one()), "all one");
        expect_same(bases, scalars_with_bits(rng, n, 100), "only bits");
        expect_same(bases, scalars_with_bits(rng, n, 0), "no bits");
    }
}

std::vector<ec::G2Affine> g2_points(util::TestRng& rng, size_t n) {
    const ec::G2Jacobian g = ec::G2Jacobian::from_affine(ec::kG2Generator);
    ec::G2Jacobian acc = ec::mul(g, Fr::random(rng));
    const ec::G2Jacobian step = ec::mul(g, Fr::random(rng));
    std::vector<ec::G2Jacobian> jac(n);
    for (size_t i = 0; i < n; ++i) {
        jac[i] = acc;
        acc += step;
    }
    std::vector<ec::G2Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

TEST_F(GpuMsmSplitTest, G2EightyPercentBits) {
    util::TestRng rng(904);
    for (size_t n : {1, 65, 3001}) {
        auto bases = g2_points(rng, n);
        if (n > 10) {
            bases[3] = ec::G2Affine::identity();
            bases[5] = -bases[4];
            bases[7] = bases[6];
        }
        auto dev = DeviceG2Bases::upload(bases);
        ASSERT_TRUE(dev.ok()) << dev.status().to_string();
        for (unsigned pct : {80u, 0u, 100u}) {
            const auto s = scalars_with_bits(rng, n, pct);
            SplitMsmCounts counts;
            auto got = msm_g2_split(*dev, s, {}, &counts);
            ASSERT_TRUE(got.ok()) << got.status().to_string();
            EXPECT_TRUE(*got == msm::msm(bases, s)) << "G2 n=" << n << " pct=" << pct;
            size_t ones = 0;
            for (const Fr& x : s) ones += x == Fr::one() ? 1 : 0;
            EXPECT_EQ(counts.ones, ones);
        }
        auto all_one = msm_g2_split(*dev, std::vector<Fr>(n, Fr::one()));
        ASSERT_TRUE(all_one.ok());
        EXPECT_TRUE(*all_one == msm::msm(bases, std::vector<Fr>(n, Fr::one())));
    }
}

// Split MSMs as the prover runs them with concurrent_split_msms: several at once from their own
// threads, each on its own non-blocking stream (GpuMsmOptions::stream), temporaries pooled on
// that stream or allocated; tails in XYZZ and batch-affine (whose part streams fork from it).
TEST_F(GpuMsmSplitTest, ConcurrentOnOwnStreams) {
    util::TestRng rng(905);
    const size_t n1 = 30001, n2 = 3001;
    const auto bases1 = testing::g1_random_points(rng, n1);
    const auto bases2 = g2_points(rng, n2);
    auto dev1 = DeviceG1Bases::upload(bases1);
    auto dev2 = DeviceG2Bases::upload(bases2);
    ASSERT_TRUE(dev1.ok() && dev2.ok());
    constexpr int kTasks = 4;  // G1 80 %, G1 30 %, G2 80 %, G2 30 %
    std::vector<Fr> scalars[kTasks] = {
        scalars_with_bits(rng, n1, 80), scalars_with_bits(rng, n1, 30),
        scalars_with_bits(rng, n2, 80), scalars_with_bits(rng, n2, 30)};
    DeviceBuffer dev_scalars[kTasks];
    for (int i = 0; i < kTasks; ++i) {
        auto b = DeviceBuffer::allocate(scalars[i].size() * sizeof(Fr));
        ASSERT_TRUE(b.ok());
        dev_scalars[i] = std::move(*b);
        ASSERT_TRUE(dev_scalars[i].upload(scalars[i].data(), dev_scalars[i].size()).ok());
    }
    const ec::G1Jacobian want1[2] = {msm::msm(bases1, scalars[0]), msm::msm(bases1, scalars[1])};
    const ec::G2Jacobian want2[2] = {msm::msm(bases2, scalars[2]), msm::msm(bases2, scalars[3])};
    cudaStream_t streams[kTasks] = {};
    for (cudaStream_t& st : streams)
        ASSERT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
    for (bool pool : {true, false}) {
        for (bool batch_affine_tail : {false, true}) {
            bool same[kTasks] = {};
            std::string error[kTasks];
            std::vector<std::thread> threads;
            for (int i = 0; i < kTasks; ++i) {
                threads.emplace_back([&, i] {
                    GpuMsmOptions o;
                    o.stream = streams[i];
                    o.pool_scratch = pool;
                    if (batch_affine_tail) {
                        o.batch_affine_min_points = 1;
                        o.batch_affine_min_points_g2 = 1;
                    }
                    const auto* k = static_cast<const Fr*>(dev_scalars[i].data());
                    if (i < 2) {
                        auto got = msm_g1_split(dev1->device_data(), n1, k, o);
                        if (got.ok()) same[i] = *got == want1[i];
                        else error[i] = got.status().to_string();
                    } else {
                        auto got = msm_g2_split(dev2->device_data(), n2, k, o);
                        if (got.ok()) same[i] = *got == want2[i - 2];
                        else error[i] = got.status().to_string();
                    }
                });
            }
            for (std::thread& th : threads) th.join();
            for (int i = 0; i < kTasks; ++i) {
                EXPECT_TRUE(error[i].empty()) << "task " << i << ": " << error[i];
                EXPECT_TRUE(same[i]) << "task " << i << " pool=" << pool
                                     << " batch-affine tail=" << batch_affine_tail;
            }
        }
    }
    for (cudaStream_t st : streams) EXPECT_EQ(cudaStreamDestroy(st), cudaSuccess);
}

TEST_F(GpuMsmSplitTest, SizeMismatch) {
    util::TestRng rng(903);
    const auto bases = testing::g1_random_points(rng, 10);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    std::vector<Fr> s(9);
    EXPECT_EQ(msm_g1_split(*dev, s).status().code(), util::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cuzk::gpu

// GPU parameter generation against the CPU's: fixed-base products of random and edge-case
// scalars (0, 1, 2, r − 1, 2^k, all-ones digits) equal ec::FixedBaseTable::mul on the host for
// G1 and G2, across several windows, chunk sizes that split the input unevenly and counts that
// are not multiples of the normalization run; whole parameter sets from generate_resident_params
// equal groth16::generate_parameters' point for point (same toxic waste), and a proof made with
// them on the GPU verifies. Skips without a device.
#include "gpu/resident_setup.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/prover.hpp"
#include "groth16/example_circuits.hpp"
#include "groth16/verifier.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

class GpuSetupTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU setup test skipped";
    }
};

std::vector<Fr> test_scalars(size_t random_count, uint64_t seed) {
    std::vector<Fr> s = {Fr::zero(), Fr::one(), Fr::from_u64(2), -Fr::one(), Fr::from_u64(65535),
                         Fr::from_u64(uint64_t{1} << 63)};
    Fr p = Fr::one();
    for (int k = 0; k < 254; k += 23) {  // powers of two: single-digit scalars in many windows
        s.push_back(p);
        for (int j = 0; j < 23; ++j) p = p + p;
    }
    util::TestRng rng(seed);
    for (size_t i = 0; i < random_count; ++i) s.push_back(Fr::random(rng));
    s.push_back(s[7]);  // a repeated scalar
    return s;
}

template <class C>
void expect_fixed_base_matches(unsigned window, size_t chunk, size_t random_count) {
    util::ThreadPool& pool = util::ThreadPool::global();
    const auto& gen = [] {
        if constexpr (std::is_same_v<C, ec::G1Curve>) return ec::kG1Generator;
        else return ec::kG2Generator;
    }();
    const ec::FixedBaseTable<C> table(gen, window, pool);
    const std::vector<Fr> scalars = test_scalars(random_count, 40 + window);
    auto dev = DeviceBuffer::allocate(scalars.size() * sizeof(ec::Affine<C>));
    ASSERT_TRUE(dev.ok());
    GpuSetupOptions opt;
    opt.chunk_points = chunk;
    auto* out = static_cast<ec::Affine<C>*>(dev->data());
    ASSERT_TRUE(fixed_base_mul_device(table, std::span<const Fr>(scalars), out, opt).ok());
    std::vector<ec::Affine<C>> got(scalars.size());
    ASSERT_TRUE(dev->download(got.data(), got.size() * sizeof(ec::Affine<C>)).ok());
    for (size_t i = 0; i < scalars.size(); ++i) {
        const ec::Affine<C> want = table.mul(scalars[i].to_int()).to_affine();
        ASSERT_TRUE(got[i] == want) << "window " << window << " chunk " << chunk << " scalar " << i;
        // And independently of the table: the double-and-add product.
        if (i < 24) {
            const auto direct = ec::mul(ec::Jacobian<C>::from_affine(gen), scalars[i]).to_affine();
            ASSERT_TRUE(got[i] == direct) << "scalar " << i;
        }
    }
}

TEST_F(GpuSetupTest, G1FixedBaseMatchesHost) {
    expect_fixed_base_matches<ec::G1Curve>(5, 1000, 3000);     // many chunks, uneven tail
    expect_fixed_base_matches<ec::G1Curve>(13, 1 << 20, 513);  // one chunk
    expect_fixed_base_matches<ec::G1Curve>(16, 77, 200);
}

TEST_F(GpuSetupTest, G2FixedBaseMatchesHost) {
    expect_fixed_base_matches<ec::G2Curve>(7, 333, 1500);
    expect_fixed_base_matches<ec::G2Curve>(12, 1 << 20, 100);
}

TEST_F(GpuSetupTest, WholeParametersEqualTheCpuSetupAndProve) {
    for (const char* name : {"cubic", "random:12", "sha256:1"}) {
        auto ex = groth16::examples::make_example_circuit(name);
        ASSERT_TRUE(ex.ok());
        const auto toxic = groth16::ToxicWaste::from_seed(31);
        auto cpu = groth16::generate_parameters(ex->circuit, toxic);
        ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
        auto scalars = groth16::compute_parameter_scalars(ex->circuit, toxic);
        ASSERT_TRUE(scalars.ok());
        GpuSetupOptions opt;
        opt.chunk_points = 4093;  // several chunks per section
        opt.placement = Placement::kDevice;
        auto gpu = generate_resident_params(*scalars, opt);
        ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
        EXPECT_TRUE(gpu->vk().ic == cpu->vk.ic) << name;
        EXPECT_TRUE(gpu->vk().delta_g2 == cpu->vk.delta_g2) << name;
        using groth16::Section;
        EXPECT_TRUE(*gpu->download_g1(Section::kH) == cpu->h) << name;
        EXPECT_TRUE(*gpu->download_g1(Section::kL) == cpu->l) << name;
        EXPECT_TRUE(*gpu->download_g1(Section::kA) == cpu->a) << name;
        EXPECT_TRUE(*gpu->download_g1(Section::kBG1) == cpu->b_g1) << name;
        EXPECT_TRUE(*gpu->download_b_g2() == cpu->b_g2) << name;

        const auto r = groth16::ProverRandomness::from_seed(3);
        auto proofs = prove_gpu(*gpu, std::span<const groth16::Circuit>(&ex->circuit, 1),
                                std::span<const groth16::ProverRandomness>(&r, 1));
        ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
        auto ok = groth16::verify(groth16::prepare_verifying_key(cpu->vk), (*proofs)[0],
                                  ex->public_inputs);
        ASSERT_TRUE(ok.ok());
        EXPECT_TRUE(*ok) << name;
    }
}

TEST_F(GpuSetupTest, InconsistentScalarsAreRefused) {
    groth16::ParameterScalars sc;
    sc.domain_size = 8;
    sc.h.resize(3);  // should be 7
    auto got = generate_resident_params(sc);
    ASSERT_FALSE(got.ok());
    EXPECT_NE(got.status().message().find("domain size - 1"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::gpu

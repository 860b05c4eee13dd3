// GPU H computation against the CPU prover's (groth16::compute_h_scalars): random a, b, c of
// power-of-two and other lengths (zero-padded), a satisfied-witness shape (c = a·b, so the top
// coefficient is zero), both NTT algorithms, seven transforms and six (c not sent to the coset),
// without a full twiddle table, with the domain's and with one taken from the scratch pool; and
// the coset-Lagrange step (the coset products a_c·b_c) against the host NTT's.
// Bit-identical results required. Skips itself
// without a usable CUDA device.
#include "gpu/h_poly.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gpu/device.hpp"
#include "gpu/scratch_cache.hpp"
#include "groth16/prover.hpp"
#include "ntt/ntt.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

class GpuHTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0)
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU H test skipped";
    }
};

std::vector<Fr> random_vector(util::TestRng& rng, size_t n) {
    std::vector<Fr> v(n);
    for (Fr& x : v) x = Fr::random(rng);
    return v;
}

void expect_same(const std::vector<Fr>& a, const std::vector<Fr>& b, const std::vector<Fr>& c,
                 NttAlgorithm alg, bool bit_reversal_free = true) {
    auto want = groth16::compute_h_scalars(a, b, c);
    ASSERT_TRUE(want.ok());
    // Full twiddle table: 0 none, 1 the domain's, 2 pooled for the step.
    for (bool six : {true, false})
        for (int table = 0; table < 3; ++table) {
            NttOptions options{alg};
            options.bit_reversal_free = bit_reversal_free;
            options.h_six_transforms = six;
            options.full_twiddle_table = table == 1;
            options.h_pooled_twiddle_table = table == 2;
            auto got = compute_h(a, b, c, options);
            ASSERT_TRUE(got.ok()) << got.status().to_string();
            ASSERT_EQ(got->size(), want->size());
            for (size_t i = 0; i < want->size(); ++i)
                ASSERT_TRUE((*got)[i] == (*want)[i])
                    << "n=" << a.size() << " coefficient " << i << " bit_reversal_free "
                    << bit_reversal_free << " six transforms " << six << " full table " << table;
        }
}

TEST_F(GpuHTest, RandomVectorsManyLengths) {
    util::TestRng rng(701);
    for (size_t n : std::vector<size_t>{1, 2, 3, 5, 64, 1000, 1024, 4097, size_t{1} << 16,
                                        (size_t{1} << 18) - 7}) {
        const auto a = random_vector(rng, n), b = random_vector(rng, n), c = random_vector(rng, n);
        for (NttAlgorithm alg : {NttAlgorithm::kDif, NttAlgorithm::kDit})
            for (bool free : {true, false}) expect_same(a, b, c, alg, free);
    }
}

// compute_h_device over coset-Lagrange bases: a ← coset(iNTT(a))·coset(iNTT(b)), all m values,
// c not read (null), against the host transforms; with and without the pooled twiddle table.
TEST_F(GpuHTest, CosetProductsMatchHost) {
    util::TestRng rng(709);
    for (size_t n : std::vector<size_t>{1, 3, 64, 1000, 4097, (size_t{1} << 18) - 7}) {
        std::vector<Fr> a = random_vector(rng, n), b = random_vector(rng, n);
        auto d = ntt::EvaluationDomain::create(n);
        ASSERT_TRUE(d.ok());
        const size_t m = d->size();
        a.resize(m, Fr::zero());
        b.resize(m, Fr::zero());
        std::vector<Fr> want_a = a, want_b = b;
        for (std::vector<Fr>* v : {&want_a, &want_b}) {
            ASSERT_TRUE(ntt::inverse(std::span<Fr>(*v), *d).ok());
            ASSERT_TRUE(ntt::coset_forward(std::span<Fr>(*v), *d).ok());
        }
        for (bool pooled : {true, false}) {
            NttOptions options;
            options.h_pooled_twiddle_table = pooled;
            auto domain = NttDomain::create(d->log_size(), options);
            ASSERT_TRUE(domain.ok());
            auto dev_a = DeviceBuffer::allocate(m * sizeof(Fr));
            auto dev_b = DeviceBuffer::allocate(m * sizeof(Fr));
            ASSERT_TRUE(dev_a.ok() && dev_b.ok());
            ASSERT_TRUE(dev_a->upload(a.data(), m * sizeof(Fr)).ok());
            ASSERT_TRUE(dev_b->upload(b.data(), m * sizeof(Fr)).ok());
            ASSERT_TRUE(compute_h_device(**domain, static_cast<Fr*>(dev_a->data()),
                                         static_cast<Fr*>(dev_b->data()), nullptr, nullptr,
                                         options, groth16::HBasis::kCosetLagrange)
                            .ok());
            std::vector<Fr> got(m);
            ASSERT_TRUE(dev_a->download(got.data(), m * sizeof(Fr)).ok());
            for (size_t i = 0; i < m; ++i)
                ASSERT_TRUE(got[i] == want_a[i] * want_b[i])
                    << "n=" << n << " value " << i << " pooled table " << pooled;
        }
    }
}

// 2^22: the transforms run in three passes, the middle one with its own twiddle table.
TEST_F(GpuHTest, ThreePassDomain) {
    util::TestRng rng(703);
    const size_t n = (size_t{1} << 21) + 3;
    const auto a = random_vector(rng, n), b = random_vector(rng, n), c = random_vector(rng, n);
    for (bool free : {true, false}) expect_same(a, b, c, NttAlgorithm::kDif, free);
}

// The pooled table comes from the device's ScratchPool (which keeps what it reserved) exactly
// when asked for and the domain has an outer pass: an emptied pool holds at least m·32 bytes
// after a pooled step of 2^18, nothing after one without the switch or of 2^10.
TEST_F(GpuHTest, PooledTableComesFromTheScratchPool) {
    util::TestRng rng(704);
    for (size_t n : {size_t{1} << 18, size_t{1} << 10})
        for (bool pooled : {false, true}) {
            const auto a = random_vector(rng, n), b = random_vector(rng, n),
                       c = random_vector(rng, n);
            NttOptions options;
            options.full_twiddle_table = false;
            options.h_pooled_twiddle_table = pooled;
            ScratchPool::instance().trim();
            ASSERT_EQ(ScratchPool::instance().reserved_bytes(), 0u);
            auto got = compute_h(a, b, c, options);
            ASSERT_TRUE(got.ok()) << got.status().to_string();
            const size_t reserved = ScratchPool::instance().reserved_bytes();
            if (pooled && n > 1024)
                EXPECT_GE(reserved, n * sizeof(Fr)) << "n=" << n;
            else
                EXPECT_EQ(reserved, 0u) << "n=" << n << " pooled " << pooled;
        }
}

TEST_F(GpuHTest, SatisfiedShapeHasZeroTop) {
    util::TestRng rng(702);
    const size_t n = 3000;
    const auto a = random_vector(rng, n), b = random_vector(rng, n);
    std::vector<Fr> c(n);
    for (size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
    expect_same(a, b, c, NttAlgorithm::kDif);
}

TEST_F(GpuHTest, BadLengthsAreErrors) {
    std::vector<Fr> a(4, Fr::one()), b(3, Fr::one());
    EXPECT_EQ(compute_h(a, b, a).status().code(), util::StatusCode::kInvalidArgument);
    std::vector<Fr> none;
    EXPECT_EQ(compute_h(none, none, none).status().code(), util::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cuzk::gpu

// GPU scalar classification against a CPU classification: random vectors dominated by 0 and 1
// (bit-valued witnesses are the common case), all zero, all one, all "other", sizes that are
// not multiples of 64 or of the block, n = 1, n = 0, a size spanning many CUB tiles, and the
// device-pointer API's argument checks. Skips itself without a usable CUDA device.
#include "gpu/classify.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "util/rng.hpp"

namespace cuzk::gpu {
namespace {

using ff::BigInt;
using ff::Fr;

class GpuClassifyTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU classification test skipped";
        }
    }
};

// The CPU oracle: a plain loop over host field elements.
Classification cpu_classify(const std::vector<Fr>& s) {
    Classification c;
    c.ones_bits.assign((s.size() + 63) / 64, 0);
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i].is_zero()) continue;
        if (s[i] == Fr::one()) {
            c.ones_bits[i / 64] |= uint64_t{1} << (i % 64);
            ++c.ones;
            continue;
        }
        c.other_indices.push_back(static_cast<uint32_t>(i));
        c.other_scalars.push_back(s[i].to_int());
    }
    return c;
}

// zero_pct % zeros, one_pct % ones, the rest random (with some −1, 2 and R-like edge values).
std::vector<Fr> mixed_scalars(util::TestRng& rng, size_t n, unsigned zero_pct, unsigned one_pct) {
    std::vector<Fr> s(n);
    for (Fr& x : s) {
        const uint64_t u = rng.uniform(100);
        if (u < zero_pct) {
            x = Fr::zero();
        } else if (u < zero_pct + one_pct) {
            x = Fr::one();
        } else {
            switch (rng.uniform(8)) {
                case 0:
                    x = -Fr::one();
                    break;
                case 1:
                    x = Fr::from_u64(2);
                    break;
                case 2:
                    x = Fr::raw(BigInt<4>::from_u64(1));
                    break;  // the integer R^-1
                default:
                    x = Fr::random(rng);
                    break;
            }
        }
    }
    return s;
}

void expect_same(const std::vector<Fr>& s, const char* what) {
    auto got = classify_scalars(s);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    const Classification want = cpu_classify(s);
    EXPECT_EQ(got->ones, want.ones) << what << " n=" << s.size();
    EXPECT_EQ(got->ones_bits, want.ones_bits) << what << " n=" << s.size();
    ASSERT_EQ(got->other_indices, want.other_indices) << what << " n=" << s.size();
    ASSERT_EQ(got->other_scalars.size(), want.other_scalars.size());
    for (size_t j = 0; j < want.other_scalars.size(); ++j) {
        ASSERT_TRUE(got->other_scalars[j] == want.other_scalars[j]) << what << " j=" << j;
        // and back through the independent Montgomery conversion (×R² instead of ×1)
        ASSERT_TRUE(Fr::from_int(got->other_scalars[j]) == s[got->other_indices[j]]);
    }
}

TEST_F(GpuClassifyTest, MostlyBitsManySizes) {
    util::TestRng rng(701);
    for (size_t n : {1, 2, 31, 32, 33, 63, 64, 65, 127, 255, 256, 257, 511, 1000, 4097, 100003}) {
        expect_same(mixed_scalars(rng, n, 45, 45), "45/45");
        expect_same(mixed_scalars(rng, n, 10, 80), "10/80");
        expect_same(mixed_scalars(rng, n, 0, 0), "all other");
    }
}

TEST_F(GpuClassifyTest, ManyTiles) {
    util::TestRng rng(702);
    expect_same(mixed_scalars(rng, (size_t{1} << 21) + 17, 30, 60), "2^21 + 17");
}

TEST_F(GpuClassifyTest, UniformVectors) {
    for (size_t n : {1, 64, 65, 1000, 70001}) {
        expect_same(std::vector<Fr>(n, Fr::zero()), "all zero");
        expect_same(std::vector<Fr>(n, Fr::one()), "all one");
        expect_same(std::vector<Fr>(n, Fr::from_u64(3)), "all three");
    }
    auto empty = classify_scalars(std::span<const Fr>());
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(empty->ones, 0u);
    EXPECT_TRUE(empty->ones_bits.empty() && empty->other_indices.empty());
}

// The identity-list conversion the H MSM uses: every scalar (0, 1, edges, random), into a second
// buffer and in place, against the host's to_int.
TEST_F(GpuClassifyTest, ScalarsToCanonical) {
    util::TestRng rng(703);
    for (size_t n : {1, 255, 256, 257, 100003}) {
        const std::vector<Fr> s = mixed_scalars(rng, n, 10, 10);
        auto d_in = DeviceBuffer::allocate(n * sizeof(Fr));
        auto d_out = DeviceBuffer::allocate(n * sizeof(BigInt<4>));
        ASSERT_TRUE(d_in.ok() && d_out.ok());
        ASSERT_TRUE(d_in->upload(s.data(), n * sizeof(Fr)).ok());
        auto* in = static_cast<Fr*>(d_in->data());
        for (bool in_place : {false, true}) {
            auto* out = in_place ? reinterpret_cast<BigInt<4>*>(in)
                                 : static_cast<BigInt<4>*>(d_out->data());
            ASSERT_TRUE(scalars_to_canonical(in, n, out, nullptr).ok());
            std::vector<BigInt<4>> got(n);
            ASSERT_TRUE((in_place ? *d_in : *d_out).download(got.data(), n * 32).ok());
            for (size_t i = 0; i < n; ++i)
                ASSERT_TRUE(got[i] == s[i].to_int()) << "n=" << n << " i=" << i << " in_place="
                                                     << in_place;
        }
    }
    EXPECT_TRUE(scalars_to_canonical(nullptr, 0, nullptr, nullptr).ok());
    EXPECT_EQ(scalars_to_canonical(nullptr, 5, nullptr, nullptr).code(),
              util::StatusCode::kInvalidArgument);
}

TEST_F(GpuClassifyTest, DevicePointerArgumentChecks) {
    ClassifyOutputs out;  // all null
    EXPECT_EQ(classify_scalars(nullptr, 10, out, nullptr, 0, nullptr).code(),
              util::StatusCode::kInvalidArgument);
    EXPECT_EQ(classify_scalars(nullptr, kMaxClassifyScalars + 1, out, nullptr, 0, nullptr).code(),
              util::StatusCode::kInvalidArgument);
    EXPECT_EQ(classify_scratch_bytes(kMaxClassifyScalars + 1).status().code(),
              util::StatusCode::kInvalidArgument);
    auto bytes = classify_scratch_bytes(1000);
    ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
    EXPECT_GT(*bytes, 0u);
}

}  // namespace
}  // namespace cuzk::gpu

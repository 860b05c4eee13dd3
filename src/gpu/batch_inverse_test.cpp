// The levelled batch inversion (batch_inverse_launch.hpp, gpu::batch_inverse) against the host's
// Fermat inverse, element by element, for Fp and Fp2: sizes that stop at the one-per-thread top
// level (1, 2, 1024), that need one more level with partial last groups (1025, 33·1024 + 5), and
// three levels (200,003); random elements mixed with the edge values 1, −1 and 2. A zero input is
// refused with its index. Skips itself without a usable CUDA device.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "gpu/device.hpp"
#include "gpu/ff_kernels.hpp"
#include "util/rng.hpp"
#include "util/status.hpp"

namespace cuzk::gpu {
namespace {

class GpuBatchInverseTest : public ::testing::Test {
   protected:
    void SetUp() override {
        if (device_count() == 0) {
            GTEST_SKIP() << "no usable CUDA device (" << check_device_available().to_string()
                         << "); GPU batch inversion test skipped";
        }
    }
};

ff::Fp random_nonzero(util::TestRng& rng, ff::Fp) {
    for (;;) {
        const ff::Fp x = ff::Fp::random(rng);
        if (!x.is_zero()) return x;
    }
}
ff::Fp2 random_nonzero(util::TestRng& rng, ff::Fp2) {
    for (;;) {
        const ff::Fp2 x{ff::Fp::random(rng), ff::Fp::random(rng)};
        if (!x.is_zero()) return x;
    }
}

template <class F>
void expect_inverses(util::TestRng& rng, size_t m, const F& one) {
    std::vector<F> in(m);
    for (size_t i = 0; i < m; ++i) in[i] = random_nonzero(rng, one);
    for (size_t i = 0; i < m; i += 97) in[i] = one;
    for (size_t i = 1; i < m; i += 89) in[i] = -one;
    for (size_t i = 2; i < m; i += 83) in[i] = one + one;
    std::vector<F> got(m);
    const util::Status status = batch_inverse(in, got);
    ASSERT_TRUE(status.ok()) << status.to_string();
    size_t wrong = 0;
    size_t first_wrong = m;
    for (size_t i = 0; i < m; ++i) {
        if (!(got[i] == in[i].inverse())) {
            if (wrong++ == 0) first_wrong = i;
        }
    }
    EXPECT_EQ(wrong, 0u) << "m=" << m << ", first wrong index " << first_wrong;
}

TEST_F(GpuBatchInverseTest, FpMatchesHostInverse) {
    util::TestRng rng(801);
    for (size_t m : {size_t{1}, size_t{2}, size_t{1024}, size_t{1025}, size_t{33 * 1024 + 5},
                     size_t{200003}})
        expect_inverses(rng, m, ff::Fp::one());
}

TEST_F(GpuBatchInverseTest, Fp2MatchesHostInverse) {
    util::TestRng rng(802);
    for (size_t m : {size_t{3}, size_t{1025}, size_t{40000}})
        expect_inverses(rng, m, ff::Fp2::one());
}

TEST_F(GpuBatchInverseTest, ZeroIsRefusedWithItsIndex) {
    std::vector<ff::Fp> in(10, ff::Fp::one());
    in[7] = ff::Fp::zero();
    std::vector<ff::Fp> out(10);
    const util::Status status = batch_inverse(in, out);
    EXPECT_EQ(status.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(status.to_string().find("element 7 is zero"), std::string::npos) << status.to_string();
}

}  // namespace
}  // namespace cuzk::gpu

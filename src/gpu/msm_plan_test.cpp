// The MSM's plan on the host (no device needed; label cuda): windows per pass, the batch-affine
// chunk under passes, and the choice of the fewest passes that fit a budget.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gpu/msm.hpp"

namespace cuzk::gpu {
namespace {

TEST(MsmPlan, WindowsPerPassClampedAndCounted) {
    GpuMsmOptions options;
    options.window_bits = 20;  // ⌊255/20⌋ + 1 = 13 windows
    options.windows_per_pass = 0;
    MsmPlan all = plan_msm(options, size_t{1} << 20, false);
    EXPECT_EQ(all.windows, 13u);
    EXPECT_EQ(all.windows_per_pass, 13u);
    EXPECT_EQ(all.passes(), 1u);
    // windows per pass asked → (as planned, passes)
    const unsigned cases[][3] = {{1, 1, 13}, {2, 2, 7},   {4, 4, 4},   {5, 5, 3},  {6, 6, 3},
                                 {7, 7, 2},  {12, 12, 2}, {13, 13, 1}, {40, 13, 1}};
    for (const auto& [asked, wpp, passes] : cases) {
        options.windows_per_pass = asked;
        const MsmPlan p = plan_msm(options, size_t{1} << 20, false);
        EXPECT_EQ(p.windows_per_pass, wpp) << asked;
        EXPECT_EQ(p.passes(), passes) << asked;
    }
    // The call's own choice overrides the option.
    options.windows_per_pass = 2;
    EXPECT_EQ(plan_msm(options, size_t{1} << 20, false, 5).windows_per_pass, 5u);
}

// The batch-affine chunk is chosen from all the call's items: passes do not shorten it (shorter
// chunks take more bytes per item, against the reason for passes).
TEST(MsmPlan, BatchAffineChunkIgnoresPasses) {
    GpuMsmOptions options;
    options.window_bits = 20;
    options.batch_affine = true;
    options.batch_affine_min_points = 0;
    options.batch_affine_chunk = 0;
    const size_t n = size_t{1} << 26;
    // 13·2^26 items: more than 24·2^20 chunks of 16, so chunks of 32.
    EXPECT_EQ(default_batch_affine_chunk(n * 13, false), 32u);
    EXPECT_EQ(default_batch_affine_chunk(n, false), 8u);
    for (unsigned wpp : {0u, 1u, 4u, 13u}) {
        const MsmPlan p = plan_msm(options, n, false, wpp);
        EXPECT_TRUE(p.batch_affine);
        EXPECT_EQ(p.chunk, 32u) << wpp;
    }
}

TEST(MsmPlan, FittingWindowsPerPassTakesFewestEvenPasses) {
    // bytes: a fixed 100 plus 10 per window of a pass.
    std::vector<unsigned> asked;
    auto bytes = [&](unsigned w) {
        asked.push_back(w);
        return size_t{100} + size_t{10} * w;
    };
    EXPECT_EQ(fitting_windows_per_pass(13, 1000, bytes), 13u);  // everything fits: one pass
    EXPECT_EQ(asked.front(), 13u);
    // 150 bytes: at most 5 windows per pass → 3 passes, as even as can be: ⌈13/3⌉ = 5.
    EXPECT_EQ(fitting_windows_per_pass(13, 150, bytes), 5u);
    // 140: 4 windows per pass → 4 passes of ⌈13/4⌉ = 4.
    EXPECT_EQ(fitting_windows_per_pass(13, 140, bytes), 4u);
    // 175: 7 would fit, and two passes of ⌈13/2⌉ = 7 are the fewest.
    EXPECT_EQ(fitting_windows_per_pass(13, 175, bytes), 7u);
    // 169: 6 fit → ⌈13/3⌉ = 5 (three passes; 6 + 6 + 1 would be three passes as well).
    EXPECT_EQ(fitting_windows_per_pass(13, 169, bytes), 5u);
    // Nothing fits: one window per pass.
    EXPECT_EQ(fitting_windows_per_pass(13, 50, bytes), 1u);
    EXPECT_EQ(fitting_windows_per_pass(1, 50, bytes), 1u);
}

}  // namespace
}  // namespace cuzk::gpu

// The GPU prover's memory plan on the host (no device needed; label cuda): when the compiled
// path plans lean (GpuProverOptions::MemoryPlan), from the bytes a 32 GiB PoRep partition's full
// plan adds and the memory an H200 or an 80 GB card has left.
#include <gtest/gtest.h>

#include <cstddef>

#include "gpu/prover.hpp"

namespace cuzk::gpu {
namespace {

using Plan = GpuProverOptions::MemoryPlan;

// A 32 GiB partition's parameter shape (StackedDrg32GiBV1_1, as `bench gpu-prove` reports it)
// and its witness length (the inputs' and aux's words).
groth16::ParamsShape partition_32gib() {
    groth16::ParamsShape s;
    s.ic = 24;  // any small input count; it only shifts z by a few words
    s.h = (size_t{1} << 27) - 1;
    s.l = 130169893;
    s.a = 129753620;
    s.b_g1 = s.b_g2 = 33112282;
    return s;
}
constexpr size_t kGiB = size_t{1} << 30;

TEST(ProverPlan, FullPlanExtraAtThirtyTwoGiB) {
    const groth16::ParamsShape s = partition_32gib();
    const size_t z_words = s.ic + s.l;
    const size_t extra = full_plan_extra_bytes(s, z_words);
    // A second z (4.17 GB), the A/B copies (5.21 GB), the powers table (4.29 GB) and the four
    // split MSMs' classified scalars (10.44 GB): ~24.1 GB.
    EXPECT_GT(extra, size_t{23'500'000'000});
    EXPECT_LT(extra, size_t{24'500'000'000});
    // More scalars in any part want more.
    groth16::ParamsShape bigger = s;
    bigger.a += 1000;
    EXPECT_GT(full_plan_extra_bytes(bigger, z_words), extra);
    EXPECT_GT(full_plan_extra_bytes(s, z_words + 1000), extra);
}

TEST(ProverPlan, AutoIsLeanOnAnEightyGigabyteCard) {
    const groth16::ParamsShape s = partition_32gib();
    const size_t z_words = s.ic + s.l;
    // After 44.12 GiB of parameters, the 8.90 GiB circuit, a, b, c (12 GiB) and one z
    // (3.88 GiB): an H200 (139.8 GiB) has ~70 GiB left, an 80 GB H100 (79.1 GiB) ~10.
    EXPECT_FALSE(plans_lean(Plan::kAuto, 70 * kGiB, s, z_words));
    EXPECT_TRUE(plans_lean(Plan::kAuto, 10 * kGiB, s, z_words));
    // The boundary is the estimate itself.
    const size_t extra = full_plan_extra_bytes(s, z_words);
    EXPECT_TRUE(plans_lean(Plan::kAuto, extra - 1, s, z_words));
    EXPECT_FALSE(plans_lean(Plan::kAuto, extra, s, z_words));
    // A small circuit is never lean on its own.
    groth16::ParamsShape small;
    small.ic = 2;
    small.h = 1023;
    small.l = small.a = small.b_g1 = small.b_g2 = 900;
    EXPECT_FALSE(plans_lean(Plan::kAuto, 64 << 20, small, 902));
}

TEST(ProverPlan, ForcedPlansIgnoreTheMemory) {
    const groth16::ParamsShape s = partition_32gib();
    for (size_t obtainable : {size_t{0}, 10 * kGiB, 1000 * kGiB}) {
        EXPECT_TRUE(plans_lean(Plan::kLean, obtainable, s, s.l)) << obtainable;
        EXPECT_FALSE(plans_lean(Plan::kFull, obtainable, s, s.l)) << obtainable;
    }
}

}  // namespace
}  // namespace cuzk::gpu

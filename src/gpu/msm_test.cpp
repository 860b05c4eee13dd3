// GPU G1 and G2 MSMs against the CPU Pippenger (msm::msm): random inputs of many sizes and
// window sizes, and edge cases — zero, one, r − 1 and 2^255 − 1 scalars, identity bases,
// repeated points, P next to −P, a single point, every scalar in one bucket; the indexed forms
// (host and device-resident indices) against the CPU MSM of the gathered bases; the XYZZ and the
// batch-affine bucket accumulations, the latter also on runs that begin with a tangent or a
// cancellation. Results must be the same group element. Skips itself without a usable CUDA
// device.
#include "gpu/msm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu/cuda_status.hpp"
#include "gpu/device.hpp"
#include "gpu/scratch_cache.hpp"
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

// expect_same's kernel_variant bits for GpuMsmOptions::dedicated_square and
// batch_affine_early_advance, and the variants run with them (kFormVariants): the squaring with
// XYZZ buckets unbounded and bounded, batch-affine fused, and the defaults' shape (batch-affine
// unfused, bounded, 16-byte accesses, the grid windows step); the early advance in the bounded
// addition kernel (the only one that has it) with 8- and 16-byte accesses, with the squaring,
// and in four parts on priority streams.
constexpr int kDedicatedSquare = 1 << 20;
constexpr int kEarlyAdvance = 1 << 21;
constexpr int kFormVariants[] = {
    kDedicatedSquare, 1 + kDedicatedSquare, 32 + kDedicatedSquare,
    1568 + 16384 + (1 << 19) + kDedicatedSquare, 1568 + kEarlyAdvance,
    1568 + (1 << 19) + kEarlyAdvance, 1568 + 16384 + (1 << 19) + kDedicatedSquare + kEarlyAdvance,
    3616 + (3 << 12) + kEarlyAdvance};

void expect_same(const std::vector<ec::G1Affine>& bases, const std::vector<BigInt<4>>& k,
                 unsigned window_bits, const char* what, unsigned chunk = 32,
                 // bit 0: 4 blocks per SM, bit 2: 3; bit 1: no prefetch; bit 3: blocks of 32
                 // threads, bit 4: of 64; bit 5: batch-affine accumulation (else XYZZ);
                 // bit 6: temporaries from the ScratchPool, bit 7: from the ScratchCache;
                 // bit 8: the windows step in three kernels (split_running_sums); bit 9: the
                 // batch-affine steps unfused (denominators and additions in two kernels); bit 10:
                 // the batch-affine addition kernel bounded to 4 blocks per SM; bit 11: the
                 // denominators and inversions on streams of the greatest priority; bits 12-13:
                 // the batch-affine parts, 0 → 2 (the default), 1 → 1, 2 → 3, 3 → 4; bit 14:
                 // the grid windows step (grid_running_sums), bits 15 / 16: its sums bounded to
                 // 6 / 8 blocks per SM; bits 17-18: windows per pass 0 (all) / 1 / 2 / 3;
                 // bit 19: G1's batch-affine steps in 16-byte accesses (batch_affine_vector_io);
                 // bit 20: the kernels with Fp's dedicated squaring (dedicated_square); bit 21:
                 // the bounded addition kernel's early advance (batch_affine_early_advance)
                 int kernel_variant = 0,
                 unsigned aggregate_threads = GpuMsmOptions{}.aggregate_threads) {
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok()) << dev.status().to_string();
    const ec::G1Jacobian want = msm::msm(bases, k);
    GpuMsmOptions options;
    options.window_bits = window_bits;
    options.chunk = chunk;
    options.accumulate_min_blocks = (kernel_variant & 1) ? 4 : (kernel_variant & 4) ? 3 : 0;
    options.prefetch_next_base = (kernel_variant & 2) == 0;
    options.accumulate_block = (kernel_variant & 8) ? 32 : (kernel_variant & 16) ? 64 : 128;
    options.aggregate_threads = aggregate_threads;
    options.batch_affine = (kernel_variant & 32) != 0;
    options.batch_affine_min_points = 0;
    options.batch_affine_chunk = chunk;
    options.pool_scratch = (kernel_variant & 64) != 0;
    options.cache_scratch = (kernel_variant & 128) != 0;
    options.split_running_sums = (kernel_variant & 256) != 0;
    options.grid_running_sums = (kernel_variant & 16384) != 0;
    options.grid_min_blocks = (kernel_variant & 32768) ? 6 : (kernel_variant & 65536) ? 8 : 0;
    options.batch_affine_fused = (kernel_variant & 512) == 0;
    options.batch_affine_add_min_blocks = (kernel_variant & 1024) ? 4 : 0;
    options.batch_affine_priority = (kernel_variant & 2048) != 0;
    constexpr unsigned kParts[4] = {2, 1, 3, 4};
    options.batch_affine_parts = kParts[(kernel_variant >> 12) & 3];
    options.windows_per_pass = (kernel_variant >> 17) & 3;
    options.batch_affine_vector_io = (kernel_variant & (1 << 19)) != 0;
    options.dedicated_square = (kernel_variant & kDedicatedSquare) != 0;
    options.batch_affine_early_advance = (kernel_variant & kEarlyAdvance) != 0;
    auto got = msm_g1(*dev, k, options);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == want) << what << " n=" << bases.size() << " c=" << window_bits
                              << " chunk=" << chunk << " kernel variant=" << kernel_variant
                              << " aggregate threads=" << aggregate_threads;
}

TEST_F(GpuMsmTest, RandomInputsManySizesAndWindows) {
    util::TestRng rng(601);
    for (size_t n : {1, 2, 3, 7, 100, 1000, 4096}) {
        const auto bases = walk_points(rng, n);
        const auto k = random_scalars(rng, n);
        for (unsigned c : {0u, 1u, 4u, 8u, 13u})
            for (unsigned chunk : {1u, 3u, 32u, 4096u}) expect_same(bases, k, c, "random", chunk);
        for (unsigned c : {0u, 5u})
            for (int variant :
                 {1, 2, 3, 4, 6, 8, 16, 17, 32, 64, 96, 128, 160, 256, 288, 544, 1568, 3616,
                  16384, 16384 + 32, 16384 + 32768, 16384 + 65536 + 32, 544 + (1 << 19),
                  3616 + (1 << 19)})
                expect_same(bases, k, c, "random, kernel variant", 32, variant);
        for (unsigned c : {0u, 5u})
            for (int variant : kFormVariants)
                expect_same(bases, k, c, "random, kernel forms", 32, variant);
        for (unsigned c : {1u, 2u, 3u, 4u, 8u, 13u})
            for (unsigned threads : {1u, 64u, 65536u})
                expect_same(bases, k, c, "random, grid windows step", 32, 16384, threads);
        for (unsigned chunk : {1u, 3u, 64u}) {
            expect_same(bases, k, 0, "random, batch-affine", chunk, 32);
            expect_same(bases, k, 0, "random, batch-affine unfused", chunk, 544);
            expect_same(bases, k, 0, "random, batch-affine unfused, priority", chunk, 2592);
            for (int parts_code : {1, 2, 3})
                expect_same(bases, k, 0, "random, batch-affine unfused, parts", chunk,
                            3616 + (parts_code << 12));
        }
    }
}

TEST_F(GpuMsmTest, LargerSizes) {
    util::TestRng rng(602);
    const size_t n = size_t{1} << 16;
    const auto bases = walk_points(rng, n);
    const auto k = random_scalars(rng, n);
    for (unsigned c : {0u, 16u, 20u}) expect_same(bases, k, c, "2^16");
    for (unsigned c : {16u, 19u, 20u})
        for (int grid : {16384, 16384 + 32768, 16384 + 65536})
            expect_same(bases, k, c, "2^16, grid", 32, grid + 32);
    for (int variant : {1, 2, 3, 4, 6, 8, 16, 17, 32, 544, 1568, 3616, 3616 + (3 << 12)})
        expect_same(bases, k, 0, "2^16, kernel variant", 32, variant);
    for (unsigned c : {16u, 20u}) expect_same(bases, k, c, "2^16, batch-affine", 16, 32);
    for (int variant : kFormVariants)
        expect_same(bases, k, 0, "2^16, kernel forms", 32, variant);
    // Running sums in 16 segments per window (fewer than a group of 64), in 512, in 2048.
    for (unsigned threads : {256u, 8192u, 1u << 20})
        for (int variant : {0, 256})
            expect_same(bases, k, 0, "2^16, aggregate threads", 32, variant, threads);
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
    for (size_t i = 0; i < n; i += 7) k[i] = BigInt<4>();             // zero
    for (size_t i = 1; i < n; i += 7) k[i] = BigInt<4>::from_u64(1);  // one
    for (size_t i = 2; i < n; i += 7) k[i] = r_minus_1;
    for (size_t i = 3; i < n; i += 7) k[i] = top;
    for (size_t i = 4; i < n; i += 11) bases[i] = ec::G1Affine::identity();
    for (size_t i = 5; i + 1 < n; i += 13) bases[i + 1] = -bases[i];  // P, −P
    for (size_t i = 6; i + 2 < n; i += 17) bases[i + 2] = bases[i];   // repeated
    for (unsigned c : {0u, 3u, 9u})
        for (unsigned chunk : {1u, 2u, 32u, 700u}) {
            expect_same(bases, k, c, "edges", chunk);
            for (int variant : {1, 2, 3, 4, 6, 8, 16, 17, 32, 544, 1568, 3616, 3616 + (1 << 12),
                                3616 + (3 << 12), 16384, 16384 + 32, 544 + (1 << 19),
                                3616 + (1 << 19)})
                expect_same(bases, k, c, "edges, kernel variant", chunk, variant);
            for (int variant : kFormVariants)
                expect_same(bases, k, c, "edges, kernel forms", chunk, variant);
        }
    // One point in every bucket of the low windows: the grid's row and column sums add equal
    // points (add_in_place's doubling).
    const std::vector<ec::G1Affine> one_point(n, bases[0]);
    std::vector<BigInt<4>> counting(n);
    for (size_t i = 0; i < n; ++i) counting[i] = BigInt<4>::from_u64(i + 1);
    for (unsigned c : {4u, 9u, 12u})
        for (int variant : {0, 16384, 16384 + 32, 16384 + 65536})
            expect_same(one_point, counting, c, "equal buckets", 32, variant);
    // every scalar equal: all points in one bucket per window (P + P doublings inside buckets)
    std::vector<BigInt<4>> same(n, Fr::random(rng).to_int());
    expect_same(bases, same, 0, "one bucket");
    expect_same(bases, same, 0, "one bucket, batch-affine", 32, 32);
    std::vector<BigInt<4>> zeros(n);
    expect_same(bases, zeros, 0, "all zero");
    expect_same(bases, zeros, 0, "all zero, batch-affine", 32, 32);
}

// {P0, P0, P1, P1, …} and {P0, −P0, P1, −P1, …}: with one scalar for all, each window's single
// bucket holds the pairs in order, so with an even count and chunks of 2 every chunk's run
// begins P, P (the tangent) or P, −P (the sum cancels).
template <class Affine>
std::pair<std::vector<Affine>, std::vector<Affine>> equal_and_opposite_pairs(
    const std::vector<Affine>& points) {
    std::vector<Affine> doubled(2 * points.size()), opposite(2 * points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        doubled[2 * i] = doubled[2 * i + 1] = points[i];
        opposite[2 * i] = points[i];
        opposite[2 * i + 1] = -points[i];
    }
    return {doubled, opposite};
}

TEST_F(GpuMsmTest, BatchAffineTangentsAndCancellations) {
    util::TestRng rng(605);
    const size_t n = 400;
    const auto [doubled, opposite] = equal_and_opposite_pairs(walk_points(rng, n / 2));
    const std::vector<BigInt<4>> same(n, Fr::random(rng).to_int());
    for (unsigned chunk : {2u, 3u, 32u})
        // fused, unfused, bounded, + priority; the tangent's 3x² by the dedicated squaring;
        // the bounded kernel's early advance
        for (int variant : {32, 544, 1568, 3616, 1568 + kDedicatedSquare, 1568 + kEarlyAdvance,
                            3616 + (1 << 19) + kDedicatedSquare + kEarlyAdvance}) {
            expect_same(doubled, same, 0, "P, P pairs, batch-affine", chunk, variant);
            expect_same(opposite, same, 0, "P, -P pairs, batch-affine", chunk, variant);
            expect_same(doubled, random_scalars(rng, n), 0, "P, P pairs, random scalars", chunk,
                        variant);
        }
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
    // Bucket-kernel shapes outside the built variants: refused with the switch's name.
    GpuMsmOptions bad_blocks;
    bad_blocks.accumulate_min_blocks = 2;
    const util::Status st_blocks = msm_g1(*dev, ok_k, bad_blocks).status();
    EXPECT_EQ(st_blocks.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(st_blocks.message().find("CUZK_MSM_MIN_BLOCKS"), std::string::npos)
        << st_blocks.message();
    GpuMsmOptions bad_grid;
    bad_grid.grid_running_sums = true;
    bad_grid.grid_min_blocks = 4;
    const util::Status st_grid = msm_g1(*dev, ok_k, bad_grid).status();
    EXPECT_EQ(st_grid.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(st_grid.message().find("CUZK_MSM_GRID_MIN_BLOCKS"), std::string::npos)
        << st_grid.message();
    EXPECT_EQ(st_grid.message().find("_G2"), std::string::npos) << st_grid.message();
    bad_grid.grid_min_blocks = 0;
    bad_grid.grid_min_blocks_g2 = 7;
    const util::Status st_grid2 = msm_g1(*dev, ok_k, bad_grid).status();
    EXPECT_EQ(st_grid2.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(st_grid2.message().find("CUZK_MSM_GRID_MIN_BLOCKS_G2"), std::string::npos)
        << st_grid2.message();
    for (unsigned parts : {0u, 5u}) {
        GpuMsmOptions bad_parts;
        bad_parts.batch_affine = true;
        bad_parts.batch_affine_min_points = 0;
        bad_parts.batch_affine_parts = parts;
        const util::Status st = msm_g1(*dev, ok_k, bad_parts).status();
        EXPECT_EQ(st.code(), util::StatusCode::kInvalidArgument) << "parts=" << parts;
        EXPECT_NE(st.message().find("CUZK_MSM_BATCH_AFFINE_PARTS"), std::string::npos)
            << st.message();
    }
    GpuMsmOptions bad_block;
    bad_block.accumulate_block = 96;
    const util::Status st_block = msm_g1(*dev, ok_k, bad_block).status();
    EXPECT_EQ(st_block.code(), util::StatusCode::kInvalidArgument);
    EXPECT_NE(st_block.message().find("CUZK_MSM_ACCUMULATE_BLOCK"), std::string::npos)
        << st_block.message();
}

// ---- G2 ----------------------------------------------------------------------------------------

std::vector<ec::G2Affine> walk_points_g2(util::TestRng& rng, size_t n) {
    const ec::G2Jacobian g = ec::G2Jacobian::from_affine(ec::kG2Generator);
    const ec::G2Jacobian steps[3] = {ec::mul(g, Fr::random(rng)), ec::mul(g, Fr::random(rng)),
                                     ec::mul(g, Fr::random(rng))};
    std::vector<ec::G2Jacobian> jac(n);
    ec::G2Jacobian p = ec::mul(g, Fr::random(rng));
    for (size_t i = 0; i < n; ++i) {
        jac[i] = p;
        p += steps[i % 3];
    }
    std::vector<ec::G2Affine> out(n);
    ec::batch_to_affine(jac.data(), out.data(), n);
    return out;
}

void expect_same_g2(const std::vector<ec::G2Affine>& bases, const std::vector<BigInt<4>>& k,
                    unsigned window_bits, const char* what, unsigned chunk = 32,
                    bool prefetch = true, bool batch_affine = false, bool lazy_fp2 = false,
                    bool split_running_sums = false, bool fused = true,
                    bool priority = false, unsigned parts = 2, bool grid = false,
                    unsigned grid_min_blocks = 0, unsigned windows_per_pass = 0,
                    bool norm_inverse = true, bool vector_io = true) {
    auto dev = DeviceG2Bases::upload(bases);
    ASSERT_TRUE(dev.ok()) << dev.status().to_string();
    const ec::G2Jacobian want = msm::msm(bases, k);
    GpuMsmOptions options;
    options.window_bits = window_bits;
    options.chunk = chunk;
    options.prefetch_next_base_g2 = prefetch;
    options.batch_affine = batch_affine;
    options.batch_affine_min_points_g2 = 0;
    options.batch_affine_chunk = chunk;
    options.g2_lazy_product = lazy_fp2;
    options.split_running_sums = split_running_sums;
    options.grid_running_sums = grid;
    options.grid_min_blocks_g2 = grid_min_blocks;
    options.windows_per_pass = windows_per_pass;
    options.batch_affine_fused_g2 = fused;
    options.batch_affine_priority = priority;
    options.batch_affine_parts = parts;
    options.batch_affine_norm_inverse_g2 = norm_inverse;
    options.batch_affine_vector_io = vector_io;
    auto got = msm_g2(*dev, k, options);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == want) << what << " n=" << bases.size() << " c=" << window_bits
                              << " chunk=" << chunk << " prefetch=" << prefetch
                              << " batch-affine=" << batch_affine << " lazy Fp2=" << lazy_fp2
                              << " split running sums=" << split_running_sums
                              << " fused=" << fused << " priority=" << priority
                              << " parts=" << parts << " grid=" << grid
                              << " grid min blocks=" << grid_min_blocks
                              << " windows per pass=" << windows_per_pass
                              << " norm inverse=" << norm_inverse
                              << " vector io=" << vector_io;
}

// The unfused batch-affine G2 MSM with its inversion in Fp2 (norm_inverse off) — the path the
// norm inversion (on by default) replaces — and with the lazy Fp2 product and the norms.
void expect_same_g2_inversions(const std::vector<ec::G2Affine>& bases,
                               const std::vector<BigInt<4>>& k, unsigned window_bits,
                               const char* what, unsigned chunk) {
    expect_same_g2(bases, k, window_bits, what, chunk, false, true, false, false, false, true, 2,
                   false, 0, 0, false);
    expect_same_g2(bases, k, window_bits, what, chunk, false, true, true, false, false, true, 3,
                   false, 0, 0, true);
}

TEST_F(GpuMsmTest, G2RandomInputs) {
    util::TestRng rng(611);
    for (size_t n : {1, 2, 5, 100, 1000}) {
        const auto bases = walk_points_g2(rng, n);
        const auto k = random_scalars(rng, n);
        for (unsigned c : {0u, 1u, 5u, 13u})
            for (unsigned chunk : {1u, 7u, 32u}) {
                expect_same_g2(bases, k, c, "g2 random", chunk);
                expect_same_g2(bases, k, c, "g2 random, no prefetch", chunk, false);
            }
        for (unsigned chunk : {1u, 7u, 32u}) {
            expect_same_g2(bases, k, 0, "g2 random, batch-affine", chunk, false, true);
            expect_same_g2(bases, k, 0, "g2 random, batch-affine unfused", chunk, false, true,
                           false, false, false);
            expect_same_g2(bases, k, 0, "g2 random, batch-affine unfused, 8-byte accesses", chunk,
                           false, true, false, false, false, false, 2, false, 0, 0, true, false);
            expect_same_g2(bases, k, 0, "g2 random, batch-affine unfused, priority", chunk, false,
                           true, false, false, false, true, 3);
            expect_same_g2_inversions(bases, k, 0, "g2 random, batch-affine unfused, inversions",
                                      chunk);
            expect_same_g2(bases, k, 0, "g2 random, batch-affine, lazy Fp2", chunk, false, true,
                           true);
            expect_same_g2(bases, k, 0, "g2 random, lazy Fp2", chunk, true, false, true);
        }
        for (unsigned c : {0u, 1u, 2u, 5u, 13u}) {
            for (unsigned min_blocks : {0u, 6u, 8u})
                expect_same_g2(bases, k, c, "g2 random, grid", 32, true, false, false, false,
                               true, false, 2, true, min_blocks);
            expect_same_g2(bases, k, c, "g2 random, grid, lazy Fp2", 32, false, true, true,
                           false, true, false, 2, true);
        }
    }
    const size_t n = size_t{1} << 14;
    const auto bases = walk_points_g2(rng, n);
    const auto k = random_scalars(rng, n);
    for (unsigned c : {0u, 16u}) {
        expect_same_g2(bases, k, c, "g2 2^14");
        expect_same_g2(bases, k, c, "g2 2^14, grid", 32, true, false, false, false, true, false,
                       2, true);
        expect_same_g2(bases, k, c, "g2 2^14, batch-affine", 32, false, true);
    }
}

TEST_F(GpuMsmTest, G2EdgeScalarsAndPoints) {
    util::TestRng rng(612);
    const size_t n = 400;
    auto bases = walk_points_g2(rng, n);
    std::vector<BigInt<4>> k = random_scalars(rng, n);
    const BigInt<4> r_minus_1 = (-Fr::one()).to_int();
    for (size_t i = 0; i < n; i += 7) k[i] = BigInt<4>();             // zero
    for (size_t i = 1; i < n; i += 7) k[i] = BigInt<4>::from_u64(1);  // one
    for (size_t i = 2; i < n; i += 7) k[i] = r_minus_1;
    for (size_t i = 4; i < n; i += 11) bases[i] = ec::G2Affine::identity();
    for (size_t i = 5; i + 1 < n; i += 13) bases[i + 1] = -bases[i];  // P, −P
    for (size_t i = 6; i + 2 < n; i += 17) bases[i + 2] = bases[i];   // repeated
    for (unsigned c : {0u, 3u, 9u})
        for (unsigned chunk : {1u, 2u, 32u, 500u})
            for (const auto& [lazy, split] : {std::pair{false, false}, std::pair{true, false},
                                              std::pair{false, true}}) {
                expect_same_g2(bases, k, c, "g2 edges", chunk, true, false, lazy, split);
                expect_same_g2(bases, k, c, "g2 edges, batch-affine", chunk, false, true, lazy,
                               split);
                if (!lazy && !split) {
                    expect_same_g2(bases, k, c, "g2 edges, batch-affine unfused", chunk, false,
                                   true, false, false, false);
                    expect_same_g2(bases, k, c, "g2 edges, unfused, 8-byte accesses", chunk,
                                   false, true, false, false, false, false, 2, false, 0, 0, true,
                                   false);
                    expect_same_g2_inversions(bases, k, c, "g2 edges, unfused, inversions", chunk);
                }
            }
    // P and −P with the same scalar: the sum is the identity.
    const auto pts = walk_points_g2(rng, 2);
    const std::vector<ec::G2Affine> pm = {pts[0], -pts[0], pts[1], -pts[1]};
    const BigInt<4> s = Fr::random(rng).to_int(), t = Fr::random(rng).to_int();
    auto dev = DeviceG2Bases::upload(pm);
    ASSERT_TRUE(dev.ok());
    auto got = msm_g2(*dev, std::vector<BigInt<4>>{s, s, t, t});
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->is_identity());
    for (unsigned c : {0u, 3u, 9u})
        expect_same_g2(bases, k, c, "g2 edges, grid", 32, true, false, false, false, true, false,
                       2, true);
    // One point in every bucket of the low windows: the grid's row and column sums add equal
    // points (add_in_place's doubling).
    const std::vector<ec::G2Affine> one_point(n, bases[0]);
    std::vector<BigInt<4>> counting(n);
    for (size_t i = 0; i < n; ++i) counting[i] = BigInt<4>::from_u64(i + 1);
    for (unsigned c : {4u, 9u})
        for (unsigned grid : {0u, 1u, 2u})  // off, unbounded, 6 blocks
            expect_same_g2(one_point, counting, c, "g2 equal buckets", 32, true, false, false,
                           false, true, false, 2, grid > 0, grid == 2 ? 6 : 0);
    std::vector<BigInt<4>> same(n, Fr::random(rng).to_int());
    expect_same_g2(bases, same, 0, "g2 one bucket");
    expect_same_g2(bases, same, 0, "g2 one bucket, batch-affine", 32, false, true);
    // Chunks of two that begin P, P and P, −P.
    const auto [doubled, opposite] = equal_and_opposite_pairs(walk_points_g2(rng, n / 2));
    expect_same_g2(doubled, same, 0, "g2 P, P pairs, batch-affine", 2, false, true);
    expect_same_g2(opposite, same, 0, "g2 P, -P pairs, batch-affine", 2, false, true);
    for (unsigned chunk : {2u, 3u}) {
        expect_same_g2(doubled, same, 0, "g2 P, P pairs, unfused", chunk, false, true, false,
                       false, false);
        expect_same_g2(opposite, same, 0, "g2 P, -P pairs, unfused", chunk, false, true, false,
                       false, false);
        expect_same_g2_inversions(doubled, same, 0, "g2 P, P pairs, inversions", chunk);
        expect_same_g2_inversions(opposite, same, 0, "g2 P, -P pairs, inversions", chunk);
        expect_same_g2(doubled, same, 0, "g2 P, P pairs, fused", chunk, false, true);
    }
    std::vector<BigInt<4>> zeros(n);
    expect_same_g2(bases, zeros, 0, "g2 all zero");
    const std::vector<ec::G2Affine> identities(50, ec::G2Affine::identity());
    expect_same_g2(identities, random_scalars(rng, 50), 0, "g2 identity bases");
    expect_same_g2(identities, random_scalars(rng, 50), 0, "g2 identity bases, batch-affine", 32,
                   false, true);
}

TEST_F(GpuMsmTest, G2FrConvenienceAndErrors) {
    util::TestRng rng(613);
    const auto bases = walk_points_g2(rng, 40);
    std::vector<Fr> k(40);
    for (Fr& x : k) x = Fr::random(rng);
    auto got = msm_g2(bases, k);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == msm::msm(bases, k));
    auto dev = DeviceG2Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    std::vector<BigInt<4>> short_k(39);
    EXPECT_EQ(msm_g2(*dev, short_k).status().code(), util::StatusCode::kInvalidArgument);
    std::vector<BigInt<4>> big(40);
    big[3].limb[3] = uint64_t{1} << 63;
    EXPECT_EQ(msm_g2(*dev, big).status().code(), util::StatusCode::kInvalidArgument);
}

// ---- indexed -------------------------------------------------------------------------------

// The reference: the CPU MSM over the gathered bases.
template <class Affine>
std::vector<Affine> gather(const std::vector<Affine>& bases, const std::vector<uint32_t>& idx) {
    std::vector<Affine> out;
    for (uint32_t i : idx) out.push_back(bases[i]);
    return out;
}

// m random indices into n bases, with some repeats and both ends.
std::vector<uint32_t> random_indices(util::TestRng& rng, size_t m, size_t n) {
    std::vector<uint32_t> idx(m);
    for (uint32_t& i : idx) i = static_cast<uint32_t>(rng.uniform(n));
    if (m > 2) {
        idx[0] = 0;
        idx[1] = static_cast<uint32_t>(n - 1);
        idx[2] = idx[0];
    }
    return idx;
}

TEST_F(GpuMsmTest, IndexedHostIndices) {
    util::TestRng rng(621);
    const size_t n = 3000;
    const auto bases = walk_points(rng, n);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    for (size_t m : {1, 2, 500, 2999, 6000}) {
        const auto idx = random_indices(rng, m, n);
        auto k = random_scalars(rng, m);
        if (m > 10) k[5] = BigInt<4>();
        const ec::G1Jacobian want = msm::msm(gather(bases, idx), k);
        for (unsigned c : {0u, 4u, 11u}) {
            GpuMsmOptions options;
            options.window_bits = c;
            auto got = msm_g1(*dev, k, idx, options);
            ASSERT_TRUE(got.ok()) << got.status().to_string();
            EXPECT_TRUE(*got == want) << "m=" << m << " c=" << c;
        }
    }
    // An identity index map is the plain MSM.
    std::vector<uint32_t> iota(n);
    for (uint32_t i = 0; i < n; ++i) iota[i] = i;
    const auto k = random_scalars(rng, n);
    auto a = msm_g1(*dev, k, iota);
    auto b = msm_g1(*dev, k);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_TRUE(*a == *b);
    EXPECT_TRUE(*a == msm::msm(bases, k));
    // Errors: an index out of range, count mismatch; empty is the identity.
    std::vector<uint32_t> bad = {0, static_cast<uint32_t>(n)};
    EXPECT_EQ(msm_g1(*dev, random_scalars(rng, 2), bad).status().code(),
              util::StatusCode::kInvalidArgument);
    EXPECT_EQ(msm_g1(*dev, random_scalars(rng, 3), bad).status().code(),
              util::StatusCode::kInvalidArgument);
    auto empty = msm_g1(*dev, std::vector<BigInt<4>>{}, std::vector<uint32_t>{});
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(empty->is_identity());
}

TEST_F(GpuMsmTest, IndexedG2HostIndices) {
    util::TestRng rng(622);
    const size_t n = 700;
    auto bases = walk_points_g2(rng, n);
    bases[3] = ec::G2Affine::identity();
    auto dev = DeviceG2Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    for (size_t m : {1, 300, 1400}) {
        auto idx = random_indices(rng, m, n);
        if (m > 10) idx[7] = 3;  // the identity base
        const auto k = random_scalars(rng, m);
        const ec::G2Jacobian want = msm::msm(gather(bases, idx), k);
        auto got = msm_g2(*dev, k, idx);
        ASSERT_TRUE(got.ok()) << got.status().to_string();
        EXPECT_TRUE(*got == want) << "m=" << m;
    }
}

template <class T>
DeviceBuffer upload_vector(const std::vector<T>& v) {
    auto buf = DeviceBuffer::allocate(std::max<size_t>(v.size() * sizeof(T), 1));
    EXPECT_TRUE(buf.ok());
    if (!buf.ok()) return DeviceBuffer();
    if (!v.empty()) {
        EXPECT_TRUE(buf->upload(v.data(), v.size() * sizeof(T)).ok());
    }
    return std::move(*buf);
}

TEST_F(GpuMsmTest, DeviceResidentIndicesAndScalars) {
    util::TestRng rng(623);
    const size_t n = 2000, m = 1500;
    const auto bases = walk_points(rng, n);
    const auto bases2 = walk_points_g2(rng, n);
    auto dev = DeviceG1Bases::upload(bases);
    auto dev2 = DeviceG2Bases::upload(bases2);
    ASSERT_TRUE(dev.ok() && dev2.ok());
    const auto idx = random_indices(rng, m, n);
    const auto k = random_scalars(rng, m);
    DeviceBuffer d_idx = upload_vector(idx);
    DeviceBuffer d_k = upload_vector(k);
    const auto* dk = static_cast<const BigInt<4>*>(d_k.data());
    const auto* di = static_cast<const uint32_t*>(d_idx.data());
    auto g1 = msm_g1_device(dev->device_data(), n, dk, di, m);
    ASSERT_TRUE(g1.ok()) << g1.status().to_string();
    EXPECT_TRUE(*g1 == msm::msm(gather(bases, idx), k));
    auto g2 = msm_g2_device(dev2->device_data(), n, dk, di, m);
    ASSERT_TRUE(g2.ok()) << g2.status().to_string();
    EXPECT_TRUE(*g2 == msm::msm(gather(bases2, idx), k));
    // No index list: the first m bases.
    auto plain = msm_g1_device(dev->device_data(), n, dk, nullptr, m);
    ASSERT_TRUE(plain.ok());
    const std::vector<ec::G1Affine> first(bases.begin(), bases.begin() + m);
    EXPECT_TRUE(*plain == msm::msm(first, k));
    // Bad device inputs are found on the device.
    std::vector<uint32_t> bad_idx = idx;
    bad_idx[m / 2] = static_cast<uint32_t>(n);
    DeviceBuffer d_bad_idx = upload_vector(bad_idx);
    EXPECT_EQ(
        msm_g1_device(dev->device_data(), n, dk, static_cast<const uint32_t*>(d_bad_idx.data()), m)
            .status()
            .code(),
        util::StatusCode::kInvalidArgument);
    std::vector<BigInt<4>> bad_k = k;
    bad_k[m - 1].limb[3] |= uint64_t{1} << 63;
    DeviceBuffer d_bad_k = upload_vector(bad_k);
    EXPECT_EQ(
        msm_g2_device(dev2->device_data(), n, static_cast<const BigInt<4>*>(d_bad_k.data()), di, m)
            .status()
            .code(),
        util::StatusCode::kInvalidArgument);
    // More scalars than bases without an index list.
    EXPECT_EQ(msm_g1_device(dev->device_data(), 10, dk, nullptr, 11).status().code(),
              util::StatusCode::kInvalidArgument);
}

// The windows in passes (GpuMsmOptions::windows_per_pass): every pass's digits keyed from its
// first window, the carry run from window 0, the last pass shorter where the passes do not
// divide the windows; with each windows step and bucket accumulation.
TEST_F(GpuMsmTest, WindowPasses) {
    util::TestRng rng(631);
    for (size_t n : {1, 100, 1000}) {
        const auto bases = walk_points(rng, n);
        const auto k = random_scalars(rng, n);
        for (unsigned c : {0u, 1u, 4u, 13u})
            for (int passes_code : {1, 2, 3})
                for (int variant : {0, 32, 256, 16384, 16384 + 32})
                    expect_same(bases, k, c, "windows in passes", 32,
                                variant + (passes_code << 17));
        const auto bases2 = walk_points_g2(rng, n);
        for (unsigned c : {0u, 5u})
            for (unsigned wpp : {1u, 3u}) {
                expect_same_g2(bases2, k, c, "g2 windows in passes", 32, true, false, false,
                               false, true, false, 2, false, 0, wpp);
                expect_same_g2(bases2, k, c, "g2 windows in passes, batch-affine grid", 8, true,
                               true, false, false, true, false, 2, true, 6, wpp);
            }
    }
    // An index list, host and device-resident, in passes of two windows.
    const size_t n = 2000, m = 1500;
    const auto bases = walk_points(rng, n);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    const auto idx = random_indices(rng, m, n);
    const auto k = random_scalars(rng, m);
    const ec::G1Jacobian want = msm::msm(gather(bases, idx), k);
    GpuMsmOptions options;
    options.windows_per_pass = 2;
    GpuMsmTimings t;
    auto host = msm_g1(*dev, k, idx, options, &t);
    ASSERT_TRUE(host.ok()) << host.status().to_string();
    EXPECT_TRUE(*host == want);
    const MsmPlan plan = plan_msm(options, m, false);
    EXPECT_EQ(t.windows_per_pass, 2u);
    EXPECT_EQ(t.passes, (plan.windows + 1) / 2);
    DeviceBuffer d_idx = upload_vector(idx);
    DeviceBuffer d_k = upload_vector(k);
    auto on_device = msm_g1_device(dev->device_data(), n,
                                   static_cast<const BigInt<4>*>(d_k.data()),
                                   static_cast<const uint32_t*>(d_idx.data()), m, options);
    ASSERT_TRUE(on_device.ok()) << on_device.status().to_string();
    EXPECT_TRUE(*on_device == want);
}

// Without windows_per_pass the call takes all windows in one pass when its temporaries fit, and
// under a scratch budget the fewest passes that fit it; a budget nothing fits gives one window
// per pass. The sum is the same each time.
TEST_F(GpuMsmTest, ScratchBudgetChoosesPasses) {
    util::TestRng rng(632);
    const size_t n = size_t{1} << 17;
    const auto bases = walk_points(rng, n);
    const auto k = random_scalars(rng, n);
    const ec::G1Jacobian want = msm::msm(bases, k);
    auto dev = DeviceG1Bases::upload(bases);
    ASSERT_TRUE(dev.ok());
    GpuMsmOptions options;
    options.window_bits = 16;  // 16 windows
    // One call under a budget (0: none), checked against the CPU.
    auto run = [&](size_t budget, GpuMsmTimings& t) {
        options.scratch_budget_bytes = budget;
        auto got = msm_g1(*dev, k, options, &t);
        ASSERT_TRUE(got.ok()) << got.status().to_string();
        EXPECT_TRUE(*got == want) << "budget " << budget;
    };
    GpuMsmTimings whole, half, none;
    run(0, whole);
    EXPECT_EQ(whole.windows_per_pass, 16u);
    EXPECT_EQ(whole.passes, 1u);
    ASSERT_GT(whole.scratch_bytes, size_t{64} << 20);  // pairs, pieces and 2^19 buckets
    run(whole.scratch_bytes / 2, half);
    EXPECT_GE(half.passes, 2u);
    EXPECT_LT(half.windows_per_pass, 16u);
    EXPECT_LE(half.scratch_bytes, whole.scratch_bytes / 2);
    run(1, none);
    EXPECT_EQ(none.windows_per_pass, 1u);
    EXPECT_EQ(none.passes, 16u);
    // No budget, but a device with only about half the whole call's temporaries obtainable
    // (the rest held): the passes follow the device's own free memory, and their buffers are
    // really allocated.
    (void)release_idle_device_memory();
    size_t free = 0, total = 0;
    ASSERT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
    const size_t leave = whole.scratch_bytes / 2;
    ASSERT_GT(free, leave);
    auto hold = DeviceMemoryHold::leave_only(total - (free - leave));
    ASSERT_TRUE(hold.ok()) << hold.status().to_string();
    EXPECT_LE(obtainable_device_memory(), leave + (size_t{16} << 20));
    GpuMsmTimings squeezed;
    run(0, squeezed);
    EXPECT_GE(squeezed.passes, 2u);
    EXPECT_LE(squeezed.scratch_bytes, leave);
    hold->reset();
    EXPECT_LT(none.scratch_bytes, half.scratch_bytes);
}

}  // namespace
}  // namespace cuzk::gpu

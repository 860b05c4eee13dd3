// The 192-byte proof codec: round trips, concatenation, and rejections with
// indexed errors. Also the (disabled by default) decode throughput measurement
// of the .params reader.
#include "groth16/proof_io.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "groth16/params_io.hpp"
#include "groth16/test_keys.hpp"

namespace cuzk::groth16 {
namespace {

using ec::SubgroupCheck;

std::vector<Proof> random_proofs(size_t n, uint64_t seed) {
    util::TestRng rng(seed);
    const auto g1 = testing::random_g1_points(2 * n, rng);
    const auto g2 = testing::random_g2_points(n, rng);
    std::vector<Proof> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = Proof{g1[2 * i], g2[i], g1[2 * i + 1]};
    return out;
}

bool contains(const std::string& s, const std::string& what) {
    return s.find(what) != std::string::npos;
}

TEST(ProofIo, RoundTripOneAndTenPartitions) {
    const auto proofs = random_proofs(10, 1);
    const auto one = serialize_proof(proofs[0]);
    EXPECT_EQ(one[0] & 0x80, 0x80);    // compressed A
    EXPECT_EQ(one[48] & 0x80, 0x80);   // compressed B
    EXPECT_EQ(one[144] & 0x80, 0x80);  // compressed C
    auto back = parse_proof(one);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == proofs[0]);

    const auto all = serialize_proofs(proofs);
    ASSERT_EQ(all.size(), 1920u);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), all.begin()));
    for (auto mode : {SubgroupCheck::kCheck, SubgroupCheck::kSkip}) {
        auto many = parse_proofs(all, mode);
        ASSERT_TRUE(many.ok()) << many.status().to_string();
        EXPECT_TRUE(*many == proofs);
        EXPECT_EQ(serialize_proofs(*many), all);
    }
}

TEST(ProofIo, RejectsBadLengths) {
    const auto all = serialize_proofs(random_proofs(2, 2));
    EXPECT_FALSE(parse_proof(std::span<const uint8_t>(all.data(), 191)).ok());
    EXPECT_FALSE(parse_proof(all).ok());
    auto r = parse_proofs(std::span<const uint8_t>(all.data(), 300));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(contains(r.status().message(), "not a multiple of 192"));
    auto e = parse_proofs(std::span<const uint8_t>());
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.status().message(), "proofs: empty input");
}

TEST(ProofIo, RejectsIdentityComponents) {
    const auto base = random_proofs(1, 3)[0];
    Proof p = base;
    p.a = G1Affine::identity();
    auto ra = parse_proof(serialize_proof(p));
    ASSERT_FALSE(ra.ok());
    EXPECT_EQ(ra.status().message(), "proof 0: A: point at infinity");
    p = base;
    p.b = G2Affine::identity();
    auto rb = parse_proof(serialize_proof(p));
    ASSERT_FALSE(rb.ok());
    EXPECT_EQ(rb.status().message(), "proof 0: B: point at infinity");
    p = base;
    p.c = G1Affine::identity();
    auto rc = parse_proof(serialize_proof(p));
    ASSERT_FALSE(rc.ok());
    EXPECT_EQ(rc.status().message(), "proof 0: C: point at infinity");
}

TEST(ProofIo, ErrorsNameTheProofAndComponent) {
    auto proofs = random_proofs(3, 4);
    auto bytes = serialize_proofs(proofs);
    bytes[2 * 192 + 144] &= 0x7f;  // C of proof 2 loses its compression flag
    auto r = parse_proofs(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(contains(r.status().message(), "proof 2: C: G1 compressed encoding"))
        << r.status().message();

    util::TestRng rng(5);
    proofs[1].b = ec::random_curve_point_g2(rng);
    const auto outside = serialize_proofs(proofs);
    auto checked = parse_proofs(outside, SubgroupCheck::kCheck);
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.status().message(),
              "proof 1: B: G2 compressed encoding: point is not in the "
              "prime-order subgroup");
    auto skipped = parse_proofs(outside, SubgroupCheck::kSkip);
    ASSERT_TRUE(skipped.ok());
    EXPECT_TRUE(*skipped == proofs);
}

TEST(ProofIo, RandomMutationsNeverCrash) {
    const auto bytes = serialize_proofs(random_proofs(2, 6));
    util::TestRng rng(7);
    int accepted = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        auto copy = bytes;
        const int edits = 1 + static_cast<int>(rng.uniform(3));
        for (int e = 0; e < edits; ++e)
            copy[rng.uniform(copy.size())] ^= static_cast<uint8_t>(1 + rng.uniform(255));
        auto r = parse_proofs(copy, iter % 2 ? SubgroupCheck::kCheck : SubgroupCheck::kSkip);
        if (r.ok()) {
            ++accepted;
            EXPECT_EQ(serialize_proofs(*r), copy);
        } else {
            EXPECT_FALSE(r.status().message().empty());
        }
    }
    // A flipped sign bit gives −P, still valid: some mutations are accepted, most
    // are not.
    EXPECT_LT(accepted, 750);
}

// Run with --gtest_also_run_disabled_tests (CUZK_THREADS=2 for the 2-thread
// figure).
TEST(ParamsBench, DISABLED_DecodeThroughput64KiG1) {
    util::TestRng rng(8);
    Parameters p = testing::random_parameters({1, 1, 1, 1, 1}, 9);
    p.h = testing::cheap_g1_points((size_t{1} << 16) - 1, rng);
    const std::string path = ::testing::TempDir() + "cuzk_g16_bench.params";
    ASSERT_TRUE(write_params_file(path, p).ok());
    for (auto mode : {SubgroupCheck::kSkip, SubgroupCheck::kCheck}) {
        for (int rep = 0; rep < 3; ++rep) {
            const auto t0 = std::chrono::steady_clock::now();
            auto r = read_params_file(path, ReadOptions{mode, nullptr});
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
            ASSERT_TRUE(r.ok()) << r.status().to_string();
            std::printf("read %zu G1 points, %s, %u threads: %.1f ms\n", r->h.size() + 4,
                        mode == SubgroupCheck::kCheck ? "kCheck" : "kSkip",
                        util::ThreadPool::global().size(), ms);
        }
    }
    std::remove(path.c_str());
}

}  // namespace
}  // namespace cuzk::groth16

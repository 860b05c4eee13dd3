// Feistel permutation: the properties rust-fil-proofs crypto/feistel.rs tests (bijection on
// powers of four, permute/invert round trip on other sizes), and the round function against
// OpenSSL's BLAKE2b-512.
#include "porep/feistel.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <vector>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

TEST(Feistel, Precompute) {
    const FeistelParams p1 = feistel_precompute(1);
    EXPECT_EQ(p1.half_bits, 1u);
    EXPECT_EQ(p1.right_mask, 1u);
    EXPECT_EQ(p1.left_mask, 2u);
    const FeistelParams p = feistel_precompute(64 * 8);  // 2 KiB expander domain: 4^5 = 1024
    EXPECT_EQ(p.half_bits, 5u);
    EXPECT_EQ(p.right_mask, 31u);
    EXPECT_EQ(p.left_mask, 31u << 5);
    EXPECT_EQ(feistel_precompute(1u << 21).half_bits, 11u);    // 8 MiB: 4^11 = 2^22 ≥ 2^21
    EXPECT_EQ(feistel_precompute(1ull << 34).half_bits, 17u);  // 64 GiB: exactly 4^17
}

TEST(Feistel, RoundFunctionMatchesOpenSslBlake2b) {
    util::TestRng rng(401);
    for (int rep = 0; rep < 100; ++rep) {
        const uint64_t right = rng.next_u64(), key = rng.next_u64();
        uint8_t msg[16];
        for (int i = 0; i < 8; ++i) {
            msg[i] = static_cast<uint8_t>(right >> (56 - 8 * i));
            msg[8 + i] = static_cast<uint8_t>(key >> (56 - 8 * i));
        }
        uint8_t d[64];
        unsigned int n = 0;
        ASSERT_EQ(EVP_Digest(msg, 16, d, &n, EVP_blake2b512(), nullptr), 1);
        uint64_t expect = 0;
        for (int i = 0; i < 8; ++i) expect = (expect << 8) | d[i];
        const uint64_t mask = (uint64_t{1} << (rep % 40 + 1)) - 1;
        EXPECT_EQ(feistel_round_function(right, key, mask), expect & mask);
    }
}

TEST(Feistel, BijectionOnPowersOfFour) {
    const FeistelKeys keys = {1, 2, 3, 4};
    for (uint64_t n = 4; n <= 4096; n *= 4) {
        const FeistelParams p = feistel_precompute(n);
        std::vector<bool> seen(n, false);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t e = feistel_encode(i, keys, p);
            ASSERT_LT(e, n);
            EXPECT_FALSE(seen[e]);
            seen[e] = true;
            EXPECT_EQ(feistel_decode(e, keys, p), i);
        }
    }
}

TEST(Feistel, PermuteStaysInRangeAndInverts) {
    util::TestRng rng(402);
    for (uint64_t n : {5ull, 6ull, 8ull, 12ull, 17ull, 512ull, 1000ull}) {
        const FeistelKeys keys = {rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()};
        const FeistelParams p = feistel_precompute(n);
        std::vector<bool> seen(n, false);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t e = feistel_permute(n, i, keys, p);
            ASSERT_LT(e, n);
            EXPECT_FALSE(seen[e]) << "n " << n;
            seen[e] = true;
            EXPECT_EQ(feistel_invert_permute(n, e, keys, p), i);
        }
    }
}

TEST(Feistel, FourthKeyIsUnused) {
    const FeistelParams p = feistel_precompute(1 << 10);
    for (uint64_t i = 0; i < 64; ++i) {
        EXPECT_EQ(feistel_encode(i, {7, 8, 9, 10}, p), feistel_encode(i, {7, 8, 9, 99}, p));
    }
}

}  // namespace
}  // namespace cuzk::porep

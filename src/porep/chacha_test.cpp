// ChaCha: the 20-round keystream against OpenSSL's ChaCha20 (same block function, same word
// order; OpenSSL's IV = 32-bit counter ‖ 96-bit nonce coincides with rand_chacha's 64-bit counter
// and 64-bit stream while the counter is below 2^32), and rand_core's next_u64 buffer rules.
// ChaCha8 itself is checked end to end by the SDR parent-cache digests (graph_test.cpp).
#include "porep/chacha.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

std::vector<uint8_t> openssl_chacha20_keystream(const uint8_t key[32], size_t len) {
    std::vector<uint8_t> zeros(len, 0), out(len);
    uint8_t iv[16] = {};
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    EXPECT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key, iv), 1);
    int n = 0;
    EXPECT_EQ(EVP_EncryptUpdate(ctx, out.data(), &n, zeros.data(), static_cast<int>(len)), 1);
    EVP_CIPHER_CTX_free(ctx);
    return out;
}

TEST(ChaCha, TwentyRoundKeystreamMatchesOpenSsl) {
    util::TestRng rng(301);
    for (int rep = 0; rep < 20; ++rep) {
        uint8_t key[32];
        rng.fill(key, sizeof(key));
        const size_t len = 64 * 9 + 4 * rep;  // spans several 4-block refills
        ChaChaRng c(key, 10);
        std::vector<uint8_t> ours(len);
        c.fill_bytes(ours.data(), len);
        EXPECT_EQ(ours, openssl_chacha20_keystream(key, len)) << "rep " << rep;
    }
}

TEST(ChaCha, IetfKeystreamAtOffsetsMatchesOpenSsl) {
    util::TestRng rng(303);
    uint8_t key[32], nonce[12];
    rng.fill(key, sizeof(key));
    rng.fill(nonce, sizeof(nonce));
    // Whole keystream from block 0 with OpenSSL (IV = 32-bit LE counter 0 ‖ nonce).
    std::vector<uint8_t> zeros(64 * 40, 0), full(64 * 40);
    uint8_t iv[16] = {};
    std::memcpy(iv + 4, nonce, 12);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    ASSERT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key, iv), 1);
    int n = 0;
    ASSERT_EQ(EVP_EncryptUpdate(ctx, full.data(), &n, zeros.data(), static_cast<int>(zeros.size())),
              1);
    EVP_CIPHER_CTX_free(ctx);
    for (uint64_t offset : {0u, 1u, 31u, 32u, 63u, 64u, 100u, 1000u, 2000u}) {
        for (size_t len : {1u, 4u, 32u, 77u, 300u}) {
            if (offset + len > full.size()) continue;
            std::vector<uint8_t> ours(len);
            chacha20_ietf_keystream(key, nonce, offset, ours.data(), len);
            EXPECT_TRUE(
                std::equal(ours.begin(), ours.end(), full.begin() + static_cast<long>(offset)))
                << offset << "+" << len;
        }
    }
}

TEST(ChaCha, ZeroKeyChaCha20FirstWords) {
    // RFC 7539 §2.3.2 style check: ChaCha20 block of the zero key, counter 0, nonce 0 begins
    // 76 b8 e0 ad a0 f1 3d 90 (the published zero-key keystream).
    const uint8_t key[32] = {};
    ChaChaRng c(key, 10);
    EXPECT_EQ(c.next_u32(), 0xade0b876u);
    EXPECT_EQ(c.next_u32(), 0x903df1a0u);
}

TEST(ChaCha, NextU64FollowsBlockRngRules) {
    util::TestRng rng(302);
    uint8_t key[32];
    rng.fill(key, sizeof(key));
    // Reference stream of u32 words.
    ChaChaRng words(key, 4);
    std::vector<uint32_t> w(64 * 4);
    for (auto& x : w) x = words.next_u32();
    // Aligned u64 reads combine consecutive words low-first, across refills.
    ChaChaRng a(key, 4);
    for (size_t i = 0; i < 128; ++i) {
        EXPECT_EQ(a.next_u64(), uint64_t{w[2 * i]} | (uint64_t{w[2 * i + 1]} << 32)) << i;
    }
    // One u32 first: the u64 that straddles the 64-word buffer takes word 63 as its low half
    // and the first word of the next refill as its high half.
    ChaChaRng b(key, 4);
    EXPECT_EQ(b.next_u32(), w[0]);
    for (size_t i = 0; i < 31; ++i) {
        EXPECT_EQ(b.next_u64(), uint64_t{w[1 + 2 * i]} | (uint64_t{w[2 + 2 * i]} << 32));
    }
    EXPECT_EQ(b.next_u64(), uint64_t{w[63]} | (uint64_t{w[64]} << 32));
    EXPECT_EQ(b.next_u32(), w[65]);
}

}  // namespace
}  // namespace cuzk::porep

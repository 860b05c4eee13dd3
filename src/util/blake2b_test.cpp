// BLAKE2b against OpenSSL (EVP_blake2b512 for the unkeyed 64-byte hash, the BLAKE2BMAC EVP_MAC for
// keyed and shorter outputs) and the RFC 7693 Appendix A example.
#include "util/blake2b.hpp"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "util/hex.hpp"
#include "util/rng.hpp"

namespace cuzk::util {
namespace {

Blake2b512Digest openssl_blake2b512(const uint8_t* data, size_t len) {
    Blake2b512Digest d;
    unsigned int out_len = 0;
    EXPECT_EQ(EVP_Digest(data, len, d.data(), &out_len, EVP_blake2b512(), nullptr), 1);
    EXPECT_EQ(out_len, 64u);
    return d;
}

std::vector<uint8_t> openssl_blake2b_mac(std::span<const uint8_t> key, size_t out_size,
                                         std::span<const uint8_t> data) {
    EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
    EXPECT_NE(mac, nullptr);
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
    size_t size = out_size;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                           OSSL_PARAM_construct_end()};
    EXPECT_EQ(EVP_MAC_init(ctx, key.data(), key.size(), params), 1);
    EXPECT_EQ(EVP_MAC_update(ctx, data.data(), data.size()), 1);
    std::vector<uint8_t> out(out_size);
    size_t written = 0;
    EXPECT_EQ(EVP_MAC_final(ctx, out.data(), &written, out.size()), 1);
    EXPECT_EQ(written, out_size);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return out;
}

TEST(Blake2b, Rfc7693Example) {
    const uint8_t abc[] = {'a', 'b', 'c'};
    EXPECT_EQ(to_hex(blake2b_512({abc, 3})),
              "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
              "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
}

TEST(Blake2b, UnkeyedMatchesOpenSslAllLengths) {
    TestRng rng(201);
    std::vector<uint8_t> buf(300);
    for (size_t len = 0; len <= 300; ++len) {
        rng.fill(buf.data(), len);
        EXPECT_EQ(blake2b_512({buf.data(), len}), openssl_blake2b512(buf.data(), len))
            << "len " << len;
    }
}

TEST(Blake2b, StreamingInRandomPiecesMatchesOpenSsl) {
    TestRng rng(202);
    for (size_t len : {0u, 1u, 127u, 128u, 129u, 255u, 256u, 257u, 1000u, 100000u, 1u << 20}) {
        std::vector<uint8_t> buf(len);
        rng.fill(buf.data(), len);
        Blake2b h;
        size_t pos = 0;
        while (pos < len) {
            const size_t piece = std::min<size_t>(len - pos, rng.uniform(300));
            h.update(buf.data() + pos, piece);
            pos += piece;
        }
        Blake2b512Digest d;
        h.final(d.data());
        EXPECT_EQ(d, openssl_blake2b512(buf.data(), len)) << "len " << len;
    }
}

TEST(Blake2b, KeyedAndShortDigestsMatchOpenSslMac) {
    TestRng rng(203);
    for (size_t key_len : {1u, 16u, 32u, 42u, 64u}) {
        for (size_t out_len : {1u, 20u, 32u, 64u}) {
            for (size_t len : {0u, 1u, 64u, 127u, 128u, 129u, 300u}) {
                std::vector<uint8_t> key(key_len), msg(len);
                rng.fill(key.data(), key.size());
                rng.fill(msg.data(), msg.size());
                auto h = Blake2b::create(out_len, key);
                ASSERT_TRUE(h.ok());
                h->update(msg);
                std::vector<uint8_t> out(out_len);
                h->final(out.data());
                EXPECT_EQ(out, openssl_blake2b_mac(key, out_len, msg))
                    << "key " << key_len << " out " << out_len << " len " << len;
            }
        }
    }
}

TEST(Blake2b, SixteenByteFastPathMatchesOpenSsl) {
    TestRng rng(205);
    for (int rep = 0; rep < 200; ++rep) {
        uint8_t msg[16];
        rng.fill(msg, sizeof(msg));
        Blake2b512Digest d;
        blake2b_512_16(msg, d.data());
        EXPECT_EQ(d, openssl_blake2b512(msg, 16));
    }
}

TEST(Blake2b, RejectsBadParameters) {
    EXPECT_FALSE(Blake2b::create(0).ok());
    EXPECT_FALSE(Blake2b::create(65).ok());
    std::vector<uint8_t> key(65);
    EXPECT_FALSE(Blake2b::create(32, key).ok());
    EXPECT_TRUE(Blake2b::create(32, {key.data(), 64}).ok());
}

TEST(Blake2b, Throughput) {
    std::vector<uint8_t> buf(64u << 20);
    TestRng(204).fill(buf.data(), buf.size());
    auto t0 = std::chrono::steady_clock::now();
    const Blake2b512Digest d = blake2b_512(buf);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(d, openssl_blake2b512(buf.data(), buf.size()));
    // The Feistel round function hashes 16-byte messages: report calls per second too.
    uint8_t msg[16] = {};
    uint8_t out[64];
    const int calls = 200000;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
        msg[0] = static_cast<uint8_t>(i);
        blake2b_512(msg, 16, out);
        msg[1] ^= out[0];
    }
    const double s16 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
        msg[0] = static_cast<uint8_t>(i);
        blake2b_512_16(msg, out);
        msg[1] ^= out[0];
    }
    const double f16 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("blake2b_512_16 fast path: %.0f ns per hash\n", f16 / calls * 1e9);
    std::printf("blake2b-512: %.0f MB/s (64 MiB); %.0f ns per 16-byte hash\n",
                static_cast<double>(buf.size()) / s / 1e6, s16 / calls * 1e9);
}

}  // namespace
}  // namespace cuzk::util

// SHA-256 against OpenSSL's EVP implementation (an independent oracle), plus FIPS 180-4 examples.
#include "util/sha256.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "util/hex.hpp"
#include "util/rng.hpp"

namespace cuzk::util {
namespace {

Sha256Digest openssl_sha256(const uint8_t* data, size_t len) {
    Sha256Digest d;
    unsigned int out_len = 0;
    EXPECT_EQ(EVP_Digest(data, len, d.data(), &out_len, EVP_sha256(), nullptr), 1);
    EXPECT_EQ(out_len, 32u);
    return d;
}

// Runs the body once per available backend.
template <class F>
void for_each_backend(F body) {
    const bool was = Sha256::using_sha_ni();
    for (bool ni : {false, true}) {
        if (ni && !Sha256::sha_ni_available()) continue;
        Sha256::use_sha_ni(ni);
        SCOPED_TRACE(ni ? "SHA-NI" : "portable");
        body();
    }
    Sha256::use_sha_ni(was);
}

TEST(Sha256, FipsExamples) {
    const std::string abc = "abc";
    EXPECT_EQ(to_hex(sha256({reinterpret_cast<const uint8_t*>(abc.data()), abc.size()})),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(to_hex(sha256(std::span<const uint8_t>{})),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneShotMatchesOpenSslAllLengths) {
    for_each_backend([] {
        TestRng rng(101);
        std::vector<uint8_t> buf(300);
        for (size_t len = 0; len <= 300; ++len) {
            rng.fill(buf.data(), len);
            EXPECT_EQ(sha256({buf.data(), len}), openssl_sha256(buf.data(), len)) << "len " << len;
        }
    });
}

TEST(Sha256, StreamingInRandomPiecesMatchesOpenSsl) {
    for_each_backend([] {
        TestRng rng(102);
        for (size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 127u, 128u, 1000u, 4097u,
                           100000u, 1u << 20}) {
            std::vector<uint8_t> buf(len);
            rng.fill(buf.data(), len);
            Sha256 h;
            size_t pos = 0;
            while (pos < len) {
                const size_t piece = std::min<size_t>(len - pos, rng.uniform(200));
                h.update(buf.data() + pos, piece);
                pos += piece;
            }
            EXPECT_EQ(h.final(), openssl_sha256(buf.data(), len)) << "len " << len;
            // reset() makes the object reusable.
            h.reset();
            h.update(buf.data(), len);
            EXPECT_EQ(h.final(), openssl_sha256(buf.data(), len));
        }
    });
}

TEST(Sha256, FixedLengthFastPaths) {
    for_each_backend([] {
        TestRng rng(103);
        for (int rep = 0; rep < 50; ++rep) {
            uint8_t m64[64];
            rng.fill(m64, sizeof(m64));
            uint8_t out[32];
            sha256_64(m64, out);
            EXPECT_EQ(Sha256Digest(std::to_array(out)), openssl_sha256(m64, 64));
            std::vector<uint8_t> m(1248);
            rng.fill(m.data(), m.size());
            sha256_1248(m.data(), out);
            EXPECT_EQ(Sha256Digest(std::to_array(out)), openssl_sha256(m.data(), m.size()));
        }
    });
}

TEST(Sha256, TrimmedClearsTopTwoBits) {
    TestRng rng(104);
    for (int rep = 0; rep < 64; ++rep) {
        uint8_t m[40];
        rng.fill(m, sizeof(m));
        Sha256Digest expect = openssl_sha256(m, sizeof(m));
        expect[31] &= 0x3f;
        EXPECT_EQ(sha256_trimmed({m, sizeof(m)}), expect);
    }
}

TEST(Sha256, Throughput) {
    std::vector<uint8_t> buf(64u << 20);
    TestRng(105).fill(buf.data(), buf.size());
    const Sha256Digest expect = openssl_sha256(buf.data(), buf.size());
    for_each_backend([&] {
        const auto t0 = std::chrono::steady_clock::now();
        const Sha256Digest d = sha256(buf);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_EQ(d, expect);
        std::printf("sha256 (%s): %.0f MB/s (64 MiB)\n",
                    Sha256::using_sha_ni() ? "SHA-NI" : "portable",
                    static_cast<double>(buf.size()) / s / 1e6);
    });
}

}  // namespace
}  // namespace cuzk::util

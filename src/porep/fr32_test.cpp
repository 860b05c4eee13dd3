// Fr32 padding: a bit-by-bit reference written from padding.rs's description (BitVec
// LittleEndian: 254 data bits then 2 zero bits per 256-bit element), padding.rs's own known
// pattern (1016 bytes of 0xff), round trips and sizes.
#include "porep/fr32.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "util/rng.hpp"

namespace cuzk::porep {
namespace {

std::vector<uint8_t> reference_pad(const std::vector<uint8_t>& raw) {
    std::vector<bool> in_bits;
    for (uint8_t b : raw) {
        for (int i = 0; i < 8; ++i) in_bits.push_back((b >> i) & 1);
    }
    std::vector<bool> out_bits;
    for (size_t i = 0; i < in_bits.size(); ++i) {
        out_bits.push_back(in_bits[i]);
        if ((i + 1) % 254 == 0) {
            out_bits.push_back(false);
            out_bits.push_back(false);
        }
    }
    std::vector<uint8_t> out((out_bits.size() + 7) / 8, 0);
    for (size_t i = 0; i < out_bits.size(); ++i) {
        if (out_bits[i]) out[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
    return out;
}

TEST(Fr32, Sizes) {
    EXPECT_EQ(fr32_padded_size(127), 128u);
    EXPECT_EQ(fr32_padded_size(2032), 2048u);
    EXPECT_EQ(fr32_unpadded_size(2048), 2032u);
    EXPECT_EQ(fr32_unpadded_size(128), 127u);
    EXPECT_EQ(fr32_padded_size(40), 41u);  // padding.rs doc example: 32 + 9 bytes
    EXPECT_EQ(fr32_unpadded_size(32ull << 30), (32ull << 30) / 128 * 127);
}

TEST(Fr32, AllOnesKnownPattern) {
    // padding.rs test_read_write_padded: 1016 bytes of 0xff; every element is 31 bytes of 0xff
    // and a last byte 0x3f (6 data bits, 2 zero padding bits).
    const std::vector<uint8_t> raw(1016, 0xff);
    const std::vector<uint8_t> padded = fr32_pad(raw);
    ASSERT_EQ(padded.size(), 1024u);
    for (size_t i = 0; i < padded.size(); ++i) {
        EXPECT_EQ(padded[i], i % 32 == 31 ? 0x3f : 0xff) << i;
    }
    auto back = fr32_unpad(padded, raw.size());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, raw);
}

TEST(Fr32, SingleBitPositions) {
    // Raw bit 254 (byte 31, bit 6) moves to padded bit 256: byte 32, bit 0.
    std::vector<uint8_t> raw(127, 0);
    raw[31] = 0x40;
    std::vector<uint8_t> padded = fr32_pad(raw);
    for (size_t i = 0; i < padded.size(); ++i) EXPECT_EQ(padded[i], i == 32 ? 1 : 0) << i;
    // Raw bit 253 (byte 31, bit 5) stays at padded bit 253.
    raw[31] = 0x20;
    padded = fr32_pad(raw);
    for (size_t i = 0; i < padded.size(); ++i) EXPECT_EQ(padded[i], i == 31 ? 0x20 : 0) << i;
}

TEST(Fr32, MatchesBitReferenceAndRoundTrips) {
    util::TestRng rng(501);
    for (size_t len : {0u, 1u, 31u, 32u, 33u, 40u, 126u, 127u, 128u, 254u, 500u, 2032u, 4064u}) {
        std::vector<uint8_t> raw(len);
        rng.fill(raw.data(), raw.size());
        const std::vector<uint8_t> padded = fr32_pad(raw);
        EXPECT_EQ(padded, reference_pad(raw)) << "len " << len;
        EXPECT_EQ(padded.size(), fr32_padded_size(len));
        auto back = fr32_unpad(padded, len);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(*back, raw) << "len " << len;
    }
}

TEST(Fr32, TwoKiBSectorNodesAreCanonical) {
    util::TestRng rng(502);
    std::vector<uint8_t> raw(2032);
    rng.fill(raw.data(), raw.size());
    const std::vector<uint8_t> padded = fr32_pad(raw);
    ASSERT_EQ(padded.size(), 2048u);
    for (size_t node = 0; node < 64; ++node) EXPECT_EQ(padded[node * 32 + 31] & 0xc0, 0);
}

TEST(Fr32, UnpadRejectsShortInput) {
    std::vector<uint8_t> padded(128, 0);
    EXPECT_TRUE(fr32_unpad(padded, 127).ok());
    EXPECT_FALSE(fr32_unpad(padded, 128).ok());
}

}  // namespace
}  // namespace cuzk::porep

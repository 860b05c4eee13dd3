#include "porep/chacha.hpp"

namespace cuzk::porep {

namespace {

inline uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline void quarter_round(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d) {
    a += b;
    d = rotl32(d ^ a, 16);
    c += d;
    b = rotl32(b ^ c, 12);
    a += b;
    d = rotl32(d ^ a, 8);
    c += d;
    b = rotl32(b ^ c, 7);
}

}  // namespace

ChaChaRng::ChaChaRng(const uint8_t seed[32], int double_rounds) : double_rounds_(double_rounds) {
    for (int i = 0; i < 8; ++i) {
        key_[i] = uint32_t{seed[4 * i]} | (uint32_t{seed[4 * i + 1]} << 8) |
                  (uint32_t{seed[4 * i + 2]} << 16) | (uint32_t{seed[4 * i + 3]} << 24);
    }
}

void ChaChaRng::block(const uint32_t key[8], uint64_t counter, uint64_t stream, int double_rounds,
                      uint32_t out[16]) {
    const uint32_t input[16] = {0x61707865,
                                0x3320646e,
                                0x79622d32,
                                0x6b206574,
                                key[0],
                                key[1],
                                key[2],
                                key[3],
                                key[4],
                                key[5],
                                key[6],
                                key[7],
                                static_cast<uint32_t>(counter),
                                static_cast<uint32_t>(counter >> 32),
                                static_cast<uint32_t>(stream),
                                static_cast<uint32_t>(stream >> 32)};
    uint32_t x[16];
    for (int i = 0; i < 16; ++i) x[i] = input[i];
    for (int r = 0; r < double_rounds; ++r) {
        // Column round, then diagonal round.
        quarter_round(x[0], x[4], x[8], x[12]);
        quarter_round(x[1], x[5], x[9], x[13]);
        quarter_round(x[2], x[6], x[10], x[14]);
        quarter_round(x[3], x[7], x[11], x[15]);
        quarter_round(x[0], x[5], x[10], x[15]);
        quarter_round(x[1], x[6], x[11], x[12]);
        quarter_round(x[2], x[7], x[8], x[13]);
        quarter_round(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; ++i) out[i] = x[i] + input[i];
}

void ChaChaRng::refill() {
    for (int b = 0; b < 4; ++b) block(key_, counter_ + b, 0, double_rounds_, buffer_ + 16 * b);
    counter_ += 4;
    index_ = 0;
}

uint32_t ChaChaRng::next_u32() {
    if (index_ >= 64) refill();
    return buffer_[index_++];
}

uint64_t ChaChaRng::next_u64() {
    if (index_ < 63) {
        const uint64_t lo = buffer_[index_], hi = buffer_[index_ + 1];
        index_ += 2;
        return lo | (hi << 32);
    }
    if (index_ >= 64) {
        refill();
        index_ = 2;
        return uint64_t{buffer_[0]} | (uint64_t{buffer_[1]} << 32);
    }
    const uint64_t lo = buffer_[63];
    refill();
    index_ = 1;
    return lo | (uint64_t{buffer_[0]} << 32);
}

void ChaChaRng::fill_bytes(uint8_t* out, size_t len) {
    for (size_t i = 0; i < len; i += 4) {
        const uint32_t w = next_u32();
        for (size_t j = 0; j < 4 && i + j < len; ++j)
            out[i + j] = static_cast<uint8_t>(w >> (8 * j));
    }
}

void chacha20_ietf_keystream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset,
                             uint8_t* out, size_t len) {
    uint32_t key_words[8];
    for (int i = 0; i < 8; ++i) {
        key_words[i] = uint32_t{key[4 * i]} | (uint32_t{key[4 * i + 1]} << 8) |
                       (uint32_t{key[4 * i + 2]} << 16) | (uint32_t{key[4 * i + 3]} << 24);
    }
    uint32_t n[3];
    for (int i = 0; i < 3; ++i) {
        n[i] = uint32_t{nonce[4 * i]} | (uint32_t{nonce[4 * i + 1]} << 8) |
               (uint32_t{nonce[4 * i + 2]} << 16) | (uint32_t{nonce[4 * i + 3]} << 24);
    }
    // State words 12..15 = counter, nonce0, nonce1, nonce2: the same layout as ChaChaRng's
    // (64-bit counter, 64-bit stream) with the nonce's first word as the counter's high half.
    const uint64_t stream = uint64_t{n[1]} | (uint64_t{n[2]} << 32);
    uint64_t block_index = offset / 64;
    size_t skip = static_cast<size_t>(offset % 64);
    size_t done = 0;
    while (done < len) {
        uint32_t words[16];
        const uint64_t counter = (block_index & 0xffffffffu) | (uint64_t{n[0]} << 32);
        ChaChaRng::block(key_words, counter, stream, 10, words);
        for (size_t b = skip; b < 64 && done < len; ++b) {
            out[done++] = static_cast<uint8_t>(words[b / 4] >> (8 * (b % 4)));
        }
        skip = 0;
        ++block_index;
    }
}

}  // namespace cuzk::porep

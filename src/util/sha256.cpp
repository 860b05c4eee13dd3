// SHA-256 per FIPS 180-4 §6.2 (message schedule W[0..63], 64 rounds with Σ0, Σ1, Ch, Maj).
#include "util/sha256.hpp"
#include "util/env.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cuzk::util {

namespace {


inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t load_be32(const uint8_t* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

inline void store_be32(uint8_t* p, uint32_t v) {
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

void write_digest(const uint32_t state[8], uint8_t out[32]) {
    for (int i = 0; i < 8; ++i) store_be32(out + 4 * i, state[i]);
}

// The last block of a message whose length is 64·k + 0 bytes: 0x80, zeros, bit length (BE).
struct PaddingBlock {
    uint8_t bytes[64];
    explicit PaddingBlock(uint64_t message_bytes) {
        std::memset(bytes, 0, sizeof(bytes));
        bytes[0] = 0x80;
        const uint64_t bits = message_bytes * 8;
        for (int i = 0; i < 8; ++i) bytes[56 + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    }
};

}  // namespace

const uint32_t Sha256::kInitialState[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                           0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

#if defined(__x86_64__)
namespace {

// SHA-NI compression (Intel SHA extensions: sha256rnds2 does two rounds on the state split as
// ABEF / CDGH; sha256msg1 / sha256msg2 compute the message schedule four words at a time).
__attribute__((target("sha,sse4.1"))) void compress_sha_ni(uint32_t state[8], const uint8_t* blocks,
                                                           size_t count) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
    __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
    abcd = _mm_shuffle_epi32(abcd, 0xB1);              // lanes b a d c
    efgh = _mm_shuffle_epi32(efgh, 0x1B);              // lanes h g f e
    __m128i abef = _mm_alignr_epi8(abcd, efgh, 8);     // lanes f e b a
    __m128i cdgh = _mm_blend_epi16(efgh, abcd, 0xF0);  // lanes h g d c
    for (size_t blk = 0; blk < count; ++blk, blocks += 64) {
        const __m128i abef_in = abef, cdgh_in = cdgh;
        __m128i w[4];
        for (int g = 0; g < 16; ++g) {
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(
                    _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * g)), byte_swap);
            }
            __m128i msg = _mm_add_epi32(
                w[g % 4],
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(kSha256RoundConstants + 4 * g)));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, msg);
            if (g >= 3 && g < 15) {
                // W for group g + 1 = σ-schedule of the previous four groups.
                __m128i& next = w[(g + 1) % 4];
                next = _mm_add_epi32(next, _mm_alignr_epi8(w[g % 4], w[(g + 3) % 4], 4));
                next = _mm_sha256msg2_epu32(next, w[g % 4]);
            }
            msg = _mm_shuffle_epi32(msg, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, msg);
            if (g >= 1 && g <= 12) w[(g - 1) % 4] = _mm_sha256msg1_epu32(w[(g - 1) % 4], w[g % 4]);
        }
        abef = _mm_add_epi32(abef, abef_in);
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }
    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

bool cpu_has_sha_ni() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
}

}  // namespace
#endif

namespace {

using CompressFn = void (*)(uint32_t*, const uint8_t*, size_t);

CompressFn initial_backend() {
#if defined(__x86_64__)
    const bool wanted = env_switch("CUZK_SHA_NI", true);
    if (wanted && cpu_has_sha_ni()) return compress_sha_ni;
#endif
    return Sha256::compress_portable;
}

std::atomic<CompressFn>& backend() {
    static std::atomic<CompressFn> fn{initial_backend()};
    return fn;
}

}  // namespace

bool Sha256::sha_ni_available() {
#if defined(__x86_64__)
    static const bool available = cpu_has_sha_ni();
    return available;
#else
    return false;
#endif
}

bool Sha256::using_sha_ni() {
    return backend().load(std::memory_order_relaxed) != compress_portable;
}

void Sha256::use_sha_ni(bool on) {
#if defined(__x86_64__)
    backend().store(on && sha_ni_available() ? compress_sha_ni : compress_portable);
#else
    (void)on;
#endif
}

void Sha256::compress(uint32_t state[8], const uint8_t* blocks, size_t count) {
    backend().load(std::memory_order_relaxed)(state, blocks, count);
}

void Sha256::compress_portable(uint32_t state[8], const uint8_t* blocks, size_t count) {
    for (size_t blk = 0; blk < count; ++blk, blocks += 64) {
        uint32_t w[64];
        for (int t = 0; t < 16; ++t) w[t] = load_be32(blocks + 4 * t);
        for (int t = 16; t < 64; ++t) {
            const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; ++t) {
            const uint32_t big_sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            const uint32_t choose = (e & f) ^ (~e & g);
            const uint32_t t1 = h + big_sigma1 + choose + kSha256RoundConstants[t] + w[t];
            const uint32_t big_sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            const uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            const uint32_t t2 = big_sigma0 + majority;
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

void Sha256::reset() {
    std::memcpy(state_, kInitialState, sizeof(state_));
    buffered_ = 0;
    total_ = 0;
}

void Sha256::update(const void* data, size_t len) {
    const auto* p = static_cast<const uint8_t*>(data);
    total_ += len;
    if (buffered_ > 0) {
        const size_t take = len < kBlockSize - buffered_ ? len : kBlockSize - buffered_;
        std::memcpy(buffer_ + buffered_, p, take);
        buffered_ += take;
        p += take;
        len -= take;
        if (buffered_ < kBlockSize) return;
        compress(state_, buffer_, 1);
        buffered_ = 0;
    }
    const size_t full = len / kBlockSize;
    if (full > 0) {
        compress(state_, p, full);
        p += full * kBlockSize;
        len -= full * kBlockSize;
    }
    if (len > 0) {
        std::memcpy(buffer_, p, len);
        buffered_ = len;
    }
}

void Sha256::final(uint8_t out[32]) {
    const uint64_t bits = total_ * 8;
    buffer_[buffered_++] = 0x80;
    if (buffered_ > 56) {
        std::memset(buffer_ + buffered_, 0, kBlockSize - buffered_);
        compress(state_, buffer_, 1);
        buffered_ = 0;
    }
    std::memset(buffer_ + buffered_, 0, 56 - buffered_);
    for (int i = 0; i < 8; ++i) buffer_[56 + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    compress(state_, buffer_, 1);
    buffered_ = 0;
    write_digest(state_, out);
}

void sha256(const void* data, size_t len, uint8_t out[32]) {
    Sha256 h;
    h.update(data, len);
    h.final(out);
}

Sha256Digest sha256(std::span<const uint8_t> data) {
    Sha256Digest d;
    sha256(data.data(), data.size(), d.data());
    return d;
}

Sha256Digest sha256_trimmed(std::span<const uint8_t> data) {
    Sha256Digest d = sha256(data);
    d[31] &= 0x3f;
    return d;
}

void sha256_64(const uint8_t* msg, uint8_t out[32]) {
    static const PaddingBlock kPad(64);
    uint32_t state[8];
    std::memcpy(state, Sha256::kInitialState, sizeof(state));
    Sha256::compress(state, msg, 1);
    Sha256::compress(state, kPad.bytes, 1);
    write_digest(state, out);
}

void sha256_1248(const uint8_t* msg, uint8_t out[32]) {
    // 1248 = 19·64 + 32: 19 full blocks, then the last 32 bytes with 0x80 and the length 9984.
    uint32_t state[8];
    std::memcpy(state, Sha256::kInitialState, sizeof(state));
    Sha256::compress(state, msg, 19);
    uint8_t last[64] = {};
    std::memcpy(last, msg + 19 * 64, 32);
    last[32] = 0x80;
    const uint64_t bits = 1248 * 8;
    last[62] = static_cast<uint8_t>(bits >> 8);
    last[63] = static_cast<uint8_t>(bits);
    Sha256::compress(state, last, 1);
    write_digest(state, out);
}

}  // namespace cuzk::util

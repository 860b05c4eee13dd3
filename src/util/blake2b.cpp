// BLAKE2b per RFC 7693 §3: 12 rounds of the G mixing function over a 16-word state, SIGMA message
// permutations, parameter block word 0 = 0x0101kknn (fanout = depth = 1, key length kk, digest
// length nn); the final block (zero-padded) is compressed with the last-block flag.
#include "util/blake2b.hpp"

#include <cstring>
#include <utility>

namespace cuzk::util {

namespace {

constexpr uint64_t kIv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                             0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                             0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

constexpr uint8_t kSigma[12][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
                                    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline uint64_t load_le64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

// RFC 7693 §3.1, rotations 32, 24, 16, 63.
inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x, uint64_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr64(v[d] ^ v[a], 32);
    v[c] = v[c] + v[d];
    v[b] = rotr64(v[b] ^ v[c], 24);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr64(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr64(v[b] ^ v[c], 63);
}

// One round with a compile-time schedule, so constant message words fold.
template <int R>
inline void round_fixed(uint64_t v[16], const uint64_t m[16]) {
    constexpr const uint8_t* s = kSigma[R];
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

template <int... R>
inline void all_rounds(uint64_t v[16], const uint64_t m[16], std::integer_sequence<int, R...>) {
    (round_fixed<R>(v, m), ...);
}

}  // namespace

void blake2b_512_16(const uint8_t msg[16], uint8_t out[64]) {
    const uint64_t m[16] = {load_le64(msg), load_le64(msg + 8)};  // the rest are zero
    uint64_t h0[8];
    for (int i = 0; i < 8; ++i) h0[i] = kIv[i];
    h0[0] ^= 0x01010000ULL ^ 64;  // digest length 64, no key
    uint64_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = h0[i];
        v[i + 8] = kIv[i];
    }
    v[12] ^= 16;     // t = 16 bytes
    v[14] = ~v[14];  // last block
    all_rounds(v, m, std::make_integer_sequence<int, 12>{});
    for (int i = 0; i < 8; ++i) {
        const uint64_t h = h0[i] ^ v[i] ^ v[i + 8];
        for (int j = 0; j < 8; ++j) out[8 * i + j] = static_cast<uint8_t>(h >> (8 * j));
    }
}

Result<Blake2b> Blake2b::create(size_t digest_size, std::span<const uint8_t> key) {
    if (digest_size < 1 || digest_size > kMaxDigestSize) {
        return invalid_argument("BLAKE2b digest length must be 1..64 bytes");
    }
    if (key.size() > kMaxKeySize) return invalid_argument("BLAKE2b key longer than 64 bytes");
    Blake2b h;
    h.init(digest_size, key);
    return h;
}

void Blake2b::init(size_t digest_size, std::span<const uint8_t> key) {
    digest_size_ = digest_size;
    std::memcpy(h_, kIv, sizeof(h_));
    h_[0] ^= 0x01010000ULL ^ (static_cast<uint64_t>(key.size()) << 8) ^ digest_size;
    counter_lo_ = counter_hi_ = 0;
    buffered_ = 0;
    if (!key.empty()) {
        // The key, zero-padded to a full block, is the first message block.
        std::memset(buffer_, 0, kBlockSize);
        std::memcpy(buffer_, key.data(), key.size());
        buffered_ = kBlockSize;
    }
}

void Blake2b::compress(const uint8_t block[kBlockSize], bool last) {
    uint64_t m[16];
    for (int i = 0; i < 16; ++i) m[i] = load_le64(block + 8 * i);
    uint64_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = h_[i];
        v[i + 8] = kIv[i];
    }
    v[12] ^= counter_lo_;
    v[13] ^= counter_hi_;
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; ++r) {
        const uint8_t* s = kSigma[r];
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

void Blake2b::update(const void* data, size_t len) {
    const auto* p = static_cast<const uint8_t*>(data);
    // A full buffer is compressed only once more input arrives: the last block needs the flag.
    while (len > 0) {
        if (buffered_ == kBlockSize) {
            counter_lo_ += kBlockSize;
            if (counter_lo_ < kBlockSize) ++counter_hi_;
            compress(buffer_, false);
            buffered_ = 0;
        }
        if (buffered_ == 0 && len > kBlockSize) {
            counter_lo_ += kBlockSize;
            if (counter_lo_ < kBlockSize) ++counter_hi_;
            compress(p, false);
            p += kBlockSize;
            len -= kBlockSize;
            continue;
        }
        const size_t take = len < kBlockSize - buffered_ ? len : kBlockSize - buffered_;
        std::memcpy(buffer_ + buffered_, p, take);
        buffered_ += take;
        p += take;
        len -= take;
    }
}

void Blake2b::final(uint8_t* out) {
    counter_lo_ += buffered_;
    if (counter_lo_ < buffered_) ++counter_hi_;
    std::memset(buffer_ + buffered_, 0, kBlockSize - buffered_);
    compress(buffer_, true);
    uint8_t full[64];
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) full[8 * i + j] = static_cast<uint8_t>(h_[i] >> (8 * j));
    }
    std::memcpy(out, full, digest_size_);
}

void blake2b_512(const void* data, size_t len, uint8_t out[64]) {
    Blake2b h;
    h.update(data, len);
    h.final(out);
}

Blake2b512Digest blake2b_512(std::span<const uint8_t> data) {
    Blake2b512Digest d;
    blake2b_512(data.data(), data.size(), d.data());
    return d;
}

}  // namespace cuzk::util

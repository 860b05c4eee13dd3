// BLAKE2b (RFC 7693), portable C++: sequential mode, digest length 1..64 bytes, optional key of
// 0..64 bytes (salt and personalization are zero).
//
// Blake2b is a streaming hasher: update() any number of times, then final() once. blake2b_512()
// is the one-shot unkeyed 64-byte form used by the SDR Feistel round function
// (rust-fil-proofs storage-proofs-core crypto/feistel.rs, blake2b_simd::blake2b) and by the
// parameter-file digests; the keyed variable-length form serves the synthetic-PoRep PRF keys
// (storage-proofs-porep stacked/vanilla/challenges.rs, Blake2b::new().hash_length(32).key(..)).
// Invalid lengths are rejected by create() with a Status; the object is not thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "util/status.hpp"

namespace cuzk::util {

using Blake2b512Digest = std::array<uint8_t, 64>;

class Blake2b {
   public:
    static constexpr size_t kBlockSize = 128;
    static constexpr size_t kMaxDigestSize = 64;
    static constexpr size_t kMaxKeySize = 64;

    // Unkeyed BLAKE2b-512.
    Blake2b() { init(64, {}); }
    // digest_size in 1..64, key.size() in 0..64.
    static Result<Blake2b> create(size_t digest_size, std::span<const uint8_t> key = {});

    void update(const void* data, size_t len);
    void update(std::span<const uint8_t> data) { update(data.data(), data.size()); }
    // Writes digest_size() bytes; the object must not be updated afterwards.
    void final(uint8_t* out);
    size_t digest_size() const { return digest_size_; }

   private:
    void init(size_t digest_size, std::span<const uint8_t> key);
    void compress(const uint8_t block[kBlockSize], bool last);

    uint64_t h_[8];
    uint64_t counter_lo_ = 0, counter_hi_ = 0;  // bytes absorbed (128-bit t)
    uint8_t buffer_[kBlockSize];
    size_t buffered_ = 0;
    size_t digest_size_ = 64;
};

Blake2b512Digest blake2b_512(std::span<const uint8_t> data);
void blake2b_512(const void* data, size_t len, uint8_t out[64]);
// Unkeyed BLAKE2b-512 of exactly 16 bytes (the Feistel round-function input): one block with
// the 14 zero message words folded away by full unrolling.
void blake2b_512_16(const uint8_t msg[16], uint8_t out[64]);

}  // namespace cuzk::util

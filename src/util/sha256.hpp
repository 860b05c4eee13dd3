// SHA-256 (FIPS 180-4), portable C++.
//
// Sha256 is a streaming hasher: update() any number of times, then final() once; the object may be
// reused after reset(). sha256() is the one-shot form. Digests are the standard big-endian
// 32-byte output. Helpers for Filecoin:
//   - sha256_trimmed(): the digest with the top two bits of byte 31 cleared (`& 0x3f`), which
//     makes it a canonical little-endian BLS12-381 scalar (rust-fil-proofs fr32
//     bytes_into_fr_repr_safe, filecoin-hashers sha256.rs trim_to_fr32).
//   - sha256_64() / sha256_1248(): fixed-length messages of SDR labeling (node 0 and every other
//     node, storage-proofs-porep create_label/single.rs); the final padding block of these
//     lengths is a constant, so they skip the generic buffering.
// Backends: portable C++ and, on x86-64 CPUs with the SHA extensions, SHA-NI (selected at run
// time; CUZK_SHA_NI=0 in the environment forces the portable code for A/B runs).
// Thread-safety: a Sha256 object is not shared between threads; the free functions are pure.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::util {

// The 64 round constants K_t of SHA-256 (FIPS 180-4 §4.2.2), shared by this implementation
// and the SHA-256 gadget (gadgets/sha256.cpp).
inline constexpr uint32_t kSha256RoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};


using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
   public:
    static constexpr size_t kBlockSize = 64;
    static constexpr size_t kDigestSize = 32;

    Sha256() { reset(); }
    void reset();
    void update(const void* data, size_t len);
    void update(std::span<const uint8_t> data) { update(data.data(), data.size()); }
    // Writes the digest; the hasher must be reset() before it is used again.
    void final(uint8_t out[32]);
    Sha256Digest final() {
        Sha256Digest d;
        final(d.data());
        return d;
    }

    // The compression function on `blocks` consecutive 64-byte blocks (selected backend).
    static void compress(uint32_t state[8], const uint8_t* blocks, size_t count);
    static void compress_portable(uint32_t state[8], const uint8_t* blocks, size_t count);
    // False when the CPU lacks SHA-NI; the backend otherwise follows CUZK_SHA_NI.
    static bool sha_ni_available();
    static bool using_sha_ni();
    // For tests and benchmarks: choose the backend (SHA-NI only when available).
    static void use_sha_ni(bool on);
    static const uint32_t kInitialState[8];

   private:
    uint32_t state_[8];
    uint8_t buffer_[kBlockSize];
    size_t buffered_ = 0;
    uint64_t total_ = 0;  // bytes absorbed
};

Sha256Digest sha256(std::span<const uint8_t> data);
void sha256(const void* data, size_t len, uint8_t out[32]);

// Digest with out[31] &= 0x3f.
Sha256Digest sha256_trimmed(std::span<const uint8_t> data);

// Exactly 64 / 1248 bytes in, standard (untrimmed) digest out.
void sha256_64(const uint8_t* msg, uint8_t out[32]);
void sha256_1248(const uint8_t* msg, uint8_t out[32]);

}  // namespace cuzk::util

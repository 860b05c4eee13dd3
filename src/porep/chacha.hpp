// ChaCha random number generator with rand_chacha 0.3 semantics (ChaCha8Rng, ChaCha20Rng).
//
// State (D. J. Bernstein, "ChaCha, a variant of Salsa20"): words 0..3 the constant
// "expand 32-byte k", 4..11 the 32-byte seed as little-endian words, 12..13 a 64-bit block
// counter starting at 0 (low word first), 14..15 the 64-bit stream id (0 for from_seed).
// rand_chacha (rust-random/rand rand_chacha/src/guts.rs) produces four blocks per refill into a
// 64-word buffer; next_u32 reads it in order and next_u64 is `lo | hi << 32` of two consecutive
// words with rand_core BlockRng's rule at the buffer end (the last word, a refill, then word 0).
// Used for the DRG parents of the SDR graph (storage-proofs-core drgraph.rs, ChaCha8Rng).
// Not thread-safe; cheap to construct.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::porep {

class ChaChaRng {
   public:
    // double_rounds: 4 for ChaCha8, 10 for ChaCha20.
    ChaChaRng(const uint8_t seed[32], int double_rounds);

    uint32_t next_u32();
    uint64_t next_u64();
    // Raw keystream bytes in order (the words as little-endian bytes).
    void fill_bytes(uint8_t* out, size_t len);

    // One 64-byte block for the given counter and stream (exposed for tests).
    static void block(const uint32_t key[8], uint64_t counter, uint64_t stream, int double_rounds,
                      uint32_t out[16]);

   private:
    void refill();

    uint32_t key_[8];
    uint64_t counter_ = 0;
    int double_rounds_;
    uint32_t buffer_[64];
    size_t index_ = 64;  // empty
};

// RFC 8439 ChaCha20 keystream (96-bit nonce, 32-bit block counter; RustCrypto chacha20's
// `ChaCha20`), starting at keystream byte `offset` (the cipher's try_seek). Used by the synthetic
// PoRep challenge PRFs (storage-proofs-porep stacked/vanilla/challenges.rs).
void chacha20_ietf_keystream(const uint8_t key[32], const uint8_t nonce[12], uint64_t offset,
                             uint8_t* out, size_t len);

inline ChaChaRng chacha8_from_seed(const uint8_t seed[32]) { return ChaChaRng(seed, 4); }

}  // namespace cuzk::porep

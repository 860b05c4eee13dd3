// The Feistel permutation of the SDR expander graph (rust-fil-proofs storage-proofs-core
// src/crypto/feistel.rs).
//
// For a domain of num_elements, half_bits = k is the smallest k ≥ 1 with 4^k ≥ num_elements;
// right_mask = 2^k − 1, left_mask = right_mask << k. encode(x) splits x into (L, R) =
// ((x & left_mask) >> k, x & right_mask) and runs 3 rounds (L, R) ← (R, L ^ F(R, key_i)), giving
// (L << k) | R. F(R, key) = the first 8 bytes, read big-endian, of BLAKE2b-512(R as 8 bytes BE ‖
// key as 8 bytes BE), masked with right_mask. permute() cycle-walks: it re-encodes while the value
// is ≥ num_elements, so the result lies in [0, num_elements). Only the first three of the four
// keys are used (FEISTEL_ROUNDS = 3). Pure functions, thread-safe.
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::porep {

struct FeistelParams {
    uint64_t left_mask;
    uint64_t right_mask;
    uint32_t half_bits;
};

inline constexpr int kFeistelRounds = 3;
using FeistelKeys = std::array<uint64_t, 4>;

FeistelParams feistel_precompute(uint64_t num_elements);
uint64_t feistel_round_function(uint64_t right, uint64_t key, uint64_t right_mask);
uint64_t feistel_encode(uint64_t index, const FeistelKeys& keys, const FeistelParams& params);
uint64_t feistel_decode(uint64_t index, const FeistelKeys& keys, const FeistelParams& params);
// index < num_elements; the result too.
uint64_t feistel_permute(uint64_t num_elements, uint64_t index, const FeistelKeys& keys,
                         const FeistelParams& params);
uint64_t feistel_invert_permute(uint64_t num_elements, uint64_t index, const FeistelKeys& keys,
                                const FeistelParams& params);

}  // namespace cuzk::porep

#include "porep/feistel.hpp"

#include "util/blake2b.hpp"

namespace cuzk::porep {

FeistelParams feistel_precompute(uint64_t num_elements) {
    uint64_t power = 4;
    uint32_t k = 1;
    while (power < num_elements) {
        power *= 4;
        ++k;
    }
    const uint64_t right = (uint64_t{1} << k) - 1;
    return FeistelParams{right << k, right, k};
}

uint64_t feistel_round_function(uint64_t right, uint64_t key, uint64_t right_mask) {
    uint8_t msg[16];
    for (int i = 0; i < 8; ++i) {
        msg[i] = static_cast<uint8_t>(right >> (56 - 8 * i));
        msg[8 + i] = static_cast<uint8_t>(key >> (56 - 8 * i));
    }
    uint8_t digest[64];
    util::blake2b_512_16(msg, digest);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | digest[i];
    return v & right_mask;
}

uint64_t feistel_encode(uint64_t index, const FeistelKeys& keys, const FeistelParams& params) {
    uint64_t left = (index & params.left_mask) >> params.half_bits;
    uint64_t right = index & params.right_mask;
    for (int round = 0; round < kFeistelRounds; ++round) {
        const uint64_t next_right =
            left ^ feistel_round_function(right, keys[round], params.right_mask);
        left = right;
        right = next_right;
    }
    return (left << params.half_bits) | right;
}

uint64_t feistel_decode(uint64_t index, const FeistelKeys& keys, const FeistelParams& params) {
    uint64_t left = (index & params.left_mask) >> params.half_bits;
    uint64_t right = index & params.right_mask;
    for (int round = kFeistelRounds - 1; round >= 0; --round) {
        const uint64_t prev_left =
            right ^ feistel_round_function(left, keys[round], params.right_mask);
        right = left;
        left = prev_left;
    }
    return (left << params.half_bits) | right;
}

uint64_t feistel_permute(uint64_t num_elements, uint64_t index, const FeistelKeys& keys,
                         const FeistelParams& params) {
    uint64_t u = feistel_encode(index, keys, params);
    while (u >= num_elements) u = feistel_encode(u, keys, params);
    return u;
}

uint64_t feistel_invert_permute(uint64_t num_elements, uint64_t index, const FeistelKeys& keys,
                                const FeistelParams& params) {
    uint64_t u = feistel_decode(index, keys, params);
    while (u >= num_elements) u = feistel_decode(u, keys, params);
    return u;
}

}  // namespace cuzk::porep

#include "poseidon/preprocessing.hpp"

#include <span>

namespace cuzk::poseidon {

std::vector<Fr> compress_round_constants(size_t width, size_t full_rounds, size_t partial_rounds,
                                         const std::vector<Fr>& round_constants,
                                         const Matrix& mds_inverse) {
    auto keys = [&](size_t r) {
        return std::span<const Fr>(round_constants.data() + r * width, width);
    };
    const size_t half = full_rounds / 2;
    std::vector<Fr> out;
    out.reserve(full_rounds * width + partial_rounds);

    // The first round's keys are added before the first S-boxes, unchanged.
    out.insert(out.end(), keys(0).begin(), keys(0).end());
    // Initial full rounds: the next round's keys move behind this round's S-boxes. The last
    // initial round's post-keys come from the partial-round fold below.
    for (size_t i = 0; i + 1 < half; ++i) {
        const auto inv = left_apply_matrix(mds_inverse, keys(i + 1));
        out.insert(out.end(), inv.begin(), inv.end());
    }

    // Fold the partial rounds' keys backwards, keeping one key per partial S-box.
    const size_t final_round = half + partial_rounds;
    std::vector<Fr> acc(keys(final_round).begin(), keys(final_round).end());
    std::vector<Fr> partial_keys;  // reverse order
    partial_keys.reserve(partial_rounds);
    for (size_t i = 0; i < partial_rounds; ++i) {
        std::vector<Fr> inv = left_apply_matrix(mds_inverse, acc);
        partial_keys.push_back(inv[0]);
        inv[0] = Fr::zero();
        const auto prev = keys(final_round - i - 1);
        for (size_t j = 0; j < width; ++j) acc[j] = prev[j] + inv[j];
    }
    const auto acc_inv = left_apply_matrix(mds_inverse, acc);
    out.insert(out.end(), acc_inv.begin(), acc_inv.end());
    out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());

    // Final full rounds except the last: post-keys from the following round.
    for (size_t i = 1; i < half; ++i) {
        const auto inv = left_apply_matrix(mds_inverse, keys(i + final_round));
        out.insert(out.end(), inv.begin(), inv.end());
    }
    return out;
}

}  // namespace cuzk::poseidon

#include "poseidon/circuit_witness.hpp"

#include <string>
#include <vector>

namespace cuzk::poseidon {

size_t legacy_circuit_aux_count(const PoseidonConstants& c) {
    const size_t sboxes = c.width * c.full_rounds + c.partial_rounds - 1;  // tag S-box is free
    return 3 * c.arity + 4 * (sboxes - c.arity) + 1;
}

util::Result<Fr> legacy_circuit_witness(const PoseidonConstants& c, std::span<const Fr> preimage,
                                        std::span<Fr> aux) {
    if (preimage.size() != c.arity || aux.size() != legacy_circuit_aux_count(c)) {
        std::string msg = "poseidon witness: sizes ";
        msg += std::to_string(preimage.size());
        msg += "/";
        msg += std::to_string(aux.size());
        msg += " do not match arity ";
        msg += std::to_string(c.arity);
        return util::invalid_argument(std::move(msg));
    }
    const size_t w = c.width;
    const size_t h = c.half_full_rounds;
    std::vector<Fr> s(w), tmp(w);
    s[0] = c.domain_tag;
    for (size_t i = 1; i < w; ++i) s[i] = preimage[i - 1];
    Fr* out = aux.data();
    const Fr* k = c.compressed_round_constants.data();
    size_t round = 0;

    auto dense = [&](const Matrix& m) {
        for (size_t j = 0; j < w; ++j) {
            Fr acc = s[0] * m.at(0, j);
            for (size_t i = 1; i < w; ++i) acc += s[i] * m.at(i, j);
            tmp[j] = acc;
        }
        s.swap(tmp);
    };
    auto linear = [&] {
        if (round + 1 == h) {
            dense(c.pre_sparse_matrix);
        } else if (round >= h && round < h + c.partial_rounds) {
            const SparseMatrix& m = c.sparse_matrixes[round - h];
            Fr first = s[0] * m.w_hat[0];
            for (size_t i = 1; i < w; ++i) first += s[i] * m.w_hat[i];
            for (size_t j = 1; j < w; ++j) s[j] += s[0] * m.v_rest[j - 1];
            s[0] = first;
        } else {
            dense(c.mds.m);
        }
        ++round;
    };
    // A later S-box: allocate x, then x², x⁴, x⁵ + key.
    auto sbox = [&](Fr& x, const Fr* key) {
        const Fr x2 = x.square();
        const Fr x4 = x2.square();
        Fr x5 = x4 * x;
        if (key != nullptr) x5 += *key;
        *out++ = x;
        *out++ = x2;
        *out++ = x4;
        *out++ = x5;
        x = x5;
    };

    // First round: pre-keys k[0..w), post-keys k[w..2w); the tag's S-box is a constant.
    for (size_t i = 0; i < w; ++i) {
        const Fr y = s[i] + k[i];
        const Fr y2 = y.square();
        const Fr y4 = y2.square();
        const Fr y5 = y4 * y + k[w + i];
        if (i > 0) {
            *out++ = y2;
            *out++ = y4;
            *out++ = y5;
        }
        s[i] = y5;
    }
    k += 2 * w;
    linear();
    for (size_t r = 1; r < h; ++r) {
        for (size_t i = 0; i < w; ++i) sbox(s[i], k + i);
        k += w;
        linear();
    }
    for (size_t r = 0; r < c.partial_rounds; ++r) {
        sbox(s[0], k++);
        linear();
    }
    for (size_t r = 1; r < h; ++r) {
        for (size_t i = 0; i < w; ++i) sbox(s[i], k + i);
        k += w;
        linear();
    }
    for (size_t i = 0; i < w; ++i) sbox(s[i], nullptr);
    linear();
    *out++ = s[1];
    if (out != aux.data() + aux.size())
        return util::internal_error("poseidon witness: aux count mismatch");
    return s[1];
}

}  // namespace cuzk::poseidon

#include "poseidon/hash.hpp"

#include <array>
#include <string>
#include <vector>

namespace cuzk::poseidon {
namespace {

inline Fr quintic(const Fr& x) {
    const Fr x2 = x.square();
    const Fr x4 = x2.square();
    return x4 * x;
}

// state ← state·A for a dense width×width row-major A.
template <class State>
inline void dense_layer(State& s, const Fr* a, size_t width) {
    State r = s;
    for (size_t j = 0; j < width; ++j) r[j] = s[0] * a[j];
    for (size_t i = 1; i < width; ++i) {
        const Fr* row = a + i * width;
        for (size_t j = 0; j < width; ++j) r[j] += s[i] * row[j];
    }
    s = r;
}

template <class State>
inline void sparse_layer(State& s, const SparseMatrix& m, size_t width) {
    Fr first = s[0] * m.w_hat[0];
    for (size_t i = 1; i < width; ++i) first += s[i] * m.w_hat[i];
    for (size_t j = 1; j < width; ++j) s[j] += s[0] * m.v_rest[j - 1];
    s[0] = first;
}

// The optimised permutation over a state container of the right width (std::array for the
// common widths, so loops have constant bounds; std::vector otherwise).
template <class State>
Fr optimized(const PoseidonConstants& c, State& s) {
    const size_t w = c.width;
    const size_t h = c.half_full_rounds;
    const Fr* k = c.compressed_round_constants.data();
    const Fr* m = c.mds.m.data();
    for (size_t i = 0; i < w; ++i) s[i] += k[i];
    k += w;
    size_t round = 0;
    auto linear = [&] {
        if (round + 1 == h) {
            dense_layer(s, c.pre_sparse_matrix.data(), w);
        } else if (round >= h && round < h + c.partial_rounds) {
            sparse_layer(s, c.sparse_matrixes[round - h], w);
        } else {
            dense_layer(s, m, w);
        }
        ++round;
    };
    for (size_t r = 0; r < h; ++r) {
        for (size_t i = 0; i < w; ++i) s[i] = quintic(s[i]) + k[i];
        k += w;
        linear();
    }
    for (size_t r = 0; r < c.partial_rounds; ++r) {
        s[0] = quintic(s[0]) + *k++;
        linear();
    }
    for (size_t r = 1; r < h; ++r) {
        for (size_t i = 0; i < w; ++i) s[i] = quintic(s[i]) + k[i];
        k += w;
        linear();
    }
    for (size_t i = 0; i < w; ++i) s[i] = quintic(s[i]);
    linear();
    return s[1];
}

template <size_t W>
Fr optimized_fixed(const PoseidonConstants& c, const Fr* preimage) {
    std::array<Fr, W> s;
    s[0] = c.domain_tag;
    for (size_t i = 1; i < W; ++i) s[i] = preimage[i - 1];
    return optimized(c, s);
}

util::Status check_size(const PoseidonConstants& c, size_t n) {
    if (n == c.arity) return util::Status();
    std::string msg = "poseidon: preimage has ";
    msg += std::to_string(n);
    msg += " elements, arity is ";
    msg += std::to_string(c.arity);
    return util::invalid_argument(std::move(msg));
}

}  // namespace

Fr hash_unchecked(const PoseidonConstants& c, const Fr* preimage) {
    switch (c.width) {
        case 3: return optimized_fixed<3>(c, preimage);
        case 5: return optimized_fixed<5>(c, preimage);
        case 9: return optimized_fixed<9>(c, preimage);
        case 12: return optimized_fixed<12>(c, preimage);
        case 17: return optimized_fixed<17>(c, preimage);
        case 25: return optimized_fixed<25>(c, preimage);
        case 37: return optimized_fixed<37>(c, preimage);
        default: {
            std::vector<Fr> s(c.width);
            s[0] = c.domain_tag;
            for (size_t i = 1; i < c.width; ++i) s[i] = preimage[i - 1];
            return optimized(c, s);
        }
    }
}

util::Result<Fr> hash_optimized(const PoseidonConstants& c, std::span<const Fr> preimage) {
    CUZK_RETURN_IF_ERROR(check_size(c, preimage.size()));
    return hash_unchecked(c, preimage.data());
}

util::Result<Fr> hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage) {
    CUZK_RETURN_IF_ERROR(check_size(c, preimage.size()));
    const size_t w = c.width;
    std::vector<Fr> s(w);
    s[0] = c.domain_tag;
    for (size_t i = 1; i < w; ++i) s[i] = preimage[i - 1];
    const Fr* k = c.round_constants.data();
    const Fr* m = c.mds.m.data();
    auto full_round = [&] {
        for (size_t i = 0; i < w; ++i) s[i] = quintic(s[i] + k[i]);
        k += w;
        dense_layer(s, m, w);
    };
    for (size_t r = 0; r < c.half_full_rounds; ++r) full_round();
    for (size_t r = 0; r < c.partial_rounds; ++r) {
        for (size_t i = 0; i < w; ++i) s[i] += k[i];
        k += w;
        s[0] = quintic(s[0]);
        dense_layer(s, m, w);
    }
    for (size_t r = 0; r < c.half_full_rounds; ++r) full_round();
    return s[1];
}

util::Result<Fr> hash(std::span<const Fr> preimage, Strength strength) {
    CUZK_ASSIGN_OR_RETURN(const PoseidonConstants* c, constants(preimage.size(), strength));
    return hash_unchecked(*c, preimage.data());
}

Fr hash2(const Fr& a, const Fr& b) {
    static const PoseidonConstants* const c = *constants(2);
    const Fr in[2] = {a, b};
    return optimized_fixed<3>(*c, in);
}

}  // namespace cuzk::poseidon

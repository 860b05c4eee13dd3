// Fixed-base scalar multiplication by a windowed table of one base's multiples.
//
// For a base G and window width w: windows k = 0 .. W−1 (W = ⌈255/w⌉; scalars are integers
// below 2^255, e.g. canonical Fr values) and
//     table[k·(2^w − 1) + d − 1] = d·2^(w·k)·G      for d = 1 .. 2^w − 1, in affine coordinates.
// Then s·G = Σ_k table[k][digit_k(s)] with digit_k(s) = bits [w·k, w·k + w) of s — at most W
// mixed additions per scalar and no doublings. The table is immutable after construction and
// shared read-only (the GPU setup uploads it as is: data() is row-major, rows of 2^w − 1
// points, window 0 first).
// Cost model for choosing w (choose_window): W(w)·(2^w + n) additions for n scalars.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "ec/point.hpp"
#include "ff/bigint.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::ec {

// The window width in [2, max_window] minimising W(w)·(2^w + n).
inline unsigned choose_fixed_base_window(size_t n, unsigned max_window = 16) {
    unsigned best = 2;
    double best_cost = -1;
    for (unsigned w = 2; w <= max_window; ++w) {
        const double windows = static_cast<double>((255 + w - 1) / w);
        const double cost = windows * (static_cast<double>(size_t{1} << w) + static_cast<double>(n));
        if (best_cost < 0 || cost < best_cost) {
            best = w;
            best_cost = cost;
        }
    }
    return best;
}

// Bits [bit, bit + width) of a 256-bit little-endian integer (width ≤ 32).
inline uint64_t scalar_window_digit(const ff::BigInt<4>& k, size_t bit, unsigned width) {
    const size_t limb = bit / 64;
    const unsigned shift = static_cast<unsigned>(bit % 64);
    if (limb >= 4) return 0;
    uint64_t digit = k.limb[limb] >> shift;
    if (shift + width > 64 && limb + 1 < 4) digit |= k.limb[limb + 1] << (64 - shift);
    return digit & ((uint64_t{1} << width) - 1);
}

template <class C>
class FixedBaseTable {
   public:
    using Jac = Jacobian<C>;
    using Aff = Affine<C>;

    FixedBaseTable(const Aff& base, unsigned window, util::ThreadPool& pool)
        : window_(window), windows_((255 + window_ - 1) / window_), row_((size_t{1} << window_) - 1) {
        // Window bases 2^(w·k)·G, serially (w doublings each).
        std::vector<Jac> bases(windows_);
        Jac b = Jac::from_affine(base);
        for (size_t k = 0; k < windows_; ++k) {
            bases[k] = b;
            for (unsigned i = 0; i < window_; ++i) b = b.dbl();
        }
        std::vector<Jac> multiples(windows_ * row_);
        pool.parallel_for(windows_, [&](size_t k) {
            Jac acc = bases[k];
            Jac* out = multiples.data() + k * row_;
            out[0] = acc;
            for (size_t d = 1; d < row_; ++d) {
                acc += bases[k];
                out[d] = acc;
            }
        });
        table_.resize(multiples.size());
        batch_to_affine(multiples.data(), table_.data(), multiples.size());
    }

    unsigned window() const { return window_; }
    size_t windows() const { return windows_; }
    size_t row() const { return row_; }  // 2^w − 1 points per window
    std::span<const Aff> points() const { return table_; }

    Jac mul(const ff::BigInt<4>& k) const {
        Jac acc = Jac::identity();
        for (size_t j = 0; j < windows_; ++j) {
            const uint64_t digit = scalar_window_digit(k, j * window_, window_);
            if (digit != 0) acc = acc.add_mixed(table_[j * row_ + (digit - 1)]);
        }
        return acc;
    }

    // s_i·G for all scalars (Montgomery Fr-like: anything with to_int()), in affine; parallel
    // over the pool with one normalization per chunk.
    template <class Scalar>
    std::vector<Aff> mul_all(std::span<const Scalar> scalars, util::ThreadPool& pool) const {
        std::vector<Aff> out(scalars.size());
        pool.parallel_ranges(scalars.size(), [&](size_t begin, size_t end) {
            std::vector<Jac> tmp(end - begin);
            for (size_t i = begin; i < end; ++i) tmp[i - begin] = mul(scalars[i].to_int());
            batch_to_affine(tmp.data(), out.data() + begin, end - begin);
        });
        return out;
    }

   private:
    unsigned window_;
    size_t windows_;
    size_t row_;
    std::vector<Aff> table_;
};

}  // namespace cuzk::ec

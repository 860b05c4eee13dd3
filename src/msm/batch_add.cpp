// Sums of the bases selected by a bit vector (see batch_add.hpp).
#include "msm/batch_add.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cuzk::msm {
namespace {

// Calls f(i) for every set bit i of bits below n, in increasing order, for the words
// [word_begin, word_end).
template <class F>
void for_each_selected(std::span<const uint64_t> bits, size_t n, size_t word_begin,
                       size_t word_end, F&& f) {
    for (size_t w = word_begin; w < word_end; ++w) {
        uint64_t word = bits[w];
        const size_t base = 64 * w;
        if (n - base < 64) word &= (uint64_t{1} << (n - base)) - 1;  // bits ≥ n are ignored
        while (word != 0) {
            f(base + static_cast<size_t>(__builtin_ctzll(word)));
            word &= word - 1;
        }
    }
}

// A running sum of affine points, added in batches with one shared inversion per round.
template <class C>
class AffineBatchSum {
   public:
    using F = typename C::Field;

    AffineBatchSum() { points_.reserve(kAffineBatch); }

    void add(const ec::Affine<C>& p) {
        if (p.is_identity()) return;
        points_.push_back(p);
        if (points_.size() == kAffineBatch) halve();
    }

    ec::Xyzz<C> finish() {
        while (points_.size() >= kAffineTail) halve();
        ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
        for (const ec::Affine<C>& p : points_) acc = acc.add_mixed(p);
        points_.clear();
        return acc;
    }

   private:
    // Replaces points_[2i], points_[2i+1] by their sum (identities dropped); an odd last point
    // is kept as it is.
    void halve() {
        const size_t pairs = points_.size() / 2;
        denominators_.resize(pairs);
        for (size_t i = 0; i < pairs; ++i) {
            denominators_[i] = ec::affine_add_denominator(points_[2 * i], points_[2 * i + 1]);
        }
        ff::batch_inverse(denominators_.data(), pairs, scratch_);  // zeros stay zero
        size_t out = 0;
        for (size_t i = 0; i < pairs; ++i) {
            if (denominators_[i].is_zero()) continue;  // the sum is the identity
            // out ≤ i: both inputs are read before the slot is written
            points_[out++] = ec::affine_add_with_inverse(points_[2 * i], points_[2 * i + 1],
                                                         denominators_[i]);
        }
        if (points_.size() % 2 == 1) points_[out++] = points_.back();
        points_.resize(out);
    }

    std::vector<ec::Affine<C>> points_;
    std::vector<F> denominators_, scratch_;
};

template <class C>
ec::Jacobian<C> sum_selected(std::span<const ec::Affine<C>> bases,
                             std::span<const uint64_t> bits, const BatchAddOptions& options) {
    const size_t n = bases.size();
    const size_t words = (n + 63) / 64;
    if (bits.size() != words) {
        std::fprintf(stderr, "cuzk::msm: batch_add: bit vector has %zu words, expected %zu\n",
                     bits.size(), words);
        std::abort();
    }
    if (n == 0) return ec::Jacobian<C>::identity();
    util::ThreadPool& pool = options.pool != nullptr ? *options.pool : util::ThreadPool::global();
    const size_t chunks = std::min<size_t>(words, size_t{pool.size()} * 4);
    const size_t chunk_words = (words + chunks - 1) / chunks;

    std::vector<ec::Xyzz<C>> partial(chunks, ec::Xyzz<C>::identity());
    pool.parallel_for(chunks, [&](size_t chunk) {
        const size_t begin = std::min(words, chunk * chunk_words);
        const size_t end = std::min(words, begin + chunk_words);
        if (options.method == BatchAddMethod::kXyzz) {
            ec::Xyzz<C> acc = ec::Xyzz<C>::identity();
            for_each_selected(bits, n, begin, end,
                              [&](size_t i) { acc = acc.add_mixed(bases[i]); });
            partial[chunk] = acc;
        } else {
            AffineBatchSum<C> acc;
            for_each_selected(bits, n, begin, end, [&](size_t i) { acc.add(bases[i]); });
            partial[chunk] = acc.finish();
        }
    });
    ec::Xyzz<C> sum = ec::Xyzz<C>::identity();
    for (const ec::Xyzz<C>& p : partial) sum += p;
    return sum.to_jacobian();
}

}  // namespace

ec::G1Jacobian batch_add(std::span<const ec::G1Affine> bases, std::span<const uint64_t> bits,
                         const BatchAddOptions& options) {
    return sum_selected(bases, bits, options);
}
ec::G2Jacobian batch_add(std::span<const ec::G2Affine> bases, std::span<const uint64_t> bits,
                         const BatchAddOptions& options) {
    return sum_selected(bases, bits, options);
}

}  // namespace cuzk::msm

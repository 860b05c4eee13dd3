// DensityBits: a growable bit vector with a running popcount — bellperson's DensityTracker.
//
// Layout: bit i is bit (i % 64) of words()[i / 64], least significant first (the layout
// msm::batch_add and the SupraSeal prover consume). Bits at positions ≥ size() in the last word
// are always zero. popcount() is kept up to date by set(), so reading it is O(1).
// Not thread-safe (plain data).
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuzk::r1cs {

class DensityBits {
   public:
    void reserve(size_t bits) { words_.reserve((bits + 63) / 64); }
    // Appends a clear bit (a new variable that has not appeared yet).
    void push_back() {
        if (size_ % 64 == 0) words_.push_back(0);
        ++size_;
    }
    void set(size_t i) {
        assert(i < size_);
        uint64_t& w = words_[i / 64];
        const uint64_t mask = uint64_t{1} << (i % 64);
        popcount_ += (w & mask) == 0 ? 1 : 0;
        w |= mask;
    }
    bool get(size_t i) const {
        assert(i < size_);
        return ((words_[i / 64] >> (i % 64)) & 1) != 0;
    }
    size_t size() const { return size_; }
    size_t popcount() const { return popcount_; }
    const std::vector<uint64_t>& words() const { return words_; }

    // Sets every bit that is set in the first `bits` bits of `other` (bits ≤ both sizes).
    void or_prefix(const DensityBits& other, size_t bits) {
        assert(bits <= size_ && bits <= other.size_);
        const size_t full = bits / 64;
        for (size_t w = 0; w < full; ++w) or_word(w, other.words_[w]);
        if (bits % 64 != 0)
            or_word(full, other.words_[full] & ((uint64_t{1} << (bits % 64)) - 1));
    }
    // Appends bits [from, other.size()) of `other`.
    void append_from(const DensityBits& other, size_t from) {
        assert(from <= other.size_);
        reserve(other.size_ - from + size_);
        for (size_t i = from; i < other.size_;) {
            // Up to 64 source bits at a time, aligned to the destination's current word.
            const size_t take = std::min<size_t>({64 - size_ % 64, 64 - i % 64, other.size_ - i});
            const uint64_t mask = take == 64 ? ~uint64_t{0} : (uint64_t{1} << take) - 1;
            const uint64_t bits = (other.words_[i / 64] >> (i % 64)) & mask;
            if (size_ % 64 == 0) words_.push_back(0);
            words_.back() |= bits << (size_ % 64);
            popcount_ += static_cast<size_t>(std::popcount(bits));
            size_ += take;
            i += take;
        }
    }

    // Recounts from the words (for checks).
    size_t recount() const {
        size_t n = 0;
        for (uint64_t w : words_) n += static_cast<size_t>(std::popcount(w));
        return n;
    }
    friend bool operator==(const DensityBits& x, const DensityBits& y) {
        return x.size_ == y.size_ && x.words_ == y.words_;
    }

   private:
    void or_word(size_t w, uint64_t bits) {
        popcount_ += static_cast<size_t>(std::popcount(bits & ~words_[w]));
        words_[w] |= bits;
    }

    std::vector<uint64_t> words_;
    size_t size_ = 0;
    size_t popcount_ = 0;
};

}  // namespace cuzk::r1cs

// DensityBits: a growable bit vector with a running popcount — bellperson's DensityTracker.
//
// Layout: bit i is bit (i % 64) of words()[i / 64], least significant first (the layout
// msm::batch_add and the SupraSeal prover consume). Bits at positions ≥ size() in the last word
// are always zero. popcount() is kept up to date by set(), so reading it is O(1).
// Not thread-safe (plain data).
#pragma once

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
    std::vector<uint64_t> words_;
    size_t size_ = 0;
    size_t popcount_ = 0;
};

}  // namespace cuzk::r1cs

#include "poseidon/grain.hpp"

#include <array>
#include <cassert>

namespace cuzk::poseidon {
namespace {

// The 80-bit LFSR as a ring buffer: bit(i) is b_{pos+i}.
class Grain {
   public:
    explicit Grain(const std::array<uint8_t, 80>& init) : bits_(init) {
        for (int i = 0; i < 160; ++i) step();
    }

    // One self-shrunk output bit (neptune `Iterator for Grain`).
    bool next() {
        while (!step()) step();  // first bit of the pair 0: drop the pair
        return step();
    }

    // `count` output bits accumulated most significant first.
    uint64_t take(unsigned count) {
        uint64_t acc = 0;
        for (unsigned i = 0; i < count; ++i) acc = (acc << 1) | (next() ? 1u : 0u);
        return acc;
    }

   private:
    bool bit(size_t i) const { return bits_[(pos_ + i) % 80] != 0; }
    bool step() {
        const bool b = bit(62) ^ bit(51) ^ bit(38) ^ bit(23) ^ bit(13) ^ bit(0);
        bits_[pos_] = b ? 1 : 0;  // b_{pos+80} overwrites b_pos, the oldest bit
        pos_ = (pos_ + 1) % 80;
        return b;
    }

    std::array<uint8_t, 80> bits_;
    size_t pos_ = 0;
};

void append_bits(std::array<uint8_t, 80>& out, size_t& at, unsigned n, uint64_t value) {
    for (unsigned i = n; i-- > 0;) out[at++] = static_cast<uint8_t>((value >> i) & 1);
}

}  // namespace

std::vector<ff::Fr> grain_round_constants(unsigned field, unsigned sbox, unsigned field_size,
                                          unsigned width, unsigned full_rounds,
                                          unsigned partial_rounds) {
    std::array<uint8_t, 80> init{};
    size_t at = 0;
    append_bits(init, at, 2, field);
    append_bits(init, at, 4, sbox);
    append_bits(init, at, 12, field_size);
    append_bits(init, at, 12, width);
    append_bits(init, at, 10, full_rounds);
    append_bits(init, at, 10, partial_rounds);
    append_bits(init, at, 30, (uint64_t{1} << 30) - 1);
    assert(at == 80);

    Grain grain(init);
    const size_t count = size_t{full_rounds + partial_rounds} * width;
    const unsigned bytes = (field_size + 7) / 8;
    std::vector<ff::Fr> out;
    out.reserve(count);
    while (out.size() < count) {
        // Big-endian bytes: a partial first byte of field_size % 8 bits, then whole bytes.
        std::array<uint8_t, 32> be{};
        const unsigned partial = field_size % 8;
        const unsigned skip = 32 - bytes;
        unsigned i = 0;
        if (partial != 0) be[skip + i++] = static_cast<uint8_t>(grain.take(partial));
        for (; i < bytes; ++i) be[skip + i] = static_cast<uint8_t>(grain.take(8));
        auto value = ff::Fr::from_bytes_be(be);
        if (value.ok()) out.push_back(*value);  // ≥ r: rejected, draw again
    }
    return out;
}

}  // namespace cuzk::poseidon

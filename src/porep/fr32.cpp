#include "porep/fr32.hpp"

#include <string>

namespace cuzk::porep {

namespace {

constexpr uint64_t kDataBits = 254;
constexpr uint64_t kElementBits = 256;

// Bits [pos, pos + n) of a little-endian bit stream (n ≤ 8); bits past the end read as zero.
inline uint8_t read_bits(std::span<const uint8_t> src, uint64_t pos, unsigned n) {
    const uint64_t byte = pos / 8;
    const unsigned shift = static_cast<unsigned>(pos % 8);
    unsigned v = byte < src.size() ? src[byte] >> shift : 0u;
    if (shift + n > 8 && byte + 1 < src.size())
        v |= static_cast<unsigned>(src[byte + 1]) << (8 - shift);
    return static_cast<uint8_t>(v & ((1u << n) - 1));
}

}  // namespace

uint64_t fr32_padded_size(uint64_t unpadded_bytes) {
    const uint64_t bits = unpadded_bytes * 8;
    const uint64_t padded_bits = bits / kDataBits * kElementBits + bits % kDataBits;
    return (padded_bits + 7) / 8;
}

uint64_t fr32_unpadded_size(uint64_t padded_bytes) {
    const uint64_t bits = padded_bytes * 8;
    const uint64_t raw_bits = bits / kElementBits * kDataBits + bits % kElementBits;
    return raw_bits / 8;
}

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw) {
    const uint64_t out_len = fr32_padded_size(raw.size());
    std::vector<uint8_t> out(out_len, 0);
    for (uint64_t i = 0; i < out_len; ++i) {
        const uint64_t element = i / 32;
        const unsigned j = static_cast<unsigned>(i % 32);
        // Byte 31 of an element carries 6 data bits and the 2 zero padding bits.
        const unsigned n = j == 31 ? 6 : 8;
        out[i] = read_bits(raw, element * kDataBits + 8 * j, n);
    }
    return out;
}

util::Result<std::vector<uint8_t>> fr32_unpad(std::span<const uint8_t> padded,
                                              uint64_t unpadded_len) {
    if (fr32_unpadded_size(padded.size()) < unpadded_len) {
        std::string msg = "fr32: ";
        msg += std::to_string(padded.size());
        msg += " padded bytes hold fewer than the ";
        msg += std::to_string(unpadded_len);
        msg += " raw bytes requested";
        return util::invalid_argument(std::move(msg));
    }
    std::vector<uint8_t> out(unpadded_len, 0);
    for (uint64_t k = 0; k < unpadded_len; ++k) {
        const uint64_t raw_pos = 8 * k;
        const uint64_t element = raw_pos / kDataBits;
        const unsigned offset = static_cast<unsigned>(raw_pos % kDataBits);
        const uint64_t padded_pos = element * kElementBits + offset;
        if (offset + 8 <= kDataBits) {
            out[k] = read_bits(padded, padded_pos, 8);
        } else {
            // The byte straddles the padding: its low bits end this element, the rest start
            // the next one.
            const unsigned low_bits = static_cast<unsigned>(kDataBits) - offset;
            const uint8_t low = read_bits(padded, padded_pos, low_bits);
            const uint8_t high = read_bits(padded, (element + 1) * kElementBits, 8 - low_bits);
            out[k] = static_cast<uint8_t>(low | (high << low_bits));
        }
    }
    return out;
}

}  // namespace cuzk::porep

// The little-endian bit vectors behind UInt32 and UInt64 (bellpepper-core uint32.rs, storage-proofs
// uint64.rs): a constant word as constant Booleans, and a word allocated bit by bit
// (AllocatedBit "allocated bit i", i from the least significant) inside namespace `name`.
#pragma once

#include <array>
#include <cstddef>
#include <optional>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

template <size_t W, class T>
std::array<Boolean, W> constant_word_bits(T value) {
    std::array<Boolean, W> bits;
    for (size_t i = 0; i < W; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
    return bits;
}

template <size_t W, class T>
util::Result<std::array<Boolean, W>> alloc_word_bits(ConstraintSystem& cs, const Name& name,
                                                     std::optional<T> value) {
    r1cs::Namespace ns(cs, name);
    std::array<Boolean, W> bits;
    for (size_t i = 0; i < W; ++i) {
        std::optional<bool> b;
        if (value) b = ((*value >> i) & 1) != 0;
        CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, Name("allocated bit ", i), b));
        bits[i] = Boolean(bit);
    }
    return bits;
}

}  // namespace cuzk::gadgets

// UInt64: 64 Booleans read as an unsigned integer, least significant bit first
// (storage-proofs-core `gadgets/uint64.rs`). The PoRep circuit allocates the challenge with it
// and exposes it as one public input.
//
//   alloc            64 AllocatedBits, LE, namespaces "allocated bit i" (64 constraints)
//   pack_into_input  multipack pack_into_inputs of the 64 LE bits: one input, one constraint
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

class UInt64 {
   public:
    static UInt64 constant(uint64_t value);
    // 64 new AllocatedBits inside namespace `name`.
    static util::Result<UInt64> alloc(ConstraintSystem& cs, const Name& name,
                                      std::optional<uint64_t> value);

    std::optional<uint64_t> value() const { return value_; }
    const std::array<Boolean, 64>& bits() const { return bits_; }  // LSB first
    std::vector<Boolean> to_bits_le() const { return {bits_.begin(), bits_.end()}; }
    std::vector<Boolean> to_bits_be() const { return {bits_.rbegin(), bits_.rend()}; }

    // Exposes the value as one public input, inside namespace `name`.
    util::Status pack_into_input(ConstraintSystem& cs, const Name& name) const;

   private:
    std::array<Boolean, 64> bits_;
    std::optional<uint64_t> value_;
};

}  // namespace cuzk::gadgets

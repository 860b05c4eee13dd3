// UInt32: 32 Booleans read as an unsigned integer, least significant bit first, with the
// operations SHA-256 needs (bellperson/bellpepper `gadgets/uint32.rs`).
//
// Representation: bits[0] is the least significant bit; `value` is known when every bit's value
// is (always for constants; never in shape-only constraint systems unless constant).
//
// Costs and shapes (uint32.rs):
//   constant, rotr, shr, from_bits_be, into_bits_be   free (rearrange or add constant bits)
//   alloc     32 AllocatedBits (namespaces "allocated bit i")
//   xor       per bit Boolean::xor_ (namespaces "xor of bit i"): 0 or 1 constraint per bit
//   sha256_ch / sha256_maj  per bit Boolean::sha256_ch / _maj (namespaces "ch i" / "maj i")
//   addmany   n operands (2 ≤ n ≤ 10): if every operand bit is constant, a constant; otherwise
//             bitlen(n·(2^32 − 1)) result bits ("result bit i", LSB first) and the equality
//             Σ_k Σ_i 2^i·op_k[i] = Σ_i 2^i·result[i] pushed into the MultiEq (which emits the
//             constraint later); the result keeps the low 32 bits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"

namespace cuzk::gadgets {

class UInt32 {
   public:
    UInt32() = default;  // the constant 0

    static UInt32 constant(uint32_t value);
    // 32 new AllocatedBits inside namespace `name`.
    static util::Result<UInt32> alloc(ConstraintSystem& cs, const Name& name,
                                      std::optional<uint32_t> value);
    // From 32 bits, most significant first. Errors: not 32 bits.
    static util::Result<UInt32> from_bits_be(std::span<const Boolean> bits);

    const std::array<Boolean, 32>& bits() const { return bits_; }  // LSB first
    std::optional<uint32_t> value() const { return value_; }
    // The bits, most significant first.
    std::vector<Boolean> into_bits_be() const;
    void append_bits_be(std::vector<Boolean>& out) const;

    UInt32 rotr(unsigned by) const;
    UInt32 shr(unsigned by) const;

    util::Result<UInt32> xor_(ConstraintSystem& cs, const Name& name, const UInt32& other) const;
    static util::Result<UInt32> sha256_ch(ConstraintSystem& cs, const Name& name, const UInt32& a,
                                          const UInt32& b, const UInt32& c);
    static util::Result<UInt32> sha256_maj(ConstraintSystem& cs, const Name& name, const UInt32& a,
                                           const UInt32& b, const UInt32& c);
    // (Σ operands) mod 2^32 inside namespace `name` of meq.cs(). Errors: fewer than 2 or more
    // than 10 operands.
    static util::Result<UInt32> addmany(MultiEq& meq, const Name& name,
                                        std::span<const UInt32> operands);

   private:
    std::array<Boolean, 32> bits_;
    std::optional<uint32_t> value_ = 0;
};

}  // namespace cuzk::gadgets

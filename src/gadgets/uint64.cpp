#include "gadgets/uint64.hpp"

#include "gadgets/multipack.hpp"
#include "gadgets/word_bits.hpp"

namespace cuzk::gadgets {

UInt64 UInt64::constant(uint64_t value) {
    UInt64 r;
    r.bits_ = constant_word_bits<64>(value);
    r.value_ = value;
    return r;
}

util::Result<UInt64> UInt64::alloc(ConstraintSystem& cs, const Name& name,
                                   std::optional<uint64_t> value) {
    UInt64 r;
    CUZK_ASSIGN_OR_RETURN(r.bits_, alloc_word_bits<64>(cs, name, value));
    r.value_ = cs.computes_values() ? value : std::nullopt;
    return r;
}

util::Status UInt64::pack_into_input(ConstraintSystem& cs, const Name& name) const {
    return pack_into_inputs(cs, name, bits_);
}

}  // namespace cuzk::gadgets

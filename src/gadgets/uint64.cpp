#include "gadgets/uint64.hpp"

#include "gadgets/multipack.hpp"

namespace cuzk::gadgets {

UInt64 UInt64::constant(uint64_t value) {
    UInt64 r;
    for (unsigned i = 0; i < 64; ++i) r.bits_[i] = Boolean::constant(((value >> i) & 1) != 0);
    r.value_ = value;
    return r;
}

util::Result<UInt64> UInt64::alloc(ConstraintSystem& cs, const Name& name,
                                   std::optional<uint64_t> value) {
    r1cs::Namespace ns(cs, name);
    UInt64 r;
    for (unsigned i = 0; i < 64; ++i) {
        std::optional<bool> b;
        if (value) b = ((*value >> i) & 1) != 0;
        CUZK_ASSIGN_OR_RETURN(AllocatedBit bit,
                              AllocatedBit::alloc(cs, Name("allocated bit ", i), b));
        r.bits_[i] = Boolean(bit);
    }
    r.value_ = cs.computes_values() ? value : std::nullopt;
    return r;
}

util::Status UInt64::pack_into_input(ConstraintSystem& cs, const Name& name) const {
    return pack_into_inputs(cs, name, bits_);
}

}  // namespace cuzk::gadgets

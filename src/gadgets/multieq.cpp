#include "gadgets/multieq.hpp"

#include <cassert>

namespace cuzk::gadgets {

MultiEq::~MultiEq() {
    assert(bits_used_ == 0 && "MultiEq destroyed with pending equalities: call finish()");
}

void MultiEq::accumulate() {
    cs_.enforce_lazy(Name("multieq ", ops_), [&] {
        return r1cs::LcRow{lhs_.build(), LC(Variable::one()), rhs_.build()};
    });
    lhs_.clear();
    rhs_.clear();
    bits_used_ = 0;
    ++ops_;
}

util::Status MultiEq::enforce_equal(size_t num_bits, const LC& lhs, const LC& rhs) {
    if (num_bits >= kCapacity) {
        return util::invalid_argument("MultiEq::enforce_equal: too many bits for one equality");
    }
    if (kCapacity <= bits_used_ + num_bits) accumulate();
    if (!cs_.wants_constraints()) {  // the rows are not built: only the bit bookkeeping
        bits_used_ += num_bits;
        return util::Status();
    }
    const Fr coeff = Fr::from_u64(2).pow(static_cast<uint64_t>(bits_used_));
    lhs_.add_scaled(lhs, coeff);
    rhs_.add_scaled(rhs, coeff);
    bits_used_ += num_bits;
    return util::Status();
}

util::Status MultiEq::count_equal(size_t num_bits) {
    assert(!cs_.wants_constraints() && "MultiEq::count_equal: the constraint system wants rows");
    return enforce_equal(num_bits, LC(), LC());
}

void MultiEq::finish() {
    if (bits_used_ > 0) accumulate();
}

void MultiEq::discard() {
    lhs_.clear();
    rhs_.clear();
    bits_used_ = 0;
}

}  // namespace cuzk::gadgets

#include "r1cs/counter.hpp"

namespace cuzk::r1cs {
namespace {

size_t nonzero_terms(const LC& lc) {
    size_t n = 0;
    for (const Term& t : lc) n += t.coeff.is_zero() ? 0 : 1;
    return n;
}

}  // namespace

Counter::Counter() : ConstraintSystem(/*computes_values=*/false, /*needs_names=*/false) {
    allocate_one();
}

void Counter::on_alloc(const Name&, uint32_t, const ff::Fr*) {
    a_aux_density_.push_back();
    b_aux_density_.push_back();
}

void Counter::on_alloc_input(const Name&, uint32_t, const ff::Fr*) { b_input_density_.push_back(); }

void Counter::on_enforce(const Name&, const LC& a, const LC& b, const LC& c) {
    mark_density(a, nullptr, &a_aux_density_);
    mark_density(b, &b_input_density_, &b_aux_density_);
    nnz_[0] += nonzero_terms(a);
    nnz_[1] += nonzero_terms(b);
    nnz_[2] += nonzero_terms(c);
}

}  // namespace cuzk::r1cs

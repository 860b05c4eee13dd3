#include "r1cs/proving_assignment.hpp"

#include <cassert>

namespace cuzk::r1cs {

ProvingAssignment::ProvingAssignment(const Options& options)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false) {
    if (options.presize) {
        const Capacity& cap = options.capacity;
        const size_t rows = cap.constraints + cap.inputs;
        a_.reserve(rows);
        b_.reserve(rows);
        c_.reserve(rows);
        inputs_.reserve(cap.inputs);
        aux_.reserve(cap.aux);
        a_aux_density_.reserve(cap.aux);
        b_aux_density_.reserve(cap.aux);
        b_input_density_.reserve(cap.inputs);
    }
    allocate_one();
}

void ProvingAssignment::finish() {
    assert(!finished_ && "ProvingAssignment::finish called twice");
    append_input_constraints();
    finished_ = true;
}

void ProvingAssignment::on_alloc(const Name&, uint32_t, const ff::Fr* value) {
    aux_.push_back(*value);
    a_aux_density_.push_back();
    b_aux_density_.push_back();
}

void ProvingAssignment::on_alloc_input(const Name&, uint32_t, const ff::Fr* value) {
    inputs_.push_back(*value);
    b_input_density_.push_back();
}

void ProvingAssignment::on_enforce(const Name&, const LC& a, const LC& b, const LC& c) {
    a_.push_back(evaluate(a, inputs_, aux_, nullptr, &a_aux_density_));
    b_.push_back(evaluate(b, inputs_, aux_, &b_input_density_, &b_aux_density_));
    c_.push_back(evaluate(c, inputs_, aux_, nullptr, nullptr));
}

}  // namespace cuzk::r1cs

#include "r1cs/witness_only.hpp"

namespace cuzk::r1cs {

WitnessOnly::WitnessOnly(size_t input_capacity, size_t aux_capacity)
    : ConstraintSystem(/*computes_values=*/true, /*needs_names=*/false) {
    inputs_.reserve(input_capacity);
    aux_.reserve(aux_capacity);
    allocate_one();
}

std::vector<ff::Fr> WitnessOnly::z() const {
    std::vector<ff::Fr> out;
    out.reserve(inputs_.size() + aux_.size());
    out.insert(out.end(), inputs_.begin(), inputs_.end());
    out.insert(out.end(), aux_.begin(), aux_.end());
    return out;
}

void WitnessOnly::on_alloc(const Name&, uint32_t, const ff::Fr* value) { aux_.push_back(*value); }

void WitnessOnly::on_alloc_input(const Name&, uint32_t, const ff::Fr* value) {
    inputs_.push_back(*value);
}

}  // namespace cuzk::r1cs

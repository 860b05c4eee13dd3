// WitnessOnly: records the witness (input and aux assignments, ONE = input 0 first) and nothing
// else; enforce does nothing. For witness generation feeding a compiled circuit
// (ShapeRecorder::multiply) or the GPU's SpMV.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class WitnessOnly final : public ConstraintSystem {
   public:
    // input_capacity/aux_capacity: optional reservations (0 = none).
    explicit WitnessOnly(size_t input_capacity = 0, size_t aux_capacity = 0);

    const std::vector<ff::Fr>& input_assignment() const { return inputs_; }
    const std::vector<ff::Fr>& aux_assignment() const { return aux_; }
    // z = (inputs, aux): the column order of ShapeRecorder.
    std::vector<ff::Fr> z() const;

   private:
    void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_enforce(const Name&, const LC&, const LC&, const LC&) override {}

    std::vector<ff::Fr> inputs_, aux_;
};

}  // namespace cuzk::r1cs

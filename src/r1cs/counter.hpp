// Counter: counts constraints, inputs (ONE included) and aux variables, and the density
// popcounts a_aux, b_input, b_aux with the same rule as ProvingAssignment (a variable counts
// when it occurs with a non-zero coefficient) — without values or matrices. It keeps only the
// three density bit vectors (needed to count each variable once): 3 bits per variable.
// Shape-only mode: computes_values() is false, value functions are never called.
#pragma once

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace cuzk::r1cs {

class Counter final : public ConstraintSystem {
   public:
    Counter();

    size_t a_aux_popcount() const { return a_aux_density_.popcount(); }
    size_t b_input_popcount() const { return b_input_density_.popcount(); }
    size_t b_aux_popcount() const { return b_aux_density_.popcount(); }
    const DensityBits& a_aux_density() const { return a_aux_density_; }
    const DensityBits& b_input_density() const { return b_input_density_; }
    const DensityBits& b_aux_density() const { return b_aux_density_; }
    // Terms with non-zero coefficients over all A, B, C (the recorder's nnz).
    size_t nnz_a() const { return nnz_[0]; }
    size_t nnz_b() const { return nnz_[1]; }
    size_t nnz_c() const { return nnz_[2]; }

   private:
    void on_alloc(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_alloc_input(const Name& name, uint32_t index, const ff::Fr* value) override;
    void on_enforce(const Name& name, const LC& a, const LC& b, const LC& c) override;

    DensityBits a_aux_density_, b_input_density_, b_aux_density_;
    size_t nnz_[3] = {0, 0, 0};
};

}  // namespace cuzk::r1cs

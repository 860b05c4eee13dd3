// AllocatedNum: a field element held in one aux (or input) variable of a constraint system,
// with its value when the backend computes values (bellpepper-core `gadgets/num.rs`).
//
// Invariant: `value` is set iff the constraint system the number was allocated in
// computes_values(); gadgets propagate values with the helpers below and never read a value in
// shape-only modes (ShapeRecorder, Counter).
//
// Constraint shapes follow bellpepper-core exactly (operand order matters for the R1CS, see
// spec/porep-c2-circuit.md "Golden rule"):
//   inputize:  A = input,  B = ONE,  C = var
//   mul:       A = a,      B = b,    C = product
//   square:    A = a,      B = a,    C = square
#pragma once

#include <optional>

#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::gadgets {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Name;
using r1cs::Variable;

struct AllocatedNum {
    Variable var;
    std::optional<Fr> value;

    // A new aux variable. `value` is read only when cs.computes_values().
    static util::Result<AllocatedNum> alloc(ConstraintSystem& cs, const Name& name,
                                            const std::optional<Fr>& value);
    // A new public input holding `value` (no constraint).
    static util::Result<AllocatedNum> alloc_input(ConstraintSystem& cs, const Name& name,
                                                  const std::optional<Fr>& value);

    // Makes this number public: allocates an input with the same value and enforces
    // input · ONE = var (constraint "enforce input is correct" inside namespace `name`).
    util::Status inputize(ConstraintSystem& cs, const Name& name) const;

    // this · other, one new variable and one constraint.
    util::Result<AllocatedNum> mul(ConstraintSystem& cs, const Name& name,
                                   const AllocatedNum& other) const;
    // this², one new variable and one constraint.
    util::Result<AllocatedNum> square(ConstraintSystem& cs, const Name& name) const;

    LC lc() const { return LC(var); }
};

// Applies f to the values when both are known (value propagation for gadgets).
template <class F>
std::optional<Fr> map_values(const std::optional<Fr>& a, const std::optional<Fr>& b, F&& f) {
    if (!a || !b) return std::nullopt;
    return f(*a, *b);
}

}  // namespace cuzk::gadgets

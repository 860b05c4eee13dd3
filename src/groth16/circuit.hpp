// A circuit, as the Groth16 layer sees it: a function that synthesizes its variables and
// constraints into any r1cs::ConstraintSystem backend (shape recorder for setup, proving
// assignment for proofs, test CS for debugging). It must allocate the same variables and emit the
// same constraints, in the same order, whichever backend it is given; values are supplied only
// when cs.computes_values(). It does not allocate ONE (every backend does) and does not append
// the input rows (the backend's finish() does).
#pragma once

#include <functional>

#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::groth16 {

using Circuit = std::function<util::Status(r1cs::ConstraintSystem& cs)>;

}  // namespace cuzk::groth16

// The direct synthesis of the legacy Poseidon circuit (circuit.cpp): the line-by-line port of
// neptune's circuit::poseidon_hash, with names. poseidon_hash_circuit uses it for backends that
// want names and for preimages the template cannot be replayed for; circuit_template.cpp
// records it once per (arity, strength). Exposed for those and for tests.
#pragma once

#include <span>

#include "gadgets/num.hpp"
#include "poseidon/constants.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

util::Result<gadgets::AllocatedNum> poseidon_hash_circuit_direct(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::AllocatedNum> preimage, const PoseidonConstants& c);

}  // namespace cuzk::poseidon

// Fast synthesis of the legacy Poseidon circuit by replaying a recorded template.
//
// The legacy circuit's constraints depend only on the constants: every call allocates the same
// number of aux variables in the same order and enforces the same rows, whose linear
// combinations mention only ONE, the preimage variables and the call's own new aux variables,
// with the same coefficients. So the circuit is synthesized once per (arity, strength) into a
// recorder with symbolic variables (ONE; preimage i; new aux k), and each later call replays
// the recorded allocations and rows with the variables substituted — no coefficient products,
// no linear-combination merging — and takes its witness from legacy_circuit_witness. The
// result is the same R1CS as poseidon_hash_circuit's direct synthesis: same allocation order,
// same rows, same terms (zero coefficients included) and coefficients.
//
// The substitution is one-to-one only when the preimage variables are distinct and none is
// ONE; otherwise (and for backends that want names, e.g. TestConstraintSystem) the direct
// synthesis runs instead. Templates are built on first use, thread-safe, and kept for the
// process lifetime.
#pragma once

#include <span>

#include "gadgets/num.hpp"
#include "poseidon/constants.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::poseidon {

// Whether poseidon_hash_circuit may replay the template for this preimage in this backend.
bool can_replay_template(const r1cs::ConstraintSystem& cs,
                         std::span<const gadgets::AllocatedNum> preimage);

// Replays the template (requires can_replay_template and preimage.size() == c.arity). c must
// be the instance constants(c.arity, c.strength) returns: templates are cached by arity and
// strength.
util::Result<gadgets::AllocatedNum> replay_poseidon_template(
    r1cs::ConstraintSystem& cs, const r1cs::Name& name,
    std::span<const gadgets::AllocatedNum> preimage, const PoseidonConstants& c);

}  // namespace cuzk::poseidon

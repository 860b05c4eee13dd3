// The C2 job of one C1 output as Groth16 circuits: one StackedCircuit per partition, each with
// its witness (witness_from_c1) and its public inputs computed outside the circuit
// (stacked_public_inputs with the partition's challenges), plus the blank circuit of a sector
// size for parameter generation and shape-only uses.
//
// A circuit is a std::function<util::Status(r1cs::ConstraintSystem&)> — the same type as
// groth16::Circuit — holding shared ownership of its witness, so it can be called several times
// (proving, then re-synthesizing with names when the prover reports an unsatisfied row).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "porep/c1_types.hpp"
#include "porep/registered_proof.hpp"
#include "r1cs/constraint_system.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

using CircuitFn = std::function<util::Status(r1cs::ConstraintSystem&)>;

struct PartitionCircuits {
    RegisteredSealProof proof;
    std::vector<CircuitFn> circuits;                 // one per partition, in partition order
    std::vector<std::vector<ff::Fr>> public_inputs;  // per partition, ONE excluded
};

// Checks the C1's shape (validate_c1), builds every partition's witness and public inputs.
// Errors name the partition ("partition 3: ...").
util::Result<PartitionCircuits> circuits_from_c1(const SealCommitPhase1Output& c1);

// The partition circuit of `proof` with every value unknown (shape only: Counter,
// ShapeRecorder, parameter generation).
util::Result<CircuitFn> blank_stacked_circuit(RegisteredSealProof proof);

// Re-synthesizes `circuit` into a TestConstraintSystem and returns the full name of its first
// unsatisfied constraint, or an empty string when every constraint holds.
util::Result<std::string> first_unsatisfied_constraint(const CircuitFn& circuit);

}  // namespace cuzk::porep

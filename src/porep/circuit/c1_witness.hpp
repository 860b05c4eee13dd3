// The circuit witness of one partition from a C1 output (storage-proofs-porep
// stacked/circuit/params.rs `impl From<VanillaProof> for Proof` and proof.rs
// StackedCompound::circuit):
//   replica_id, comm_d, comm_r          from the C1 output;
//   comm_r_last = root of challenge 0's comm_r_last proof, comm_c = root of challenge 0's c_x
//   column proof — every challenge of the partition must agree ("inconsistent comm_r_lasts" /
//   "inconsistent comm_cs");
//   per challenge: data_leaf = comm_d proof's leaf, challenge = labeling_proofs[0].node, the
//   comm_d / comm_r_last / c_x paths and the 6 + 8 parent columns (rows and tree_c paths).
// A Merkle proof's path elements become path levels: base elements → base levels, sub → sub,
// top → top (hashes = siblings, index = position). All 32-byte values must be canonical field
// elements. The result is checked against the registered proof's circuit shape.
#pragma once

#include <cstdint>

#include "porep/c1_types.hpp"
#include "porep/circuit/stacked_circuit.hpp"

namespace cuzk::porep {

// The witness of partition `partition` (0-based).
util::Result<StackedWitness> witness_from_c1(const SealCommitPhase1Output& c1, size_t partition);

// A Merkle proof's path as circuit path levels.
util::Result<AuthPath> auth_path_from_proof(const MerkleProof& proof);

}  // namespace cuzk::porep

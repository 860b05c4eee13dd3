// The public inputs of one partition circuit, computed outside the circuit
// (storage-proofs-porep stacked/circuit/proof.rs StackedCompound::generate_public_inputs).
//
// Order (ONE excluded), equal to the order in which the circuit allocates them:
//   replica_id, comm_d, comm_r,
//   per challenge c of the partition: c (comm_d path), the 6 DRG parents of c, the 8 expander
//   parents of c (their comm_c paths), c (UInt64 challenge), c (comm_r_last path), c (comm_c
//   path of the challenged column)
// — 3 + 18·C field elements. Commitments are 32-byte little-endian field elements (an error if
// one is not canonical); indices are small integers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "porep/c1_types.hpp"
#include "porep/graph.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

// A 32-byte domain value as a field element; an error naming `what` if it is ≥ r.
util::Result<ff::Fr> domain_to_fr(const Domain& d, const char* what);

util::Result<std::vector<ff::Fr>> stacked_public_inputs(const SdrGraph& graph,
                                                        const Domain& replica_id,
                                                        const Domain& comm_d, const Domain& comm_r,
                                                        std::span<const uint64_t> challenges);

// The challenges of partition k as the registered proof derives them: interactive (from seed),
// synthetic (from comm_r and seed) or non-interactive (from comm_r).
util::Result<std::vector<uint64_t>> partition_challenges(const SealProofInfo& info,
                                                         const Domain& replica_id,
                                                         const Domain& comm_r, const Domain& seed,
                                                         uint32_t partition);

}  // namespace cuzk::porep

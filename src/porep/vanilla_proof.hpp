// Vanilla (per-challenge) SDR PoRep proofs: creation from a sector's openings, and the
// out-of-circuit verification of a whole C1 output.
//
// Creation follows rust-fil-proofs storage-proofs-porep src/stacked/vanilla/proof.rs
// prove_layers_generate, per challenge c with graph parents p0..p5 (DRG), p6..p13 (expander):
//   comm_d_proofs          tree_d proof of c (leaf = data node c, root = comm_d)
//   replica_column_proofs  c_x: column of c; drg_parents: columns of p0..p5; exp_parents:
//                          columns of p6..p13; each with its tree_c proof
//   comm_r_last_proof      tree_r_last proof of c
//   labeling_proofs[ℓ−1]   for ℓ = 1..L: {parents, layer_index = ℓ, node = c}; parents = the
//                          labels of p0..p5 in layer ℓ (ℓ = 1), or of p0..p5 in layer ℓ and
//                          p6..p13 in layer ℓ − 1 (ℓ > 1), repeated in order to fill 37 slots
//                          (6×6 + 1, or 14 + 14 + 9)
//   encoding_proof         {the parents of labeling_proofs[L−1], layer_index = L, node = c}
// A column is {index, rows = labels of layers 1..L}; its tree_c leaf is Poseidon_L(rows)
// (vanilla/column.rs hash, hash.rs hash_single_column).
//
// Verification (verify_c1) checks what params.rs Proof::verify / ReplicaColumnProof::verify /
// LabelingProof::verify / EncodingProof::verify and StackedDrg::verify_all_partitions check,
// plus that the labeling parents equal the parents' column rows (what the circuit uses).
// Errors name the first wrong item: "partition 0 challenge 1: labeling proof layer 2: label
// does not match its parents".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ff/fr.hpp"
#include "porep/c1_types.hpp"
#include "porep/graph.hpp"
#include "porep/sector_ids.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

// What a prover can open in a sealed sector (a real one, or a synthetic sparse
// one).
class SectorOpenings {
   public:
    virtual ~SectorOpenings() = default;
    virtual uint32_t layers() const = 0;
    // Label of `node` in layer 1..layers().
    virtual Node label(uint32_t layer, uint64_t node) const = 0;
    virtual util::Result<MerkleProof> tree_d_proof(uint64_t node) const = 0;
    virtual util::Result<MerkleProof> tree_c_proof(uint64_t node) const = 0;
    virtual util::Result<MerkleProof> tree_r_last_proof(uint64_t node) const = 0;
};

// Column hash Poseidon_L(rows) (arity = number of rows: 2 or 11); rows must be
// canonical.
util::Result<ff::Fr> column_hash(const std::vector<Domain>& rows);

// The vanilla proof of one challenge, exactly as prove_layers_generate builds
// it.
util::Result<VanillaProof> make_vanilla_proof(const SdrGraph& graph, const SectorOpenings& sector,
                                              uint64_t challenge);

// The challenges of partition k for the registered proof's mode: interactive
// (V1, V1_1: from replica_id and seed), synthetic (replica_id, comm_r, seed) or
// non-interactive (replica_id, comm_r).
util::Result<std::vector<uint64_t>> porep_challenges(RegisteredSealProof proof,
                                                     const Node& replica_id, const Node& comm_r,
                                                     const Node& seed, uint32_t partition,
                                                     uint32_t challenges_per_partition);

// SHA-256 label of `node` in `layer` from its 37 parent labels
// (labeling_proof.rs create_label).
Node label_from_parents(const Node& replica_id, uint32_t layer, uint64_t node,
                        const std::vector<Domain>& parents);

struct C1VerifyOptions {
    C1ValidateOptions validate;
    // When set, replica_id must equal compute_replica_id(prover_id, sector_id,
    // ticket, comm_d).
    std::optional<Node> prover_id;
    std::optional<uint64_t> sector_id;
};

// Full out-of-circuit verification of a C1 output. The SDR graph is built from
// the registered proof (cheap: parents are computed per challenge, no parent
// cache).
util::Status verify_c1(const SealCommitPhase1Output& c1, const C1VerifyOptions& options = {});

}  // namespace cuzk::porep

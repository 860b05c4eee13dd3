// Synthetic C1 outputs for any sector size, 32 GiB and 64 GiB included, in seconds and little
// memory. The C2 circuit only checks what the vanilla proofs claim, so a C1 is consistent when:
//   - every challenged node's label in each layer is the SHA-256 label of its parents' labels
//     (labeling_proof.rs create_label), the parents being the real SDR graph parents;
//   - every column hash is the leaf of a tree_c path, every replica value of a tree_r_last
//     path, every data node of a tree_d path, and all paths of a tree lead to one root;
//   - replica = label_L + data, comm_r = Poseidon2(comm_c, comm_r_last), and the challenges
//     are the interactive challenges of replica_id and seed.
// Construction (deterministic in `rng_seed`):
//   data: every node holds the same value D (random fr32-trimmed bytes, or 0 with zero_data),
//     so tree_d has one value per level and comm_d costs depth hashes; D = 0 gives the real
//     comm_d of a CC sector;
//   replica_id from prover_id, sector_id, ticket, comm_d and the porep_id (as sealing does);
//   labels: parents that are not challenged get random labels (byte 31 & 0x3f) in every
//     layer; challenged nodes, per layer in increasing node order, the SHA-256 of their
//     parents' labels (DRG parents precede their child, expander parents are in the previous
//     layer, so every input is known when needed);
//   tree_c / tree_r_last: sparse Poseidon trees (tree_poseidon.hpp) over the touched leaves,
//     every other leaf 0.
// Only interactive proofs (V1, V1_1) are supported: the synthetic and non-interactive modes
// derive challenges from comm_r, which depends on the challenged values themselves.
#pragma once

#include <cstdint>
#include <optional>

#include "porep/c1_types.hpp"
#include "porep/registered_proof.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

struct SyntheticC1Inputs {
    RegisteredSealProof proof = RegisteredSealProof::kStackedDrg32GiBV1_1;
    uint64_t rng_seed = 0;
    bool zero_data = false;
    // Unset: drawn from the rng.
    std::optional<Domain> prover_id;
    uint64_t sector_id = 1;
    std::optional<Domain> ticket;
    std::optional<Domain> seed;
};

struct SyntheticC1 {
    SealCommitPhase1Output c1;
    Domain prover_id{};
    Domain comm_c{};
    Domain comm_r_last{};
    Domain data_node{};          // D, the value of every data node
    uint64_t touched_nodes = 0;  // challenged nodes and their parents (distinct)
};

util::Result<SyntheticC1> generate_synthetic_c1(const SyntheticC1Inputs& inputs);

}  // namespace cuzk::porep

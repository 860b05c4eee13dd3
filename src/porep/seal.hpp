// End-to-end sealing of small sectors (2 KiB, 8 MiB, 512 MiB) in memory, up to
// the C1 output (rust-fil-proofs filecoin-proofs src/api/seal.rs
// seal_pre_commit_phase1/2 and seal_commit_phase1; storage-proofs-porep
// stacked/vanilla/proof.rs).
//
// Steps: fr32-pad the unsealed bytes → tree_d (binary SHA-256) → comm_d →
// replica_id = compute_replica_id(prover_id, sector_id, ticket, comm_d,
// porep_id) → SDR labels of all layers → tree_c over the column hashes
// Poseidon_L(label_1(v)..label_L(v)) → comm_c → replica_v = label_L(v) + data_v
// → tree_r_last → comm_r_last → comm_r = Poseidon2(comm_c, comm_r_last) → the
// challenges of every partition (interactive, synthetic or non-interactive, as
// the registered proof says) → one vanilla proof per challenge
// (vanilla_proof.hpp) → verify_c1 on the result (as seal_commit_phase1 verifies
// before returning). Memory: the labels (layers·sector bytes), tree_d (2·sector), tree_c and
// tree_r_last (1.15·sector each) and, while labeling, the parent cache (1.75·sector); measured
// peak RSS of `cuzk seal` for 512 MiB: 3.64 GiB (7.5 min on 2 shared cores).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "porep/c1_types.hpp"
#include "porep/graph.hpp"
#include "porep/registered_proof.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

// The largest sector seal_sector accepts (512 MiB).
inline constexpr uint64_t kMaxSealSectorSize = uint64_t{512} << 20;

struct SealInputs {
    RegisteredSealProof proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    // The fr32-UNPADDED sector bytes: exactly sector_size·127/128 (2032 for 2
    // KiB).
    std::vector<uint8_t> unsealed;
    Domain prover_id{};
    uint64_t sector_id = 0;
    Domain ticket{};
    Domain seed{};
};

struct SealTimings {
    double parent_cache_ms = 0, tree_d_ms = 0, labels_ms = 0, tree_c_ms = 0, tree_r_last_ms = 0,
           proofs_ms = 0, verify_ms = 0, total_ms = 0;
};

struct SealOptions {
    bool keep_replica = false;  // fill SealOutput::replica
    bool verify = true;         // run verify_c1 on the result
    // A parent cache for the proof's graph, to skip generating it (must match the
    // graph).
    const ParentCache* parent_cache = nullptr;
    // Called with a short phase name ("labels", "tree_c", ...) as each phase
    // starts.
    std::function<void(std::string_view)> progress;
};

struct SealOutput {
    SealCommitPhase1Output c1;
    Domain comm_c{};
    Domain comm_r_last{};
    std::vector<Domain> replica;  // the sealed nodes, when SealOptions::keep_replica
    SealTimings timings;
};

// Sector sizes up to 512 MiB (larger ones: see synthetic_c1.hpp).
util::Result<SealOutput> seal_sector(const SealInputs& inputs, const SealOptions& options = {});

}  // namespace cuzk::porep

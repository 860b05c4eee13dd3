// The C1 output of a sealed sector (SealCommitPhase1Output) as plain structs.
//
// Field names, order and nesting mirror the serde types that produce the JSON:
//   rust-filecoin-proofs-api src/seal.rs         SealCommitPhase1Output, VanillaSealProof
//   rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/
//     params.rs          Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs,
//                               labeling_proofs, encoding_proof}, ReplicaColumnProof
//     column_proof.rs    ColumnProof {column, inclusion_proof}
//     column.rs          Column {index: u32, rows, _h: PhantomData (serialized as null)}
//     labeling_proof.rs  LabelingProof {parents, layer_index: u32, node: u64}
//     encoding_proof.rs  EncodingProof {parents, layer_index: u32, node: u64}
//   rust-fil-proofs storage-proofs-core/src/merkle/proof.rs
//     MerkleProof {data: ProofData::Single{root, leaf, path} | Sub{base_proof, sub_proof, root,
//     leaf} | Top{base_proof, sub_proof, top_proof, root, leaf}}, InclusionPath {path: [
//     PathElement {hashes, index: usize}]}
// (curio lib/proof/porep_vproof_types.go and merkle.go mirror the same layout in Go.)
//
// A Domain is 32 bytes as serialized: the SHA-256 digest bytes for comm_d paths, the
// little-endian Fr representation for Poseidon nodes. Nothing here checks field canonicity.
//
// Shape invariants that parse_c1_* and validate_c1 enforce (not the struct types themselves):
// every partition has the same number of challenges; drg_parents has 6 and exp_parents 8 column
// proofs; columns have `layers` rows; labeling_proofs has `layers` entries with 37 parents each,
// as has encoding_proof; comm_d_proofs is a Single binary path of log2(nodes) levels with one hash
// per level; tree_r_last / tree_c proofs are Single, Sub or Top as the sector's tree shape says,
// with arity - 1 hashes per level and index < arity.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "porep/registered_proof.hpp"

namespace cuzk::porep {

using Domain = std::array<uint8_t, 32>;

// SDR graph degrees (rust-fil-proofs storage-proofs-porep drgraph BASE_DEGREE, EXP_DEGREE,
// stacked/vanilla TOTAL_PARENTS: labeling hashes the 14 parents repeated to 37).
inline constexpr size_t kC1DrgParents = 6;
inline constexpr size_t kC1ExpParents = 8;
inline constexpr size_t kC1LabelingParents = 37;

struct PathElement {
    std::vector<Domain> hashes;  // the arity - 1 siblings at this level
    uint64_t index = 0;          // position of the path node among its arity siblings
    bool operator==(const PathElement&) const = default;
};
using InclusionPath = std::vector<PathElement>;

enum class MerkleProofKind : uint8_t { kSingle, kSub, kTop };
const char* merkle_proof_kind_name(MerkleProofKind kind);  // "Single", "Sub", "Top"

struct MerkleProof {
    MerkleProofKind kind = MerkleProofKind::kSingle;
    Domain root{};
    Domain leaf{};
    InclusionPath base;  // Single: "path"; Sub/Top: "base_proof"
    InclusionPath sub;   // Sub/Top: "sub_proof" (one level); empty for Single
    InclusionPath top;   // Top: "top_proof" (one level); empty otherwise
    bool operator==(const MerkleProof&) const = default;
};

struct Column {
    uint32_t index = 0;
    std::vector<Domain> rows;  // one label per layer
    bool operator==(const Column&) const = default;
};

struct ColumnProof {
    Column column;
    MerkleProof inclusion_proof;  // into tree_c
    bool operator==(const ColumnProof&) const = default;
};

struct ReplicaColumnProof {
    ColumnProof c_x;
    std::vector<ColumnProof> drg_parents;
    std::vector<ColumnProof> exp_parents;
    bool operator==(const ReplicaColumnProof&) const = default;
};

struct LabelingProof {
    std::vector<Domain> parents;
    uint32_t layer_index = 0;
    uint64_t node = 0;
    bool operator==(const LabelingProof&) const = default;
};

struct EncodingProof {
    std::vector<Domain> parents;
    uint32_t layer_index = 0;
    uint64_t node = 0;
    bool operator==(const EncodingProof&) const = default;
};

// One challenge's vanilla proof (stacked::Proof<Tree, Sha256Hasher>).
struct VanillaProof {
    MerkleProof comm_d_proofs;      // into tree_d (binary SHA-256)
    MerkleProof comm_r_last_proof;  // into tree_r_last (Poseidon, oct base)
    ReplicaColumnProof replica_column_proofs;
    std::vector<LabelingProof> labeling_proofs;  // layers 1..L
    EncodingProof encoding_proof;
    bool operator==(const VanillaProof&) const = default;
};

struct SealCommitPhase1Output {
    RegisteredSealProof registered_proof = RegisteredSealProof::kStackedDrg2KiBV1_1;
    std::vector<std::vector<VanillaProof>> vanilla_proofs;  // [partition][challenge]
    Domain comm_r{};
    Domain comm_d{};
    Domain replica_id{};
    Domain seed{};
    Domain ticket{};
    bool operator==(const SealCommitPhase1Output&) const = default;
};

// The VanillaSealProof variant name for a sector size: "StackedDrg2KiBV1", ..., "StackedDrg64GiBV1"
// (the same for every api version — the enum has one variant per size), or nullptr.
const char* vanilla_proof_variant_name(uint64_t sector_size);

// Options for validate_c1.
struct C1ValidateOptions {
    // Also require partitions == SealProofInfo::partitions and challenges per partition ==
    // SealProofInfo::challenges_per_partition (the counts the C2 circuit is built for).
    bool require_registered_counts = true;
};

// Checks the shape invariants listed above against the registered proof. Errors are
// INVALID_ARGUMENT naming the JSON path, e.g. "C1: vanilla_proofs.StackedDrg2KiBV1[0][1]
// .replica_column_proofs.drg_parents: expected 6 column proofs, found 5".
util::Status validate_c1(const SealCommitPhase1Output& c1, const C1ValidateOptions& options = {});

}  // namespace cuzk::porep

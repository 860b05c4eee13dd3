// Registered seal proofs and the per-sector-size PoRep parameters.
//
// RegisteredSealProof mirrors rust-filecoin-proofs-api src/registry.rs: the enum value is the
// registered proof id (append-only, 0..19), which is also the first 8 bytes (LE) of porep_id;
// bytes 8..16 hold the nonce (0 for every proof) and the rest are zero (`porep_id()`).
// The table values come from rust-fil-proofs filecoin-proofs/src/constants.rs:
//   layers 2 (2 KiB, 8 MiB, 512 MiB) / 11 (32, 64 GiB); interactive partitions 1 / 10 and minimum
//   challenges 2 / 176; non-interactive partitions 13 / 126 and minimum challenges 26 / 2253
//   (rust-fil-proofs#1756); challenges per partition = ceil(minimum / partitions) (parameters.rs
//   select_challenges) = 2 / 18 in every mode; tree shapes (base, sub, top) = (8,0,0) for the
//   small sizes, (8,8,0) for 32 GiB, (8,8,2) for 64 GiB.
// Api versions: V1 → 1.0.0, V1_1 and V1_1_Feat_SyntheticPoRep → 1.1.0,
// V1_2_Feat_NonInteractivePoRep → 1.2.0 (registry.rs `version()`).
// All data is constant; every function is thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "util/status.hpp"

namespace cuzk::porep {

using PoRepId = std::array<uint8_t, 32>;

enum class ApiVersion : uint8_t { kV1_0_0, kV1_1_0, kV1_2_0 };
enum class ApiFeature : uint8_t { kNone, kSyntheticPoRep, kNonInteractivePoRep };

const char* api_version_name(ApiVersion v);  // "1.0.0"
// Accepts "1.0.0", "V1_0_0", "v1.0.0" (and the same for 1.1.0, 1.2.0).
util::Result<ApiVersion> parse_api_version(std::string_view text);

enum class RegisteredSealProof : uint8_t {
    kStackedDrg2KiBV1 = 0,
    kStackedDrg8MiBV1 = 1,
    kStackedDrg512MiBV1 = 2,
    kStackedDrg32GiBV1 = 3,
    kStackedDrg64GiBV1 = 4,
    kStackedDrg2KiBV1_1 = 5,
    kStackedDrg8MiBV1_1 = 6,
    kStackedDrg512MiBV1_1 = 7,
    kStackedDrg32GiBV1_1 = 8,
    kStackedDrg64GiBV1_1 = 9,
    kStackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
    kStackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
    kStackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
    kStackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
    kStackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
    kStackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
    kStackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
    kStackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
    kStackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
    kStackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
};
inline constexpr int kNumRegisteredSealProofs = 20;

// Merkle tree arities of tree_c / tree_r_last: base (8), sub (0 or 8), top (0 or 2).
struct TreeShape {
    uint32_t base;
    uint32_t sub;
    uint32_t top;
    bool operator==(const TreeShape&) const = default;
};

struct SealProofInfo {
    RegisteredSealProof proof;
    const char* name;      // "StackedDrg2KiBV1_1", as in rust-filecoin-proofs-api
    uint64_t sector_size;  // bytes
    ApiVersion api_version;
    ApiFeature feature;
    uint32_t layers;
    uint32_t partitions;
    uint32_t challenges_per_partition;
    TreeShape shape;

    uint64_t id() const { return static_cast<uint64_t>(proof); }
    uint64_t nodes() const { return sector_size / 32; }
    PoRepId porep_id() const;
    // Base Merkle trees of tree_c / tree_r_last (1, 8 or 16) and the leaves of each.
    uint64_t base_tree_count() const;
    uint64_t base_tree_leaves() const { return nodes() / base_tree_count(); }
};

const SealProofInfo& seal_proof_info(RegisteredSealProof proof);
std::span<const SealProofInfo> all_seal_proofs();

// Parses a proof name ("StackedDrg2KiBV1_1", case-insensitive) or its numeric id ("5").
util::Result<RegisteredSealProof> parse_registered_seal_proof(std::string_view text);

// The registered proof of that sector size, api version and feature, if one exists.
util::Result<RegisteredSealProof> find_seal_proof(uint64_t sector_size, ApiVersion version,
                                                  ApiFeature feature = ApiFeature::kNone);
// The registered proof whose porep_id is this one (nonce 0).
util::Result<RegisteredSealProof> seal_proof_from_porep_id(const PoRepId& porep_id);

// Parses "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (unit case-insensitive) or a byte count
// ("2048"); only the five published sector sizes are accepted.
util::Result<uint64_t> parse_sector_size(std::string_view text);
// "2KiB", "8MiB", ... for the supported sizes, else the decimal byte count.
std::string sector_size_name(uint64_t sector_size);

}  // namespace cuzk::porep

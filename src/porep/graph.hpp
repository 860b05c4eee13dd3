// The SDR (stacked DRG) graph: per node 6 DRG parents in the same layer and 8 expander parents in
// the previous layer.
//
// Sources: rust-fil-proofs storage-proofs-core src/drgraph.rs (BucketGraph::parents),
// src/crypto/mod.rs (derive_porep_domain_seed), storage-proofs-porep src/stacked/vanilla/graph.rs
// (derive_feistel_keys, correspondent), vanilla/cache.rs (ParentCache::generate).
//   domain seed(tag) = SHA-256(tag ‖ porep_id), tags "Filecoin_DRSample" and "Filecoin_Feistel".
//   DRG (m = 6, m' = 5), nodes 0 and 1: all parents 0. Node v ≥ 2: ChaCha8 seeded with
//   drg_seed[0..28] ‖ v as u32 LE; meta = 5v; buckets = ceil(log2 meta); five times
//   {bucket = u64 % buckets + 1; hi = min(meta, 2^bucket); lo = max(2, hi / 2);
//    dist = lo + u64 % (hi − lo + 1); p = (meta − dist) / 5; p == v ? v − 1 : p}.
//   Api V1_1_0 and later put the predecessor v − 1 first and the five random parents after it;
//   V1_0_0 puts the random parents first and v − 1 last.
//   Expander parent i of v = permute(8·nodes, 8v + i) / 8 (Feistel keys = the 4 LE u64 of the
//   Feistel seed; V1_0_0 truncates the permuted index to u32 before dividing).
// Every parent index is < nodes. An SdrGraph is immutable and safe to share between threads.
#pragma once

#include <cstdint>
#include <vector>

#include "porep/feistel.hpp"
#include "porep/registered_proof.hpp"
#include "util/sha256.hpp"
#include "util/status.hpp"

namespace cuzk::porep {

inline constexpr int kDrgParents = 6;                            // BASE_DEGREE
inline constexpr int kExpParents = 8;                            // EXP_DEGREE
inline constexpr int kTotalParents = kDrgParents + kExpParents;  // per node in the parent cache
inline constexpr int kLabelParentHashes = 37;                    // TOTAL_PARENTS hashed per label

inline constexpr char kDrSampleTag[] = "Filecoin_DRSample";
inline constexpr char kFeistelTag[] = "Filecoin_Feistel";

// SHA-256(tag ‖ porep_id).
util::Sha256Digest derive_porep_domain_seed(const char* tag, const PoRepId& porep_id);

class SdrGraph {
   public:
    // nodes in [2, 2^32]; a power of two for every real sector size but any value is accepted.
    static util::Result<SdrGraph> create(uint64_t nodes, const PoRepId& porep_id,
                                         ApiVersion api_version);
    static util::Result<SdrGraph> for_proof(RegisteredSealProof proof);

    uint64_t nodes() const { return nodes_; }
    ApiVersion api_version() const { return api_version_; }
    const uint8_t* drg_seed() const { return drg_seed_; }  // 28 bytes
    const FeistelKeys& feistel_keys() const { return feistel_keys_; }

    // node < nodes().
    void drg_parents(uint32_t node, uint32_t out[kDrgParents]) const;
    void exp_parents(uint32_t node, uint32_t out[kExpParents]) const;
    // 6 DRG parents then 8 expander parents.
    void parents(uint32_t node, uint32_t out[kTotalParents]) const;

   private:
    SdrGraph() = default;

    uint64_t nodes_ = 0;
    ApiVersion api_version_ = ApiVersion::kV1_1_0;
    uint8_t drg_seed_[28] = {};
    FeistelKeys feistel_keys_{};
    FeistelParams feistel_params_{};
};

// All parents of all nodes, 14 per node (6 DRG then 8 expander), as storage-proofs-porep
// vanilla/cache.rs writes its parent cache file (each index a LE u32).
class ParentCache {
   public:
    // Generated in parallel on util::ThreadPool::global().
    static ParentCache generate(const SdrGraph& graph);

    uint64_t nodes() const { return nodes_; }
    const uint32_t* parents(uint64_t node) const { return data_.data() + node * kTotalParents; }
    const std::vector<uint32_t>& data() const { return data_; }
    // SHA-256 of the cache file bytes (the value stored in rust-fil-proofs parent_cache.json).
    util::Sha256Digest digest() const;

   private:
    uint64_t nodes_ = 0;
    std::vector<uint32_t> data_;
};

}  // namespace cuzk::porep

#include "porep/graph.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "porep/chacha.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

util::Sha256Digest derive_porep_domain_seed(const char* tag, const PoRepId& porep_id) {
    util::Sha256 h;
    h.update(tag, std::strlen(tag));
    h.update(porep_id);
    return h.final();
}

util::Result<SdrGraph> SdrGraph::create(uint64_t nodes, const PoRepId& porep_id,
                                        ApiVersion api_version) {
    if (nodes < 2 || nodes > (uint64_t{1} << 32)) {
        return util::out_of_range("SDR graph needs between 2 and 2^32 nodes");
    }
    SdrGraph g;
    g.nodes_ = nodes;
    g.api_version_ = api_version;
    const util::Sha256Digest drg = derive_porep_domain_seed(kDrSampleTag, porep_id);
    std::memcpy(g.drg_seed_, drg.data(), sizeof(g.drg_seed_));
    const util::Sha256Digest feistel = derive_porep_domain_seed(kFeistelTag, porep_id);
    for (int k = 0; k < 4; ++k) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; --i) v = (v << 8) | feistel[8 * k + i];
        g.feistel_keys_[k] = v;
    }
    g.feistel_params_ = feistel_precompute(nodes * kExpParents);
    return g;
}

util::Result<SdrGraph> SdrGraph::for_proof(RegisteredSealProof proof) {
    const SealProofInfo& info = seal_proof_info(proof);
    return create(info.nodes(), info.porep_id(), info.api_version);
}

void SdrGraph::drg_parents(uint32_t node, uint32_t out[kDrgParents]) const {
    if (node < 2) {
        std::fill(out, out + kDrgParents, 0u);
        return;
    }
    uint8_t seed[32];
    std::memcpy(seed, drg_seed_, 28);
    for (int i = 0; i < 4; ++i) seed[28 + i] = static_cast<uint8_t>(node >> (8 * i));
    ChaChaRng rng = chacha8_from_seed(seed);

    constexpr uint64_t kMPrime = kDrgParents - 1;
    const uint64_t meta = uint64_t{node} * kMPrime;
    // ceil(log2(meta)) for meta ≥ 2, exactly (drgraph.rs computes it in f64, which is exact for
    // meta ≤ 2^54 as that code requires).
    const uint64_t buckets = static_cast<uint64_t>(std::bit_width(meta - 1));
    const bool predecessor_first = api_version_ != ApiVersion::kV1_0_0;
    uint32_t* random_out = predecessor_first ? out + 1 : out;
    for (uint64_t k = 0; k < kMPrime; ++k) {
        const uint64_t bucket = rng.next_u64() % buckets + 1;
        const uint64_t largest = std::min(meta, uint64_t{1} << bucket);
        const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
        const uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
        const uint32_t parent = static_cast<uint32_t>((meta - distance) / kMPrime);
        random_out[k] = parent == node ? node - 1 : parent;
    }
    if (predecessor_first) {
        out[0] = node - 1;
    } else {
        out[kMPrime] = node - 1;
    }
}

void SdrGraph::exp_parents(uint32_t node, uint32_t out[kExpParents]) const {
    const uint64_t domain = nodes_ * kExpParents;
    for (int i = 0; i < kExpParents; ++i) {
        const uint64_t a = uint64_t{node} * kExpParents + static_cast<uint64_t>(i);
        const uint64_t permuted = feistel_permute(domain, a, feistel_keys_, feistel_params_);
        if (api_version_ == ApiVersion::kV1_0_0) {
            out[i] = static_cast<uint32_t>(permuted) / kExpParents;
        } else {
            out[i] = static_cast<uint32_t>(permuted / kExpParents);
        }
    }
}

void SdrGraph::parents(uint32_t node, uint32_t out[kTotalParents]) const {
    drg_parents(node, out);
    exp_parents(node, out + kDrgParents);
}

ParentCache ParentCache::generate(const SdrGraph& graph) {
    ParentCache cache;
    cache.nodes_ = graph.nodes();
    cache.data_.resize(graph.nodes() * kTotalParents);
    uint32_t* data = cache.data_.data();
    util::ThreadPool::global().parallel_ranges(graph.nodes(), [&](size_t begin, size_t end) {
        for (size_t v = begin; v < end; ++v) {
            graph.parents(static_cast<uint32_t>(v), data + v * kTotalParents);
        }
    });
    return cache;
}

util::Sha256Digest ParentCache::digest() const {
    util::Sha256 h;
    if constexpr (std::endian::native == std::endian::little) {
        h.update(data_.data(), data_.size() * sizeof(uint32_t));
    } else {
        for (uint32_t p : data_) {
            const uint8_t le[4] = {static_cast<uint8_t>(p), static_cast<uint8_t>(p >> 8),
                                   static_cast<uint8_t>(p >> 16), static_cast<uint8_t>(p >> 24)};
            h.update(le, 4);
        }
    }
    return h.final();
}

}  // namespace cuzk::porep

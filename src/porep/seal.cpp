#include "porep/seal.hpp"

#include <atomic>
#include <cstring>
#include <optional>
#include <string>

#include "porep/fr32.hpp"
#include "porep/labels.hpp"
#include "porep/sector_ids.hpp"
#include "porep/tree_d.hpp"
#include "porep/tree_poseidon.hpp"
#include "porep/vanilla_proof.hpp"
#include "poseidon/hash.hpp"
#include "util/thread_pool.hpp"
#include "util/timer.hpp"

namespace cuzk::porep {

namespace {

// The openings of a sector sealed in memory.
class DenseSector final : public SectorOpenings {
   public:
    DenseSector(const SdrLabels& labels, const TreeD& tree_d, const PoseidonTree& tree_c,
                const PoseidonTree& tree_r)
        : labels_(labels), tree_d_(tree_d), tree_c_(tree_c), tree_r_(tree_r) {}

    uint32_t layers() const override { return labels_.layers; }
    Node label(uint32_t layer, uint64_t node) const override {
        return labels_.label_node(layer, node);
    }
    util::Result<MerkleProof> tree_d_proof(uint64_t node) const override {
        CUZK_ASSIGN_OR_RETURN(std::vector<Node> siblings, tree_d_.path(node));
        MerkleProof p;
        p.kind = MerkleProofKind::kSingle;
        p.root = tree_d_.root();
        p.leaf = tree_d_.node(0, node);
        for (size_t t = 0; t < siblings.size(); ++t) {
            PathElement e;
            e.hashes.push_back(siblings[t]);
            e.index = (node >> t) & 1;
            p.base.push_back(std::move(e));
        }
        return p;
    }
    util::Result<MerkleProof> tree_c_proof(uint64_t node) const override {
        return tree_c_.proof(node);
    }
    util::Result<MerkleProof> tree_r_last_proof(uint64_t node) const override {
        return tree_r_.proof(node);
    }

   private:
    const SdrLabels& labels_;
    const TreeD& tree_d_;
    const PoseidonTree& tree_c_;
    const PoseidonTree& tree_r_;
};

}  // namespace

util::Result<SealOutput> seal_sector(const SealInputs& in, const SealOptions& options) {
    util::Stopwatch total;
    const SealProofInfo& info = seal_proof_info(in.proof);
    if (info.sector_size > kMaxSealSectorSize) {
        std::string msg = "seal: ";
        msg += info.name;
        msg += " is too large to seal in memory (up to 512 MiB; use the synthetic C1 generator)";
        return util::out_of_range(std::move(msg));
    }
    const uint64_t unpadded = fr32_unpadded_size(info.sector_size);
    if (in.unsealed.size() != unpadded) {
        std::string msg = "seal: unsealed data is ";
        msg += std::to_string(in.unsealed.size());
        msg += " bytes, expected ";
        msg += std::to_string(unpadded);
        msg += " (the fr32-unpadded size of ";
        msg += sector_size_name(info.sector_size);
        msg += ")";
        return util::invalid_argument(std::move(msg));
    }
    auto progress = [&](std::string_view phase) {
        if (options.progress) options.progress(phase);
    };
    util::ThreadPool& pool = util::ThreadPool::global();
    SealOutput out;
    util::Stopwatch sw;

    // Data and comm_d.
    progress("tree_d");
    std::vector<uint8_t> data = fr32_pad(in.unsealed);
    data.resize(info.sector_size, 0);
    CUZK_ASSIGN_OR_RETURN(TreeD tree_d, TreeD::build(data));
    std::vector<uint8_t>().swap(data);  // tree_d keeps the data nodes as its leaves
    out.timings.tree_d_ms = sw.elapsed_ms();
    const Node comm_d = tree_d.root();
    const Node replica_id =
        compute_replica_id(in.prover_id, in.sector_id, in.ticket, comm_d, info.porep_id());

    // Graph, parents, labels.
    progress("parent_cache");
    sw.reset();
    CUZK_ASSIGN_OR_RETURN(SdrGraph graph, SdrGraph::for_proof(in.proof));
    std::optional<ParentCache> own_cache;
    const ParentCache* cache = options.parent_cache;
    if (cache == nullptr) {
        own_cache.emplace(ParentCache::generate(graph));
        cache = &*own_cache;
    } else if (cache->nodes() != info.nodes()) {
        return util::invalid_argument("seal: the parent cache is for another sector size");
    }
    out.timings.parent_cache_ms = sw.elapsed_ms();
    progress("labels");
    sw.reset();
    CUZK_ASSIGN_OR_RETURN(SdrLabels labels, generate_labels(*cache, replica_id, info.layers));
    own_cache.reset();
    out.timings.labels_ms = sw.elapsed_ms();

    // tree_c over the column hashes.
    progress("tree_c");
    sw.reset();
    CUZK_ASSIGN_OR_RETURN(PoseidonTreeLayout layout, PoseidonTreeLayout::for_proof(in.proof));
    const uint64_t nodes = info.nodes();
    std::vector<Fr> leaves(nodes);
    {
        auto col_constants = poseidon::constants(info.layers);
        if (!col_constants.ok()) return col_constants.status();
        const poseidon::PoseidonConstants& cc = **col_constants;
        std::atomic<bool> failed{false};
        pool.parallel_ranges(nodes, [&](size_t begin, size_t end) {
            std::vector<Fr> column(info.layers);
            for (size_t v = begin; v < end; ++v) {
                for (uint32_t l = 1; l <= info.layers; ++l) {
                    auto f =
                        Fr::from_bytes_le(std::span<const uint8_t, 32>(labels.label(l, v), 32));
                    if (!f.ok()) {
                        failed = true;
                        return;
                    }
                    column[l - 1] = *f;
                }
                leaves[v] = poseidon::hash_unchecked(cc, column.data());
            }
        });
        if (failed) return util::internal_error("seal: a label is not a canonical field element");
    }
    CUZK_ASSIGN_OR_RETURN(PoseidonTree tree_c,
                          PoseidonTree::build(layout, std::move(leaves), &pool));
    out.timings.tree_c_ms = sw.elapsed_ms();

    // Replica and tree_r_last.
    progress("tree_r_last");
    sw.reset();
    std::vector<Fr> replica(nodes);
    {
        std::atomic<bool> failed{false};
        pool.parallel_ranges(nodes, [&](size_t begin, size_t end) {
            for (size_t v = begin; v < end; ++v) {
                auto key = Fr::from_bytes_le(
                    std::span<const uint8_t, 32>(labels.label(info.layers, v), 32));
                auto d =
                    Fr::from_bytes_le(std::span<const uint8_t, 32>(tree_d.node(0, v).data(), 32));
                if (!key.ok() || !d.ok()) {
                    failed = true;
                    return;
                }
                replica[v] = *key + *d;
            }
        });
        if (failed)
            return util::internal_error("seal: a data node is not a canonical field element");
    }
    if (options.keep_replica) {
        out.replica.resize(nodes);
        for (uint64_t v = 0; v < nodes; ++v) out.replica[v] = fr_to_domain(replica[v]);
    }
    CUZK_ASSIGN_OR_RETURN(PoseidonTree tree_r,
                          PoseidonTree::build(layout, std::move(replica), &pool));
    out.timings.tree_r_last_ms = sw.elapsed_ms();

    out.comm_c = fr_to_domain(tree_c.root());
    out.comm_r_last = fr_to_domain(tree_r.root());
    const Domain comm_r = fr_to_domain(poseidon::hash2(tree_c.root(), tree_r.root()));

    // Challenges and vanilla proofs.
    progress("proofs");
    sw.reset();
    SealCommitPhase1Output& c1 = out.c1;
    c1.registered_proof = in.proof;
    c1.comm_r = comm_r;
    c1.comm_d = comm_d;
    c1.replica_id = replica_id;
    c1.seed = in.seed;
    c1.ticket = in.ticket;
    const DenseSector sector(labels, tree_d, tree_c, tree_r);
    for (uint32_t k = 0; k < info.partitions; ++k) {
        CUZK_ASSIGN_OR_RETURN(std::vector<uint64_t> challenges,
                              porep_challenges(in.proof, replica_id, comm_r, in.seed, k,
                                               info.challenges_per_partition));
        std::vector<VanillaProof> partition;
        partition.reserve(challenges.size());
        for (uint64_t c : challenges) {
            CUZK_ASSIGN_OR_RETURN(VanillaProof p, make_vanilla_proof(graph, sector, c));
            partition.push_back(std::move(p));
        }
        c1.vanilla_proofs.push_back(std::move(partition));
    }
    out.timings.proofs_ms = sw.elapsed_ms();

    if (options.verify) {
        progress("verify");
        sw.reset();
        util::Status st = verify_c1(c1);
        if (!st.ok()) {
            std::string msg = "seal: the C1 output does not verify: ";
            msg += st.message();
            return util::internal_error(std::move(msg));
        }
        out.timings.verify_ms = sw.elapsed_ms();
    }
    out.timings.total_ms = total.elapsed_ms();
    return out;
}

}  // namespace cuzk::porep

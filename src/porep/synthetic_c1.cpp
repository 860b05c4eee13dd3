#include "porep/synthetic_c1.hpp"

#include <bit>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "porep/graph.hpp"
#include "porep/sector_ids.hpp"
#include "porep/tree_d.hpp"
#include "porep/tree_poseidon.hpp"
#include "porep/vanilla_proof.hpp"
#include "poseidon/hash.hpp"
#include "util/rng.hpp"

namespace cuzk::porep {

namespace {

Domain random_domain(util::TestRng& rng, bool trim) {
    Domain d;
    rng.fill(d.data(), d.size());
    if (trim) d[31] &= 0x3f;
    return d;
}

// The openings of the sparse synthetic sector.
class SparseSector final : public SectorOpenings {
   public:
    uint32_t layers_ = 0;
    std::map<std::pair<uint32_t, uint64_t>, Node> labels_;  // (layer, node)
    std::vector<Node> tree_d_levels_;                       // the one value of each level
    const SparsePoseidonTree* tree_c_ = nullptr;
    const SparsePoseidonTree* tree_r_ = nullptr;

    uint32_t layers() const override { return layers_; }
    Node label(uint32_t layer, uint64_t node) const override {
        const auto it = labels_.find({layer, node});
        return it == labels_.end() ? Node{} : it->second;
    }
    util::Result<MerkleProof> tree_d_proof(uint64_t node) const override {
        MerkleProof p;
        p.kind = MerkleProofKind::kSingle;
        p.leaf = tree_d_levels_.front();
        p.root = tree_d_levels_.back();
        for (size_t t = 0; t + 1 < tree_d_levels_.size(); ++t) {
            PathElement e;
            e.hashes.push_back(tree_d_levels_[t]);
            e.index = (node >> t) & 1;
            p.base.push_back(std::move(e));
        }
        return p;
    }
    util::Result<MerkleProof> tree_c_proof(uint64_t node) const override {
        return tree_c_->proof(node);
    }
    util::Result<MerkleProof> tree_r_last_proof(uint64_t node) const override {
        return tree_r_->proof(node);
    }
};

}  // namespace

util::Result<SyntheticC1> generate_synthetic_c1(const SyntheticC1Inputs& in) {
    const SealProofInfo& info = seal_proof_info(in.proof);
    if (info.feature != ApiFeature::kNone) {
        std::string msg = "synthetic C1: ";
        msg += info.name;
        msg +=
            " derives its challenges from comm_r; only interactive proofs (V1, V1_1) are supported";
        return util::invalid_argument(std::move(msg));
    }
    util::TestRng rng(in.rng_seed);
    SyntheticC1 out;
    out.prover_id = in.prover_id.has_value() ? *in.prover_id : random_domain(rng, false);
    const Domain ticket = in.ticket.has_value() ? *in.ticket : random_domain(rng, false);
    const Domain seed = in.seed.has_value() ? *in.seed : random_domain(rng, false);
    out.data_node = in.zero_data ? Domain{} : random_domain(rng, true);

    // tree_d over nodes that all hold D.
    SparseSector sector;
    sector.layers_ = info.layers;
    const uint32_t depth = static_cast<uint32_t>(std::countr_zero(info.nodes()));
    sector.tree_d_levels_.push_back(out.data_node);
    for (uint32_t t = 0; t < depth; ++t) {
        const Node& below = sector.tree_d_levels_.back();
        sector.tree_d_levels_.push_back(sha256_tree_node(below, below));
    }
    const Node comm_d = sector.tree_d_levels_.back();
    const Node replica_id =
        compute_replica_id(out.prover_id, in.sector_id, ticket, comm_d, info.porep_id());

    // Challenges and the touched nodes.
    CUZK_ASSIGN_OR_RETURN(SdrGraph graph, SdrGraph::for_proof(in.proof));
    std::vector<std::vector<uint64_t>> challenges(info.partitions);
    std::set<uint64_t> challenged;
    std::set<uint64_t> touched;
    std::map<uint64_t, std::array<uint32_t, kTotalParents>> parents;
    for (uint32_t k = 0; k < info.partitions; ++k) {
        CUZK_ASSIGN_OR_RETURN(challenges[k],
                              interactive_challenges(info.nodes(), replica_id, seed, k,
                                                     info.challenges_per_partition));
        for (uint64_t c : challenges[k]) {
            challenged.insert(c);
            touched.insert(c);
            auto& ps = parents[c];
            graph.parents(static_cast<uint32_t>(c), ps.data());
            for (uint32_t p : ps) touched.insert(p);
        }
    }
    out.touched_nodes = touched.size();

    // Labels, layer by layer.
    for (uint32_t layer = 1; layer <= info.layers; ++layer) {
        for (uint64_t v : touched) {
            if (challenged.count(v) == 0) sector.labels_[{layer, v}] = random_domain(rng, true);
        }
        for (uint64_t c : challenged) {
            const auto& ps = parents[c];
            const int used = layer == 1 ? kDrgParents : kTotalParents;
            std::vector<Domain> full(kLabelParentHashes);
            for (int slot = 0; slot < kLabelParentHashes; ++slot) {
                const int j = slot % used;
                full[slot] = sector.label(j < kDrgParents ? layer : layer - 1, ps[j]);
            }
            sector.labels_[{layer, c}] = label_from_parents(replica_id, layer, c, full);
        }
    }

    // Sparse trees.
    CUZK_ASSIGN_OR_RETURN(PoseidonTreeLayout layout, PoseidonTreeLayout::for_proof(in.proof));
    std::map<uint64_t, Fr> c_leaves;
    for (uint64_t v : touched) {
        std::vector<Domain> rows;
        for (uint32_t layer = 1; layer <= info.layers; ++layer)
            rows.push_back(sector.label(layer, v));
        CUZK_ASSIGN_OR_RETURN(c_leaves[v], column_hash(rows));
    }
    CUZK_ASSIGN_OR_RETURN(const Fr data_fr, domain_to_fr(out.data_node));
    std::map<uint64_t, Fr> r_leaves;
    for (uint64_t c : challenged) {
        CUZK_ASSIGN_OR_RETURN(const Fr key, domain_to_fr(sector.label(info.layers, c)));
        r_leaves[c] = key + data_fr;
    }
    CUZK_ASSIGN_OR_RETURN(SparsePoseidonTree tree_c, SparsePoseidonTree::build(layout, c_leaves));
    CUZK_ASSIGN_OR_RETURN(SparsePoseidonTree tree_r, SparsePoseidonTree::build(layout, r_leaves));
    sector.tree_c_ = &tree_c;
    sector.tree_r_ = &tree_r;
    out.comm_c = fr_to_domain(tree_c.root());
    out.comm_r_last = fr_to_domain(tree_r.root());

    SealCommitPhase1Output& c1 = out.c1;
    c1.registered_proof = in.proof;
    c1.comm_r = fr_to_domain(poseidon::hash2(tree_c.root(), tree_r.root()));
    c1.comm_d = comm_d;
    c1.replica_id = replica_id;
    c1.seed = seed;
    c1.ticket = ticket;
    for (uint32_t k = 0; k < info.partitions; ++k) {
        std::vector<VanillaProof> partition;
        for (uint64_t c : challenges[k]) {
            CUZK_ASSIGN_OR_RETURN(VanillaProof p, make_vanilla_proof(graph, sector, c));
            partition.push_back(std::move(p));
        }
        c1.vanilla_proofs.push_back(std::move(partition));
    }
    return out;
}

}  // namespace cuzk::porep
